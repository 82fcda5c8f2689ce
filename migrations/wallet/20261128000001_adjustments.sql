-- KP adjustments by finance staff (the support console): a goodwill credit or a clawback, with
-- a reason, under maker-checker. One above the approval threshold waits for a second finance
-- member, never the one who asked. Applied, it is a top-level 'adjustment' transaction against
-- the 'adjustment' system account.
--
-- The type checks are looser than the ones they replace: added `not valid`, validated by the
-- next migration (as the giftcode migrations do).
insert into account (purpose) values ('adjustment');

alter table ledger_transaction
    drop constraint ledger_transaction_type_check,
    add constraint ledger_transaction_type_check check (type in (
        'topup.bank-transfer', 'topup.e-wallet', 'topup.card', 'credit.pay', 'giftcode', 'adjustment',
        'credit.recharge', 'credit.bonus', 'credit.recall', 'credit.refund')) not valid,
    drop constraint ledger_transaction_top_level_check,
    add constraint ledger_transaction_top_level_check check (
        (parent_id is null) = (type like 'topup.%' or type in ('credit.pay', 'giftcode', 'adjustment'))) not valid;

create table adjustment (
    id uuid primary key,
    user_id uuid not null,
    -- Signed KP: a credit is positive, a clawback negative.
    kp bigint not null check (kp <> 0),
    reason text not null check (char_length(reason) between 1 and 500),
    status text not null check (status in ('pending', 'applied', 'rejected')),
    requested_by uuid not null,
    requested_by_username text not null,
    decided_by uuid,
    decided_by_username text,
    decided_at timestamptz,
    transaction_id uuid references ledger_transaction (id),
    created_at timestamptz not null default now(),
    check (decided_by is null or decided_by <> requested_by),
    check ((status = 'applied') = (transaction_id is not null)),
    check ((status = 'pending') = (decided_at is null))
);

create index adjustment_pending on adjustment (created_at) where status = 'pending';
create index adjustment_of_player on adjustment (user_id, created_at desc);
