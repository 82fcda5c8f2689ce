//! Queries on the wallet schema, each checked against the migrations at build time
//! (`sqlx::query!`, cache in `.sqlx`). Each takes the connection of the caller's transaction.

use std::collections::HashMap;

use serde_json::Value;
use sqlx::{PgConnection, PgPool, types::Json};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::domain::{Correction, Kp, TopupWindow, TxStatus, Vnd, WINDOW_DAYS};

/// The ids of the system accounts, which never change once migrated.
#[derive(Debug, Clone)]
pub struct SystemAccounts(HashMap<String, i64>);

impl SystemAccounts {
    pub async fn load(conn: &mut PgConnection) -> Result<Self, sqlx::Error> {
        let rows = sqlx::query!("select purpose, id from account where user_id is null")
            .fetch_all(conn)
            .await?;
        Ok(Self(rows.into_iter().map(|row| (row.purpose, row.id)).collect()))
    }

    pub fn get(&self, purpose: &str) -> Result<i64, sqlx::Error> {
        self.0
            .get(purpose)
            .copied()
            .ok_or_else(|| sqlx::Error::RowNotFound)
    }
}

/// A player's row, locked for the rest of the transaction, with their balances.
#[derive(Debug, Clone)]
pub struct PlayerRow {
    pub user_id: Uuid,
    pub kp_account_id: i64,
    pub debt_account_id: i64,
    pub balance: i64,
    /// Positive: what the player owes.
    pub debt: i64,
    pub is_pay_partner: bool,
    pub partner_bonus_bps: i32,
    pub pay_amount_last_28_days: i64,
}

impl PlayerRow {
    pub fn balance(&self) -> Kp {
        Kp::parse(self.balance).unwrap_or_default()
    }

    pub fn debt(&self) -> Kp {
        Kp::parse(self.debt).unwrap_or_default()
    }
}

/// Locks the player's row, the first thing every money operation of that player does, so
/// operations of one player run one after the other. The balance rows are locked too: after
/// waiting for a lock, PostgreSQL re-reads only the rows it locked, so a balance read through
/// an unlocked join would be the one from before the wait.
pub async fn lock_player(conn: &mut PgConnection, user_id: Uuid) -> Result<Option<PlayerRow>, sqlx::Error> {
    sqlx::query_as!(
        PlayerRow,
        r#"select p.user_id, p.kp_account_id, p.debt_account_id, kp.balance as "balance!",
                  -debt.balance as "debt!", p.is_pay_partner, p.partner_bonus_bps, p.pay_amount_last_28_days
           from player p
           join account kp on kp.id = p.kp_account_id
           join account debt on debt.id = p.debt_account_id
           where p.user_id = $1
           for update"#,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// The player's row without a lock, for reading.
pub async fn find_player(pool: &PgPool, user_id: Uuid) -> Result<Option<PlayerRow>, sqlx::Error> {
    sqlx::query_as!(
        PlayerRow,
        r#"select p.user_id, p.kp_account_id, p.debt_account_id, kp.balance as "balance!",
                  -debt.balance as "debt!", p.is_pay_partner, p.partner_bonus_bps, p.pay_amount_last_28_days
           from player p
           join account kp on kp.id = p.kp_account_id
           join account debt on debt.id = p.debt_account_id
           where p.user_id = $1"#,
        user_id
    )
    .fetch_optional(pool)
    .await
}

/// Locks the player's row, creating the player and their two accounts the first time.
pub async fn lock_or_create_player(conn: &mut PgConnection, user_id: Uuid) -> Result<PlayerRow, sqlx::Error> {
    if let Some(player) = lock_player(conn, user_id).await? {
        return Ok(player);
    }
    // A concurrent first top-up of the same player waits here on the unique (user_id, purpose)
    // and then inserts nothing; either way the row exists afterwards.
    sqlx::query!(
        "with kp as (
             insert into account (user_id, purpose, balance) values ($1, 'kp', 0)
             on conflict do nothing returning id
         ), debt as (
             insert into account (user_id, purpose, balance) values ($1, 'debt', 0)
             on conflict do nothing returning id
         )
         insert into player (user_id, kp_account_id, debt_account_id)
         select $1, kp.id, debt.id from kp, debt
         on conflict do nothing",
        user_id
    )
    .execute(&mut *conn)
    .await?;
    lock_player(conn, user_id).await?.ok_or(sqlx::Error::RowNotFound)
}

#[derive(Debug, Clone)]
pub struct TransactionRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub kind: String,
    pub status: TxStatus,
    pub real_value: i64,
    pub currency: String,
    pub payload: Json<Value>,
    pub parent_id: Option<Uuid>,
    pub updated_at: OffsetDateTime,
}

/// The transaction an operation's idempotency key names, if any.
pub async fn find_keyed(
    conn: &mut PgConnection,
    operation: &str,
    key: &str,
) -> Result<Option<TransactionRow>, sqlx::Error> {
    sqlx::query_as!(
        TransactionRow,
        r#"select id, user_id, type as kind, status as "status: TxStatus", real_value, currency,
                  payload as "payload: Json<Value>", parent_id, updated_at
           from ledger_transaction where operation = $1 and idempotency_key = $2"#,
        operation,
        key
    )
    .fetch_optional(conn)
    .await
}

