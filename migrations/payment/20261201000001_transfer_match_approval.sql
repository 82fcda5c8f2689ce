-- Matching an unmatched transfer by hand follows the adjustments' maker-checker rule: one that
-- credits more than the approval threshold, or would take what its member (or its player) had
-- matched alone over 24 hours past it, waits for a second finance member. The ask is kept on
-- the record (who asked, for which player, when) until another member matches it to that
-- player; `matched_kp` keeps what each match credited, for the rolling totals.
alter table bank_feed_record
    add column match_asked_by uuid,
    add column match_asked_by_username text,
    add column match_asked_for uuid,
    add column match_asked_at timestamptz,
    add column matched_kp bigint,
    add constraint bank_feed_record_match_ask_whole check (
        (match_asked_by is null) = (match_asked_for is null)
        and (match_asked_by is null) = (match_asked_at is null)
        and (match_asked_by is null) = (match_asked_by_username is null)),
    add constraint bank_feed_record_matched_by_another check (
        match_asked_by is null or matched_by is null or matched_by <> match_asked_by);

create index bank_feed_record_matched_alone on bank_feed_record (matched_at)
    where matched_by is not null and match_asked_by is null;
