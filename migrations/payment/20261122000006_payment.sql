-- Payment intake: the methods players top up with, the card fee table, each player's transfer
-- content, what the bank feed sent us, and card orders.

-- Banks and e-wallets players transfer to. The accounts and rates are configuration: these
-- rows are the development seed, and operators change them with plain SQL.
create table transfer_method (
    code text primary key,
    type text not null check (type in ('bank-transfer', 'e-wallet')),
    name text not null,
    -- KP per VND, an exact decimal.
    exchange_rate numeric(12, 4) not null check (exchange_rate > 0),
    account_name text not null,
    account_number text not null,
    mobile_account_number text not null default '',
    -- The NAPAS BIN of the bank or e-wallet the account is held at, for the VietQR code (MoMo
    -- and Viettel Money take VietQR transfers to a wallet's number too); null for none.
    bank_bin text check (bank_bin ~ '^[0-9]{6}$'),
    enabled boolean not null default true,
    position integer not null default 0
);

insert into transfer_method (code, type, name, exchange_rate, account_name, account_number, mobile_account_number, bank_bin, position) values
    ('vietcombank', 'bank-transfer', 'Vietcombank', 1, 'CONG TY CO PHAN KID', '1023456789', '', '970436', 1),
    ('techcombank', 'bank-transfer', 'Techcombank', 1, 'CONG TY CO PHAN KID', '19036677889900', '', '970407', 2),
    ('momo', 'e-wallet', 'MoMo', 1, 'CONG TY CO PHAN KID', '0901234567', '0901234567', '971025', 1),
    ('viettelpay', 'e-wallet', 'ViettelPay', 1, 'CONG TY CO PHAN KID', '0987654321', '0987654321', '971005', 2);

-- Phone and game card brands the aggregator takes.
create table card_provider (
    code text primary key,
    name text not null,
    exchange_rate numeric(12, 4) not null check (exchange_rate > 0),
    payable_values bigint[] not null,
    pin_length integer not null check (pin_length > 0),
    serial_length integer not null check (serial_length > 0),
    enabled boolean not null default true,
    position integer not null default 0
);

insert into card_provider (code, name, exchange_rate, payable_values, pin_length, serial_length, enabled, position) values
    ('viettel', 'Viettel', 1, '{10000,20000,50000,100000,200000,300000,500000,1000000}', 15, 14, true, 1),
    ('vinaphone', 'Vinaphone', 1, '{10000,20000,50000,100000,200000,300000,500000}', 14, 14, true, 2),
    ('mobifone', 'Mobifone', 1, '{10000,20000,50000,100000,200000,300000,500000}', 12, 15, true, 3),
    ('vietnamobile', 'Vietnamobile', 1, '{10000,20000,50000,100000,200000,300000,500000}', 12, 11, false, 4),
    ('zing', 'Zing', 1, '{10000,20000,50000,100000,200000,500000,1000000,2000000}', 9, 12, true, 5),
    ('gate', 'Gate', 1, '{10000,20000,50000,100000,200000,500000,1000000,2000000,5000000}', 10, 10, true, 6),
    ('vtc', 'VTC', 1, '{10000,20000,50000,100000,200000,500000,1000000}', 12, 12, true, 7),
    ('garena', 'Garena', 1, '{20000,50000,100000,200000,500000}', 16, 9, true, 8);

-- The aggregator's fee, in percent of the card's value, per brand and face value.
create table card_fee (
    provider text not null references card_provider (code),
    value bigint not null,
    fee_percent numeric(5, 2) not null check (fee_percent >= 0 and fee_percent < 100),
    primary key (provider, value)
);

insert into card_fee (provider, value, fee_percent)
select code, value,
       case code
           when 'viettel' then 15 when 'vinaphone' then 14 when 'mobifone' then 15
           when 'vietnamobile' then 16 when 'zing' then 12 when 'gate' then 12.5
           when 'vtc' then 13 else 14
       end
from card_provider, unnest(payable_values) as value;

-- Each player's transfer content: what they write in the transfer so it is credited to them.
create table payment_syntax (
    user_id uuid primary key,
    syntax text not null unique check (syntax ~ '^[A-Z0-9]{6,16}$'),
    created_at timestamptz not null default now()
);

-- Everything the bank feed sent with a valid signature, kept whatever became of it.
create table bank_feed_record (
    id uuid primary key,
    -- The provider's transaction id: the idempotency key. Null only for a malformed body.
    provider_id text unique,
    method_code text,
    transaction_date text,
    account_number text,
    content text,
    transfer_type text,
    amount_vnd bigint,
    reference_code text,
    body jsonb,
    raw_body text not null,
    user_id uuid,
    status text not null check (status in ('credited', 'unmatched', 'malformed', 'ignored')),
    reason text,
    received_at timestamptz not null default now(),
    check (status <> 'credited' or (user_id is not null and amount_vnd > 0 and provider_id is not null))
);

create index bank_feed_record_for_support on bank_feed_record (received_at) where status <> 'credited';

-- Card orders. The PIN is never stored: it goes to the aggregator with the order and is gone.
create table card_order (
    id uuid primary key,
    user_id uuid not null,
    provider text not null references card_provider (code),
    declared_value bigint not null check (declared_value > 0),
    serial text not null,
    status text not null check (status in ('pending', 'success', 'failed')),
    -- NOT_FOUND, INVALID, WRONG_AMOUNT or the aggregator's own code.
    error_code text,
    -- The value the aggregator reports, which credits; a later correction changes it.
    real_value bigint check (real_value >= 0),
    -- What credited, as taken when the result arrived: fee and rate of that moment.
    fee_percent numeric(5, 2),
    exchange_rate numeric(12, 4),
    kp bigint check (kp >= 0),
    aggregator_ref text,
    submitted_at timestamptz not null default now(),
    settled_at timestamptz,
    updated_at timestamptz not null default now()
);

-- One pending order per card: the same serial cannot be sent again while it waits.
create unique index card_order_pending_serial on card_order (provider, serial) where status = 'pending';
create index card_order_pending on card_order (submitted_at) where status = 'pending';

-- Every callback the aggregator sent with a valid signature, in arrival order.
create table card_callback (
    id bigint generated always as identity primary key,
    order_id uuid references card_order (id),
    body jsonb not null,
    outcome text not null,
    received_at timestamptz not null default now()
);