pub async fn find_transaction(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<Option<TransactionRow>, sqlx::Error> {
    sqlx::query_as!(
        TransactionRow,
        r#"select id, user_id, type as kind, status as "status: TxStatus", real_value, currency,
                  payload as "payload: Json<Value>", parent_id, updated_at
           from ledger_transaction where id = $1"#,
        id
    )
    .fetch_optional(conn)
    .await
}

pub struct NewTransaction<'a> {
    pub user_id: Uuid,
    pub kind: &'a str,
    pub status: TxStatus,
    pub real_value: i64,
    pub currency: &'a str,
    pub payload: Value,
    pub parent_id: Option<Uuid>,
    /// The operation and idempotency key, for the transaction an operation is keyed on.
    pub key: Option<(&'a str, &'a str)>,
}

/// Inserts a transaction. `None` when another transaction already holds the idempotency key
/// (after waiting for it to commit).
pub async fn insert_transaction(
    conn: &mut PgConnection,
    new: NewTransaction<'_>,
) -> Result<Option<Uuid>, sqlx::Error> {
    let (operation, key) = new.key.unzip();
    sqlx::query_scalar!(
        "insert into ledger_transaction
             (id, user_id, type, status, real_value, currency, payload, parent_id, operation, idempotency_key)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         on conflict (operation, idempotency_key) do nothing
         returning id",
        Uuid::now_v7(),
        new.user_id,
        new.kind,
        new.status as TxStatus,
        new.real_value,
        new.currency,
        new.payload,
        new.parent_id,
        operation,
        key
    )
    .fetch_optional(conn)
    .await
}

