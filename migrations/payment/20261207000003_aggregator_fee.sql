-- The card aggregator's own price list (the charging API's getfee), fetched every hour: the
-- percent of a card's value it keeps, per brand and face value. Kid's card_fee must not be below
-- it, or a card credits more KP than the money it brings: the gauge
-- payment_card_fees_below_aggregator counts such rows and KidCardFeesBelowAggregator fires.
create table aggregator_fee (
    provider text not null references card_provider (code),
    value bigint not null,
    fee_percent numeric(5, 2) not null,
    -- What it keeps of a card of the wrong face value.
    penalty_percent numeric(5, 2),
    fetched_at timestamptz not null default now(),
    primary key (provider, value)
);
