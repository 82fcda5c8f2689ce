-- A transfer support matched to a player by hand (the console): who matched it and when. The
-- record then reads `credited` like one the feed matched itself, and the wallet credits it
-- under the same key, once.
alter table bank_feed_record
    add column matched_by uuid,
    add column matched_at timestamptz;

create index bank_feed_record_matched on bank_feed_record (matched_at) where matched_by is not null;