/// Writes a transaction's postings: `(account, amount)`, positive credits. The database checks
/// at commit that they sum to zero, and moves players' balances with them.
pub async fn post(
    conn: &mut PgConnection,
    transaction_id: Uuid,
    postings: &[(i64, i64)],
) -> Result<(), sqlx::Error> {
    let (accounts, amounts): (Vec<i64>, Vec<i64>) = postings
        .iter()
        .copied()
        .filter(|(_, amount)| *amount != 0)
        .unzip();
    sqlx::query!(
        "insert into posting (transaction_id, account_id, amount)
         select $1, account_id, amount from unnest($2::bigint[], $3::bigint[]) as p (account_id, amount)",
        transaction_id,
        &accounts,
        &amounts
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn set_topup_outcome(
    conn: &mut PgConnection,
    id: Uuid,
    status: TxStatus,
    real_value: i64,
    payload: &Value,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update ledger_transaction
         set status = $2, real_value = $3, payload = payload || $4, updated_at = now()
         where id = $1",
        id,
        status as TxStatus,
        real_value,
        payload
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks a top-up credited: from now on it counts `counted` VND toward the partner window.
pub async fn mark_credited(
    conn: &mut PgConnection,
    id: Uuid,
    counted: Vnd,
) -> Result<OffsetDateTime, sqlx::Error> {
    sqlx::query_scalar!(
        r#"update ledger_transaction set counted_vnd = $2, credited_at = now(), updated_at = now()
           where id = $1 returning credited_at as "credited_at!""#,
        id,
        counted.get()
    )
    .fetch_one(conn)
    .await
}

/// Bumps a transaction to the top of the history, changing its status and counted VND when given.
pub async fn touch(
    conn: &mut PgConnection,
    id: Uuid,
    status: Option<TxStatus>,
    counted: Option<Vnd>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update ledger_transaction
         set status = coalesce($2, status), counted_vnd = coalesce($3, counted_vnd), updated_at = now()
         where id = $1",
        id,
        status as Option<TxStatus>,
        counted.map(Vnd::get)
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The player's top-ups credited within the partner window, as of now.
pub async fn topup_window(conn: &mut PgConnection, user_id: Uuid) -> Result<TopupWindow, sqlx::Error> {
    let window = sqlx::query!(
        r#"select coalesce(sum(counted_vnd), 0)::bigint as "sum!", coalesce(max(counted_vnd), 0)::bigint as "largest!"
           from ledger_transaction
           where user_id = $1 and parent_id is null and status = 'success'
             and credited_at > now() - make_interval(days => $2)"#,
        user_id,
        WINDOW_DAYS as i32
    )
    .fetch_one(conn)
    .await?;
    Ok(TopupWindow {
        sum: Vnd::parse(window.sum).unwrap_or_default(),
        largest: Vnd::parse(window.largest).unwrap_or_default(),
    })
}

pub async fn store_partner_status(
    conn: &mut PgConnection,
    user_id: Uuid,
    is_partner: bool,
    bonus_bps: i32,
    pay_amount: Vnd,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update player set is_pay_partner = $2, partner_bonus_bps = $3, pay_amount_last_28_days = $4,
                partner_recalculated_at = now()
         where user_id = $1",
        user_id,
        is_partner,
        bonus_bps,
        pay_amount.get()
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct RelatedRow {
    pub id: Uuid,
    pub parent_id: Uuid,
    pub kind: String,
    pub real_value: i64,
    pub payload: Json<Value>,
}

/// The related transactions of `parents`, oldest first.
pub async fn related(conn: &mut PgConnection, parents: &[Uuid]) -> Result<Vec<RelatedRow>, sqlx::Error> {
    sqlx::query_as!(
        RelatedRow,
        r#"select id, parent_id as "parent_id!", type as kind, real_value, payload as "payload: Json<Value>"
           from ledger_transaction
           where parent_id = any($1) order by created_at, id"#,
        parents
    )
    .fetch_all(conn)
    .await
}

/// The player's latest top-ups and payments, newest first.
pub async fn history(
    conn: &mut PgConnection,
    user_id: Uuid,
    limit: i64,
) -> Result<Vec<TransactionRow>, sqlx::Error> {
    sqlx::query_as!(
        TransactionRow,
        r#"select id, user_id, type as kind, status as "status: TxStatus", real_value, currency,
                  payload as "payload: Json<Value>", parent_id, updated_at
           from ledger_transaction
           where user_id = $1 and parent_id is null
           order by updated_at desc, id desc
           limit $2"#,
        user_id,
        limit
    )
    .fetch_all(conn)
    .await
}

/// The amount a transaction posted to one account (0 when it posted nothing there).
pub async fn posted(
    conn: &mut PgConnection,
    transaction_id: Uuid,
    account_id: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select coalesce(sum(amount), 0)::bigint as "posted!" from posting
           where transaction_id = $1 and account_id = $2"#,
        transaction_id,
        account_id
    )
    .fetch_one(conn)
    .await
}

/// Claims `job` for today (the database's date): true for the one caller that claims it; a
/// concurrent claimer waits for the first to commit and then gets false.
pub async fn claim_daily_run(conn: &mut PgConnection, job: &str) -> Result<bool, sqlx::Error> {
    let claimed = sqlx::query!(
        "insert into scheduled_run (job, period) values ($1, current_date) on conflict do nothing",
        job
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(claimed == 1)
}

/// Players whose partner figures the sliding window can change: partners, and anyone with a
/// top-up credited within the window (plus a day, so the day it leaves is seen).
pub async fn players_in_window(conn: &mut PgConnection) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select user_id as "user_id!" from player where is_pay_partner or pay_amount_last_28_days > 0
           union
           select distinct user_id from ledger_transaction
           where credited_at > now() - make_interval(days => $1)"#,
        WINDOW_DAYS as i32 + 1
    )
    .fetch_all(conn)
    .await
}

/// The user and the KP of a debit keyed `key` that was refused, if one was.
pub async fn refused_payment(conn: &mut PgConnection, key: &str) -> Result<Option<(Uuid, i64)>, sqlx::Error> {
    let refused = sqlx::query!(
        "select user_id, kp from refused_payment where idempotency_key = $1",
        key
    )
    .fetch_optional(conn)
    .await?;
    Ok(refused.map(|row| (row.user_id, row.kp)))
}

pub async fn refuse_payment(
    conn: &mut PgConnection,
    key: &str,
    user_id: Uuid,
    kp: Kp,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into refused_payment (idempotency_key, user_id, kp) values ($1, $2, $3)
         on conflict do nothing",
        key,
        user_id,
        kp.get()
    )
    .execute(conn)
    .await
    .map(drop)
}

/// Holds a correction until its top-up is credited; a redelivered one is held once.
pub async fn hold_correction(conn: &mut PgConnection, correction: &Correction) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into held_correction (idempotency_key, topup_key, user_id, kp, corrected_amount_vnd)
         values ($1, $2, $3, $4, $5) on conflict do nothing",
        correction.key,
        correction.topup_key,
        correction.user_id,
        correction.kp.get(),
        correction.corrected_amount.map(Vnd::get)
    )
    .execute(conn)
    .await
    .map(drop)
}

/// The corrections held for the top-up keyed `topup_key`, oldest first.
pub async fn held_corrections(pool: &PgPool, topup_key: &str) -> Result<Vec<Correction>, sqlx::Error> {
    let rows = sqlx::query!(
        "select idempotency_key, user_id, kp, corrected_amount_vnd from held_correction
         where topup_key = $1 order by held_at, idempotency_key",
        topup_key
    )
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| Correction {
            key: row.idempotency_key,
            topup_key: topup_key.to_owned(),
            user_id: row.user_id,
            kp: Kp::new(row.kp),
            corrected_amount: row.corrected_amount_vnd.and_then(Vnd::parse),
        })
        .collect())
}

/// Ends the hold of the correction keyed `key`, in the transaction that recalls it.
pub async fn release_held_correction(conn: &mut PgConnection, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query!("delete from held_correction where idempotency_key = $1", key)
        .execute(conn)
        .await
        .map(drop)
}

pub async fn held_correction_failed(pool: &PgPool, key: &str, error: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update held_correction set last_error = $2 where idempotency_key = $1",
        key,
        error
    )
    .execute(pool)
    .await
    .map(drop)
}
