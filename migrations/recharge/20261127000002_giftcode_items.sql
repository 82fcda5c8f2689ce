-- Giftcodes of in-game items: a campaign gives either KP (granted by the wallet) or items of
-- one product's game, sent to that game as a giftcode grant in the redemption's transaction
-- (the outbox) and acknowledged by it on giftcode.result.<product> (docs/game-contract).
--
-- Expand only: a service still on the previous version inserts KP redemptions as before, which
-- every new check allows. The new checks are added `not valid` (no scan under the table lock)
-- and validated by the next migration.

-- What an item campaign gives: [{"itemId": "...", "name": "...", "quantity": n}], in the game's
-- own item ids and names.
alter table giftcode_campaign
    alter column kp drop not null,
    add column product_code text references product (code),
    add column items jsonb,
    add constraint giftcode_campaign_gives_kp_or_items check (
        (kp is not null and product_code is null and items is null)
        or (kp is null and product_code is not null
            and jsonb_typeof(items) = 'array' and jsonb_array_length(items) between 1 and 20)) not valid;

-- An item redemption: 'sent' (the grant is in the outbox, or with the game), then 'delivered'
-- or 'failed' as the game acknowledges it. A failed one gave its code's use back and does not
-- count against the account's limit.
alter table giftcode_redemption
    alter column kp drop not null,
    add column product_code text,
    add column zone_id bigint,
    add column username text,
    -- The character the game named when checked; null when it did not answer in time.
    add column character_name text,
    add column failure_reason text,
    add column acknowledged_at timestamptz,
    drop constraint giftcode_redemption_status_check,
    add constraint giftcode_redemption_status_check
        check (status in ('granting', 'granted', 'sent', 'delivered', 'failed')) not valid,
    add constraint giftcode_redemption_gives_kp_or_items check (
        case when status in ('granting', 'granted')
             then kp is not null and product_code is null
             else kp is null and product_code is not null and zone_id > 0 and username is not null
        end) not valid;

create index giftcode_redemption_sent on giftcode_redemption (created_at) where status = 'sent';
