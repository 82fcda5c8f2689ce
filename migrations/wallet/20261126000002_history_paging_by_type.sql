-- no-transaction
-- The history filtered by type (see 20261126000001): its own index, so that a player's few
-- card top-ups among 100,000 payments are found without walking the payments.
create index concurrently if not exists ledger_transaction_type_created
    on ledger_transaction (user_id, type, created_at, id)
    where parent_id is null;
