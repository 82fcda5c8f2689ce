-- A staff member sets their own password and authenticator app through a single-use link
-- mailed to them (issue 44): the admin who creates or resets a member never sees a credential.
-- Until the link is used the member's password hash and app secret are random ones nobody
-- knows. `email` is where links go; one address per member, so an admin cannot have a second
-- member's links sent to the address of a member they already are.
alter table staff_account add column email text;
create unique index staff_account_email_key on staff_account (lower(email));

-- The open enrolment of a member, at most one: the hash of the link's token (the token itself
-- is only in the mail), the app secret it offers (sealed like staff_account.totp_secret, bound
-- to the member's id), and when the link stops working. Used or replaced, the row goes.
create table staff_enrolment (
    staff_id uuid primary key references staff_account (id) on delete cascade,
    token_hash bytea not null unique,
    totp_secret bytea not null,
    expires_at timestamptz not null,
    created_at timestamptz not null default now()
);
