-- Staff of the support console: not players, kept apart from user_account. Each has a role,
-- a password (argon2id) and an authenticator app whose secret is sealed like players' (AES-GCM
-- under identity.totp_key, bound to the staff id); two-factor is not optional. `totp_last_step`
-- makes each app code good once. A disabled member signs in no more.
create table staff_account (
    id uuid primary key,
    username text not null unique,
    password_hash text not null,
    totp_secret bytea not null,
    totp_last_step bigint,
    role text not null check (role in ('viewer', 'support', 'finance', 'admin')),
    created_at timestamptz not null default now(),
    signed_in_at timestamptz,
    disabled_at timestamptz
);
