-- Single-use links sent by mail (email verification, password reset). Only a SHA-256 of the
-- token is kept: the token itself exists in the mail alone.
create table email_token (
    token_hash bytea primary key,
    user_id uuid not null references user_account (id),
    purpose text not null check (purpose in ('verify_email', 'reset_password')),
    -- The address the link was sent to; a verification applies only while it is still the
    -- account's address.
    email text not null,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
);

create index email_token_user on email_token (user_id, purpose) where used_at is null;

-- Mail written in the transaction that asks for it and delivered by a courier that retries
-- with back-off, so a failing SMTP server neither fails nor loses a request.
create table mail_message (
    id uuid primary key,
    to_address text not null,
    subject text not null,
    body_text text not null,
    -- The link or code the message carries, for the development mailbox's listing.
    link text,
    code text,
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error text,
    sent_at timestamptz,
    created_at timestamptz not null default now()
);

create index mail_message_due on mail_message (next_attempt_at) where sent_at is null;
