-- Asking for an adjustment is idempotent: the console sends one key per form submission, and the
-- same member asking again with it gets the first answer instead of a second adjustment (which,
-- within the approval threshold, would move the KP twice). Existing rows have no key.
alter table adjustment add column request_key text check (char_length(request_key) between 1 and 128);

create unique index adjustment_request_key on adjustment (requested_by, request_key);
