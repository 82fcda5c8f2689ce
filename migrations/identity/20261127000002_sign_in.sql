-- Every sign-in to an account and every refused attempt at one (a known username with a wrong
-- password, a wrong second factor), newest read first: the player's sign-in history, and how
-- a device not seen before is told (a mail with a link that ends the session it opened).
create table sign_in (
    id uuid primary key,
    user_id uuid not null references user_account (id) on delete cascade,
    occurred_at timestamptz not null default now(),
    ip text not null,
    user_agent text not null,
    -- SHA-256 of the browser's device cookie (kid_device); null when it sent none.
    device_hash bytea,
    method text not null check (method in ('password', 'totp', 'recovery_code', 'passkey')),
    -- Null for a sign-in; why the attempt was refused otherwise.
    failure text check (failure in ('wrong_password', 'wrong_code')),
    -- The handle of the session the sign-in opened.
    session_handle text,
    -- SHA-256 of the single-use token of the mailed link that ends that session.
    end_token_hash bytea unique
);

create index sign_in_by_user on sign_in (user_id, occurred_at desc);
