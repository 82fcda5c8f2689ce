-- Players' accounts. Usernames and emails are unique regardless of case.
create table user_account (
    id uuid primary key,
    username text not null check (username ~ '^[a-z0-9_]{4,32}$'),
    email text not null check (char_length(email) <= 128),
    password_hash text not null,
    dob date not null,
    first_name text not null default '' check (char_length(first_name) <= 128),
    middle_name text not null default '' check (char_length(middle_name) <= 128),
    last_name text not null default '' check (char_length(last_name) <= 128),
    language text not null default 'vi-VN',
    phone_number text not null default '' check (char_length(phone_number) <= 15),
    receive_newsletter boolean not null default false,
    mfa_enabled boolean not null default false,
    created_at timestamptz not null default now(),
    verified_at timestamptz,
    password_changed_at timestamptz
);

create unique index user_account_username_key on user_account (lower(username));
create unique index user_account_email_key on user_account (lower(email));
