-- Six-digit codes mailed to confirm a sensitive action. Kept hashed, for ten minutes, for five
-- wrong tries at most, used once; a new code for the same action replaces the old one.
create table security_code (
    user_id uuid not null references user_account (id),
    action text not null check (action in (
        'confirm.email', 'confirm.phone_number', 'confirm.payment', 'confirm.change_password',
        'confirm.change_email', 'approve.login')),
    code_hash bytea not null,
    expires_at timestamptz not null,
    attempts integer not null default 0,
    used_at timestamptz,
    created_at timestamptz not null default now(),
    primary key (user_id, action)
);
