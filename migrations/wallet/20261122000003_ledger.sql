-- The KP ledger, kept by double entry. Every transaction's postings sum to zero (checked at
-- commit), postings are never changed, and a player's balances change only through postings,
-- in the same database transaction.

create table account (
    id bigint generated always as identity primary key,
    -- Set for a player's two accounts, null for a system account.
    user_id uuid,
    -- A player's 'kp' (the balance) or 'debt' (what a recall could not take, as a negative
    -- balance); a system account's name, e.g. 'topup.card' or 'game-sales'.
    purpose text not null,
    -- Kept for players' accounts only. A system account takes postings from every player at
    -- once, so it keeps no balance row that each transaction would have to lock: its balance is
    -- the sum of its postings (see account_balance).
    balance bigint,
    unique nulls not distinct (user_id, purpose),
    check ((user_id is null) = (balance is null)),
    check (user_id is null or purpose in ('kp', 'debt')),
    check (user_id is null or purpose <> 'kp' or balance >= 0),
    check (user_id is null or purpose <> 'debt' or balance <= 0)
);

insert into account (purpose) values
    ('topup.bank-transfer'),
    ('topup.e-wallet'),
    ('topup.card'),
    ('bonus'),
    ('game-sales'),
    ('refund'),
    ('recall');

-- One row per player who ever had money: the lock every money operation of that player takes
-- first, and the partner status the last recalculation found.
create table player (
    user_id uuid primary key,
    kp_account_id bigint not null unique references account (id),
    debt_account_id bigint not null unique references account (id),
    is_pay_partner boolean not null default false,
    -- Bonus rate of the tier in force, in basis points (1500 = 15%); 0 when not a partner.
    partner_bonus_bps integer not null default 0 check (partner_bonus_bps between 0 and 10000),
    pay_amount_last_28_days bigint not null default 0 check (pay_amount_last_28_days >= 0),
    partner_recalculated_at timestamptz,
    created_at timestamptz not null default now()
);

create table ledger_transaction (
    id uuid primary key,
    user_id uuid not null references player (user_id),
    type text not null check (type in (
        'topup.bank-transfer', 'topup.e-wallet', 'topup.card', 'credit.pay',
        'credit.recharge', 'credit.bonus', 'credit.recall', 'credit.refund')),
    status text not null check (status in ('pending', 'success', 'failed')),
    real_value bigint not null check (real_value >= 0),
    currency text not null check (currency in ('VND', 'KP')),
    -- What the history shows: source or provider, serial, errorCode, metadata.
    payload jsonb not null default '{}'::jsonb,
    -- Related transactions (credit.recharge, .bonus, .recall, .refund) hang off a top-up or a
    -- payment; those two kinds stand alone.
    parent_id uuid references ledger_transaction (id),
    -- The operation ('topup', 'pay', 'refund', 'recall') and the caller's idempotency key.
    operation text,
    idempotency_key text,
    -- VND this top-up counts toward the 28-day partner sum from credited_at on.
    counted_vnd bigint not null default 0 check (counted_vnd >= 0),
    credited_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (operation, idempotency_key),
    check ((operation is null) = (idempotency_key is null)),
    check ((parent_id is null) = (type like 'topup.%' or type = 'credit.pay'))
);

create index ledger_transaction_history on ledger_transaction (user_id, updated_at desc, id desc)
    where parent_id is null;
create index ledger_transaction_related on ledger_transaction (parent_id) where parent_id is not null;
create index ledger_transaction_credited on ledger_transaction (user_id, credited_at)
    where credited_at is not null;
-- A payment is refunded at most once.
create unique index ledger_transaction_one_refund on ledger_transaction (parent_id)
    where type = 'credit.refund';

create table posting (
    id bigint generated always as identity primary key,
    transaction_id uuid not null references ledger_transaction (id),
    account_id bigint not null references account (id),
    -- Positive credits the account, negative debits it.
    amount bigint not null check (amount <> 0),
    created_at timestamptz not null default now(),
    -- An account is on one side of a transaction only: never debited and credited by it.
    unique (transaction_id, account_id)
);

create index posting_account on posting (account_id);

create function posting_is_immutable() returns trigger language plpgsql as $$
begin
    raise exception 'postings are immutable';
end
$$;

create trigger posting_immutable before update or delete on posting
    for each row execute function posting_is_immutable();
create trigger posting_not_truncated before truncate on posting
    for each statement execute function posting_is_immutable();

-- A player's balance moves with each of their postings, in the same statement, so the two can
-- never disagree; the account's checks then refuse a negative balance.
create function posting_moves_balance() returns trigger language plpgsql as $$
begin
    update account set balance = balance + new.amount
    where id = new.account_id and balance is not null;
    return new;
end
$$;

create trigger posting_moves_balance after insert on posting
    for each row execute function posting_moves_balance();

create function posting_transaction_balances() returns trigger language plpgsql as $$
declare
    total numeric;
begin
    select sum(amount) into total from posting where transaction_id = new.transaction_id;
    if total <> 0 then
        raise exception 'postings of transaction % sum to %, not zero', new.transaction_id, total;
    end if;
    return null;
end
$$;

create constraint trigger posting_sums_to_zero after insert on posting
    deferrable initially deferred
    for each row execute function posting_transaction_balances();

-- Every account's balance: kept for players, summed from postings for system accounts.
create view account_balance as
select a.id, a.user_id, a.purpose,
       coalesce(a.balance, (select coalesce(sum(p.amount), 0) from posting p where p.account_id = a.id))
           as balance
from account a;

-- Jobs run once per period by whichever replica claims the period first.
create table scheduled_run (
    job text not null,
    period date not null,
    ran_at timestamptz not null default now(),
    primary key (job, period)
);
