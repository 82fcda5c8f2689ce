-- Wrong tries of a security code are counted per hour, not per code: asking for a new code no
-- longer gives five more guesses.
alter table security_code add column tries_since timestamptz not null default now();
