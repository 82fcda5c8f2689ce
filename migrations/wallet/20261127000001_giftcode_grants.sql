-- Giftcodes: the KP a campaign gives away comes from a system account of its own and is
-- recorded as a top-level 'giftcode' transaction (no related transactions: nothing is bought,
-- no bonus is earned, no debt is settled from it).
--
-- The new checks are looser than the ones they replace, so every row already holds them: they
-- are added `not valid` (no scan while the table lock is held) and validated by the next
-- migration, which only needs a lock that lets reads and writes go on.
insert into account (purpose) values ('giftcode');

alter table ledger_transaction
    drop constraint ledger_transaction_type_check,
    add constraint ledger_transaction_type_check check (type in (
        'topup.bank-transfer', 'topup.e-wallet', 'topup.card', 'credit.pay', 'giftcode',
        'credit.recharge', 'credit.bonus', 'credit.recall', 'credit.refund')) not valid,
    drop constraint ledger_transaction_check1,
    add constraint ledger_transaction_top_level_check check (
        (parent_id is null) = (type like 'topup.%' or type in ('credit.pay', 'giftcode'))) not valid;
