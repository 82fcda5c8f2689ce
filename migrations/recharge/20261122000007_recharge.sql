-- Coin recharge: the game catalogue (products, their servers, payable values and events) and
-- the orders players pay for with KP, with their delivery state and the games' answers.

-- The catalogue is configuration: these rows are the seed, and operators change them with plain
-- SQL. Development adds a zone 99 to every product at start (the reference game fails it).
create table product (
    code text primary key check (code ~ '^[a-z0-9]+$'),
    name text not null,
    logo_img text not null,
    coin_name text not null,
    home_page_url text not null,
    position integer not null default 0
);

insert into product (code, name, logo_img, coin_name, home_page_url, position) values
    ('fsonline', 'Phong Thần Online', '/images/products/fsonline.svg', 'Xu', 'https://fs.kid.example', 1),
    ('jxonline2', 'Võ Lâm Truyền Kỳ 2', '/images/products/jxonline2.svg', 'Xu', 'https://jx2.kid.example', 2),
    ('jxsj2', 'Kiếm Thế 2', '/images/products/jxsj2.svg', 'Vàng', 'https://jxsj2.kid.example', 3);

-- A game server. Ids are the game's own and start at 1.
create table zone (
    product_code text not null references product (code),
    id bigint not null check (id > 0),
    description text not null,
    primary key (product_code, id)
);

insert into zone (product_code, id, description) values
    ('fsonline', 1, 'Máy chủ 1 - Thiên Long'),
    ('fsonline', 2, 'Máy chủ 2 - Bạch Hổ'),
    ('jxonline2', 1, 'Máy chủ 1 - Tương Dương'),
    ('jxonline2', 2, 'Máy chủ 2 - Biện Kinh'),
    ('jxsj2', 1, 'Máy chủ 1 - Vân Trung'),
    ('jxsj2', 2, 'Máy chủ 2 - Long Môn');

-- What a player can buy: KP paid, coin received, and the value's own bonus coin (a milestone).
create table payable_value (
    product_code text not null references product (code),
    credit bigint not null check (credit > 0),
    coins_received bigint not null check (coins_received > 0),
    coins_bonus bigint not null default 0 check (coins_bonus >= 0),
    primary key (product_code, credit)
);

insert into payable_value (product_code, credit, coins_received, coins_bonus) values
    ('fsonline', 20000, 200, 0),
    ('fsonline', 50000, 500, 0),
    ('fsonline', 100000, 1000, 50),
    ('fsonline', 200000, 2000, 150),
    ('fsonline', 500000, 5000, 500),
    ('fsonline', 1000000, 10000, 1500),
    ('jxonline2', 10000, 100, 0),
    ('jxonline2', 20000, 200, 0),
    ('jxonline2', 50000, 500, 0),
    ('jxonline2', 100000, 1000, 50),
    ('jxonline2', 500000, 5000, 400),
    ('jxsj2', 20000, 20, 0),
    ('jxsj2', 50000, 50, 0),
    ('jxsj2', 100000, 100, 5),
    ('jxsj2', 200000, 200, 15),
    ('jxsj2', 500000, 500, 50);

-- Recharge events: bonus coin (coinBonusRate) or lottery points (extpointRate), active within
-- [starts_at, ends_at).
create table recharge_event (
    id bigint generated always as identity primary key,
    product_code text not null references product (code),
    name text not null,
    type text not null check (type in ('recharge.bonus_coin', 'recharge.bonus_lottery_point')),
    rate numeric(8, 4) not null check (rate > 0),
    starts_at timestamptz not null,
    ends_at timestamptz not null check (ends_at > starts_at)
);

insert into recharge_event (product_code, name, type, rate, starts_at, ends_at) values
    ('fsonline', 'Tặng 10% Xu khi nạp', 'recharge.bonus_coin', 0.1, '2026-01-01T00:00:00+07:00', '2028-01-01T00:00:00+07:00'),
    ('fsonline', 'Tích điểm may mắn mùa hè', 'recharge.bonus_lottery_point', 0.05, '2026-05-01T00:00:00+07:00', '2026-07-01T00:00:00+07:00'),
    ('jxonline2', 'Tích điểm quay thưởng', 'recharge.bonus_lottery_point', 0.05, '2026-01-01T00:00:00+07:00', '2028-01-01T00:00:00+07:00'),
    ('jxsj2', 'Tặng 5% Vàng khi nạp', 'recharge.bonus_coin', 0.05, '2026-01-01T00:00:00+07:00', '2028-01-01T00:00:00+07:00'),
    ('jxsj2', 'Tích điểm may mắn', 'recharge.bonus_lottery_point', 0.2, '2026-01-01T00:00:00+07:00', '2028-01-01T00:00:00+07:00');

-- An order: paying (placed, debit asked of the wallet), awaiting_delivery (debited, sent to the
-- game), delivered, or failed (the game failed it or never answered; refunded). An order whose
-- debit the wallet refused for the balance is deleted with nothing moved.
create table recharge_order (
    id uuid primary key,
    user_id uuid not null,
    -- The caller's key: a retried submission finds its order.
    idempotency_key text not null,
    username text not null,
    product_code text not null references product (code),
    zone_id bigint not null,
    credit bigint not null check (credit > 0),
    coins bigint not null check (coins >= 0),
    milestone_bonus bigint not null check (milestone_bonus >= 0),
    event_bonus bigint not null check (event_bonus >= 0),
    lottery_points bigint not null check (lottery_points >= 0),
    status text not null check (status in ('paying', 'awaiting_delivery', 'delivered', 'failed')),
    -- The wallet's credit.pay transaction, once debited.
    transaction_id uuid,
    failure_reason text,
    deliver_by timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (user_id, idempotency_key),
    check (status = 'paying' or transaction_id is not null)
);

create index recharge_order_paying on recharge_order (created_at) where status = 'paying';
create index recharge_order_awaiting on recharge_order (deliver_by) where status = 'awaiting_delivery';

-- Every answer a game sent, with what it did: applied (decided the order), duplicate (the order
-- was already decided the same way), late (a delivery after the refund: for support, never paid
-- again), conflicting (another answer after the first), or unknown_order.
create table game_result (
    id bigint generated always as identity primary key,
    message_id text not null unique,
    order_id uuid not null,
    product_code text not null,
    status text not null check (status in ('delivered', 'failed')),
    reason text not null default '',
    occurred_at timestamptz,
    received_at timestamptz not null default now(),
    effect text not null check (effect in ('applied', 'duplicate', 'late', 'conflicting', 'unknown_order'))
);

create index game_result_order on game_result (order_id);
create index game_result_late on game_result (received_at) where effect = 'late';
