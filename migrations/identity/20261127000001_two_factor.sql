-- TOTP two-factor (RFC 6238). One authenticator per player: a secret started and not yet
-- confirmed is replaced by the next start; `user_account.mfa_enabled` turns on with the
-- confirmation. `last_step` is the last time step a code was accepted for, so a code is good
-- once (a replay within its 30-second window, or of an earlier step, is refused).
create table totp_credential (
    user_id uuid primary key references user_account (id),
    secret bytea not null,
    confirmed_at timestamptz,
    last_step bigint,
    created_at timestamptz not null default now()
);

-- Ten single-use recovery codes, shown once at confirmation and kept as SHA-256 of the
-- normalised code (80 random bits each: a dump gives nothing to brute-force).
create table recovery_code (
    user_id uuid not null references user_account (id),
    code_hash bytea not null,
    used_at timestamptz,
    created_at timestamptz not null default now(),
    primary key (user_id, code_hash)
);
