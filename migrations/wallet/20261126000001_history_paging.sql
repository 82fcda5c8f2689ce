-- no-transaction
-- The full history pages by creation, newest first, each page starting after the last one's
-- final (created_at, id): keyset pagination, so that a player's 1,000th page costs what the
-- first does. Built concurrently, as the ledger takes writes while a release migrates it:
-- hence no transaction around this file, and one statement per file (several statements in
-- one query run as one implicit transaction, which CONCURRENTLY refuses).
create index concurrently if not exists ledger_transaction_created
    on ledger_transaction (user_id, created_at, id)
    where parent_id is null;
