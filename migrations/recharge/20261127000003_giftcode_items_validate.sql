-- Validates the checks the previous migration added `not valid` (see there).
alter table giftcode_campaign validate constraint giftcode_campaign_gives_kp_or_items;
alter table giftcode_redemption validate constraint giftcode_redemption_status_check;
alter table giftcode_redemption validate constraint giftcode_redemption_gives_kp_or_items;
