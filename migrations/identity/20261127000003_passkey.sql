-- Passkeys (WebAuthn): a player's registered credentials, each a discoverable key whose user
-- handle is the player's id, so a passkey signs in without a username or a password.
-- `passkey` is webauthn-rs's record of the credential (public key, algorithm, signature
-- counter), rewritten when a sign-in moves its counter on.
create table passkey (
    id uuid primary key,
    user_id uuid not null references user_account (id) on delete cascade,
    credential_id bytea not null unique,
    name text not null,
    passkey jsonb not null,
    created_at timestamptz not null default now(),
    last_used_at timestamptz
);

create index passkey_by_user on passkey (user_id, created_at);

-- A ceremony started and not yet finished: webauthn-rs's state (the challenge and what it
-- allows), single use, for five minutes. A registration belongs to a player; a sign-in to
-- nobody until its assertion names one.
create table passkey_ceremony (
    id uuid primary key,
    user_id uuid references user_account (id) on delete cascade,
    kind text not null check (kind in ('registration', 'sign_in')),
    state jsonb not null,
    expires_at timestamptz not null
);

create index passkey_ceremony_by_expiry on passkey_ceremony (expires_at);
