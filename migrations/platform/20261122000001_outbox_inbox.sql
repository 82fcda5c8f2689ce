-- Events written in the same transaction as the state change they announce; a relay
-- publishes them to RabbitMQ with publisher confirms and then stamps published_at.
create table outbox_message (
    id uuid primary key,
    routing_key text not null,
    payload jsonb not null,
    headers jsonb not null default '{}'::jsonb,
    created_at timestamptz not null default now(),
    published_at timestamptz
);

create index outbox_message_unpublished on outbox_message (created_at, id) where published_at is null;

-- Message ids a consumer has processed, written in the transaction of the processing.
create table inbox_message (
    consumer text not null,
    message_id text not null,
    processed_at timestamptz not null default now(),
    primary key (consumer, message_id)
);
