-- A correction (wallet.topup.corrected) that overtakes the credit it corrects: the two travel
-- as separate events and nothing orders them. It is held here and applied, under its own key,
-- by the credit; the recall that applies it deletes it in the same transaction.
create table held_correction (
    idempotency_key text primary key,
    topup_key text not null,
    user_id uuid not null,
    kp bigint not null check (kp > 0),
    corrected_amount_vnd bigint check (corrected_amount_vnd >= 0),
    -- Why applying it failed, when it could not be (it then stays for an operator).
    last_error text,
    held_at timestamptz not null default now()
);
create index held_correction_topup on held_correction (topup_key);

-- A debit refused for the balance, kept under its key: a later attempt with the same key (a
-- concurrent retry, the recharge sweeper) is refused too, so the order the recharge service
-- deletes on the refusal can never have been paid for meanwhile.
create table refused_payment (
    idempotency_key text primary key,
    user_id uuid not null,
    kp bigint not null,
    refused_at timestamptz not null default now()
);
