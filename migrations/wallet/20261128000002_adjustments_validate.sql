-- Validates the checks the previous migration added `not valid` (see there).
alter table ledger_transaction validate constraint ledger_transaction_type_check;
alter table ledger_transaction validate constraint ledger_transaction_top_level_check;
