-- Closing an account at the player's request (Decree 13/2023): `closed_at` ends every sign-in
-- at once; 30 days later the sweeper erases the personal fields (the row stays, its id the
-- opaque id the wallet's ledger keeps) and sets `erased_at`. A closed account is, to every
-- call but the sign-in that explains it, no account at all.
alter table user_account
    add column closed_at timestamptz,
    add column erased_at timestamptz;

create index user_account_due_for_erasure on user_account (closed_at)
    where closed_at is not null and erased_at is null;
