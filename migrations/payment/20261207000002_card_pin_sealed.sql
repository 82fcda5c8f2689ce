-- A card's PIN while its order waits, so the payment service can ask the aggregator about the
-- card again (the charging API's `check` needs the PIN and signs it): sealed with AES-256-GCM
-- under a key derived from the aggregator partner key (kid_platform::seal), bound to the order's
-- id, and erased when the order settles. Never in the clear; nothing but pending orders keeps one.
alter table card_order
    add column sealed_pin bytea,
    -- When the aggregator was last asked about the card.
    add column checked_at timestamptz,
    add constraint card_order_pin_only_while_pending check (sealed_pin is null or status = 'pending');

-- The orders the poller asks about.
create index card_order_to_check on card_order (submitted_at) where status = 'pending' and sealed_pin is not null;
