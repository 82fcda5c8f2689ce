-- The payee accounts the first payment migration inserted are development placeholders, and
-- migrations run in production too: a player must never be shown an account we do not own.
-- Rows still holding a placeholder are disabled here; the development seed (kid-launcher)
-- enables them again. Production's real accounts are configuration an operator inserts
-- (deploy/README.md, "Payee accounts").
update transfer_method set enabled = false
where (code, account_number) in (
    ('vietcombank', '1023456789'),
    ('techcombank', '19036677889900'),
    ('momo', '0901234567'),
    ('viettelpay', '0987654321')
);
