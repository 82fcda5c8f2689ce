-- Giftcodes: campaigns of codes a player redeems for KP, which the wallet grants.
--
-- A code is never stored: only its keyed hash (HMAC-SHA-256 under recharge.giftcode_pepper) of
-- the normalised text (upper case, without spaces or dashes), which is how it is found. The
-- table alone gives no code away, nor lets one be checked without the pepper.
create table giftcode_campaign (
    id uuid primary key,
    -- Shown to the player and in the history, e.g. 'Chào mừng tân thủ'.
    name text not null unique check (length(name) between 1 and 100),
    -- KP each redemption gives.
    kp bigint not null check (kp > 0),
    -- How many redemptions of the campaign's codes one account may make.
    per_account integer not null default 1 check (per_account > 0),
    starts_at timestamptz not null default now(),
    expires_at timestamptz not null,
    created_at timestamptz not null default now(),
    check (expires_at > starts_at)
);

create table giftcode (
    hash bytea primary key check (length(hash) = 32),
    campaign_id uuid not null references giftcode_campaign (id),
    -- Redemptions the code allows in all: 1 for a single-use code, null for a multi-use code
    -- that only its campaign's per-account limit bounds.
    max_uses integer check (max_uses > 0),
    uses integer not null default 0,
    check (max_uses is null or uses <= max_uses)
);

create index giftcode_by_campaign on giftcode (campaign_id);

-- One redemption: its KP are granted by the wallet with the redemption's id as idempotency key.
-- 'granting' until the wallet confirms; the sweeper drives a stalled one again.
create table giftcode_redemption (
    id uuid primary key,
    user_id uuid not null,
    campaign_id uuid not null references giftcode_campaign (id),
    code_hash bytea not null references giftcode (hash),
    -- The player's request: the same key again is the same redemption.
    idempotency_key text not null,
    kp bigint not null check (kp > 0),
    status text not null check (status in ('granting', 'granted')),
    transaction_id uuid,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (user_id, idempotency_key),
    check ((status = 'granted') = (transaction_id is not null))
);

create index giftcode_redemption_per_account on giftcode_redemption (user_id, campaign_id);
create index giftcode_redemption_granting on giftcode_redemption (created_at) where status = 'granting';
