//! Ledger transactions and their postings: top-ups, payments and what relates to them.

use serde_json::Value;
use sqlx::{PgConnection, types::Json};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::domain::{TxStatus, Vnd};

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
    pub created_at: OffsetDateTime,
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
                  payload as "payload: Json<Value>", parent_id, created_at, updated_at
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
                  payload as "payload: Json<Value>", parent_id, created_at, updated_at
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

/// Inserts a transaction and returns it as written, so that a caller answering with the new
/// transaction need not read it back. `None` when another transaction already holds the
/// idempotency key (after waiting for it to commit).
pub async fn insert_transaction(
    conn: &mut PgConnection,
    new: NewTransaction<'_>,
) -> Result<Option<TransactionRow>, sqlx::Error> {
    let (operation, key) = new.key.unzip();
    sqlx::query_as!(
        TransactionRow,
        r#"insert into ledger_transaction
             (id, user_id, type, status, real_value, currency, payload, parent_id, operation, idempotency_key)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         on conflict (operation, idempotency_key) do nothing
         returning id, user_id, type as kind, status as "status: TxStatus", real_value, currency,
                   payload as "payload: Json<Value>", parent_id, created_at, updated_at"#,
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
                  payload as "payload: Json<Value>", parent_id, created_at, updated_at
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

/// Which of a player's top-ups and payments a history page shows.
#[derive(Debug, Clone)]
pub struct HistoryPage<'a> {
    pub user_id: Uuid,
    /// Only this type, when given.
    pub kind: Option<&'a str>,
    pub status: Option<TxStatus>,
    /// Created at or after this instant.
    pub from: OffsetDateTime,
    /// Created before this `(created_at, id)`: the last page's end, or the filter's end date.
    pub before: (OffsetDateTime, Uuid),
    pub limit: i64,
}

/// A page of a player's top-ups and payments, newest created first. Each bound is always
/// given (an open end is a far date) so that the index serves both ends on every page.
pub async fn history_page(
    conn: &mut PgConnection,
    page: &HistoryPage<'_>,
) -> Result<Vec<TransactionRow>, sqlx::Error> {
    let (before, before_id) = page.before;
    match page.kind {
        None => {
            sqlx::query_as!(
                TransactionRow,
                r#"select id, user_id, type as kind, status as "status: TxStatus", real_value, currency,
                          payload as "payload: Json<Value>", parent_id, created_at, updated_at
                   from ledger_transaction
                   where user_id = $1 and parent_id is null
                     and (created_at, id) < ($2, $3) and created_at >= $4
                     and ($5::text is null or status = $5)
                   order by created_at desc, id desc
                   limit $6"#,
                page.user_id,
                before,
                before_id,
                page.from,
                page.status as Option<TxStatus>,
                page.limit
            )
            .fetch_all(conn)
            .await
        }
        Some(kind) => {
            sqlx::query_as!(
                TransactionRow,
                r#"select id, user_id, type as kind, status as "status: TxStatus", real_value, currency,
                          payload as "payload: Json<Value>", parent_id, created_at, updated_at
                   from ledger_transaction
                   where user_id = $1 and type = $2 and parent_id is null
                     and (created_at, id) < ($3, $4) and created_at >= $5
                     and ($6::text is null or status = $6)
                   order by created_at desc, id desc
                   limit $7"#,
                page.user_id,
                kind,
                before,
                before_id,
                page.from,
                page.status as Option<TxStatus>,
                page.limit
            )
            .fetch_all(conn)
            .await
        }
    }
}

/// One of a player's top-ups or payments (`None` for a related transaction or another
/// player's).
pub async fn find_history_entry(
    conn: &mut PgConnection,
    user_id: Uuid,
    id: Uuid,
) -> Result<Option<TransactionRow>, sqlx::Error> {
    sqlx::query_as!(
        TransactionRow,
        r#"select id, user_id, type as kind, status as "status: TxStatus", real_value, currency,
                  payload as "payload: Json<Value>", parent_id, created_at, updated_at
           from ledger_transaction where id = $1 and user_id = $2 and parent_id is null"#,
        id,
        user_id
    )
    .fetch_optional(conn)
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
