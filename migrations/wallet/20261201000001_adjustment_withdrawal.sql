-- The asker may withdraw their own pending adjustment (reject it before anyone decides). The
-- first check forbade any decision by the asker, so a withdrawal failed on it with a 500. What
-- maker-checker needs is narrower: an *applied* adjustment decided by someone was decided by
-- another member (one applied under the threshold has no decider at all).
alter table adjustment
    drop constraint adjustment_check,
    add constraint adjustment_applied_by_another check (
        status <> 'applied' or decided_by is null or decided_by <> requested_by);
