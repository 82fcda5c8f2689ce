-- The support centre: a player's tickets and the conversation on each. An image a player
-- attaches is kept outside the database (identity.attachment_dir), named by its id; the row
-- keeps what was checked of it.
create table support_ticket (
    id uuid primary key,
    user_id uuid not null references user_account (id),
    category text not null check (category in ('topup_missing', 'coin_missing', 'account', 'other')),
    subject text not null check (char_length(subject) between 1 and 120),
    -- The transaction of the player's history the ticket is about, if any.
    transaction_id uuid,
    -- open: waiting for support; answered: support replied; closed.
    status text not null default 'open' check (status in ('open', 'answered', 'closed')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

create index support_ticket_of_player on support_ticket (user_id, created_at desc);
create index support_ticket_waiting on support_ticket (updated_at) where status = 'open';

create table ticket_attachment (
    id uuid primary key,
    user_id uuid not null references user_account (id),
    -- image/png, image/jpeg or image/webp, as read from the bytes.
    content_type text not null,
    size_bytes bigint not null check (size_bytes between 1 and 5242880),
    sha256 bytea not null,
    created_at timestamptz not null default now()
);

create table ticket_message (
    id uuid primary key,
    ticket_id uuid not null references support_ticket (id),
    -- null: the player wrote it; else the staff member who replied.
    staff_id uuid,
    staff_username text,
    body text not null check (char_length(body) between 1 and 4000),
    attachment_id uuid references ticket_attachment (id),
    created_at timestamptz not null default now()
);

create index ticket_message_of_ticket on ticket_message (ticket_id, created_at);
