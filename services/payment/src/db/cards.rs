//! Card orders and the aggregator's callbacks.

use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::CardStatus;

/// A card order as its callback needs it.
#[derive(Debug)]
pub struct OrderRow {
    pub user_id: Uuid,
    pub provider: String,
    pub declared_value: i64,
    pub serial: String,
    pub status: CardStatus,
    pub error_code: Option<String>,
    pub real_value: Option<i64>,
    pub kp: Option<i64>,
}

/// A card just taken from a player.
pub struct NewOrder<'a> {
    pub id: Uuid,
    pub user_id: Uuid,
    pub provider: &'a str,
    pub declared_value: i64,
    pub serial: &'a str,
    /// The PIN, sealed for this order (`kid_platform::seal`).
    pub sealed_pin: &'a [u8],
}

/// Records the order as pending; false when the same card is already pending.
pub async fn insert_pending(conn: &mut PgConnection, order: NewOrder<'_>) -> Result<bool, sqlx::Error> {
    let inserted = sqlx::query!(
        "insert into card_order (id, user_id, provider, declared_value, serial, status, sealed_pin)
         values ($1, $2, $3, $4, $5, 'pending', $6)
         on conflict (provider, serial) where status = 'pending' do nothing",
        order.id,
        order.user_id,
        order.provider,
        order.declared_value,
        order.serial,
        order.sealed_pin
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(inserted == 1)
}

pub async fn set_aggregator_ref(
    conn: &mut PgConnection,
    order_id: Uuid,
    reference: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update card_order set aggregator_ref = $2, updated_at = now() where id = $1",
        order_id,
        reference
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn mark_failed(
    conn: &mut PgConnection,
    order_id: Uuid,
    error_code: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update card_order set status = 'failed', error_code = $2, sealed_pin = null, settled_at = now(),
             updated_at = now()
         where id = $1",
        order_id,
        error_code
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The order, locked until the transaction ends.
pub async fn lock(conn: &mut PgConnection, order_id: Uuid) -> Result<Option<OrderRow>, sqlx::Error> {
    sqlx::query_as!(
        OrderRow,
        r#"select user_id, provider, declared_value, serial, status as "status: CardStatus", error_code,
                  real_value, kp
           from card_order where id = $1 for update"#,
        order_id
    )
    .fetch_optional(conn)
    .await
}

/// What a successful card credited, with the fee and rate of that moment.
pub struct Success<'a> {
    pub error_code: Option<&'a str>,
    pub real_value: i64,
    pub kp: i64,
    pub fee_percent: Option<String>,
    pub exchange_rate: String,
    pub aggregator_ref: &'a str,
}

pub async fn mark_success(
    conn: &mut PgConnection,
    order_id: Uuid,
    success: Success<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update card_order set status = 'success', error_code = $2, real_value = $3, kp = $4,
             fee_percent = $5::text::numeric, exchange_rate = $6::text::numeric,
             aggregator_ref = coalesce(nullif($7, ''), aggregator_ref), sealed_pin = null, settled_at = now(),
             updated_at = now()
         where id = $1",
        order_id,
        success.error_code,
        success.real_value,
        success.kp,
        success.fee_percent,
        success.exchange_rate,
        success.aggregator_ref
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Lowers a credited order's value to what the aggregator found.
pub async fn correct(
    conn: &mut PgConnection,
    order_id: Uuid,
    error_code: Option<&str>,
    real_value: i64,
    kp: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update card_order set error_code = $2, real_value = $3, kp = $4, updated_at = now() where id = $1",
        order_id,
        error_code,
        real_value,
        kp
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Keeps a callback with what became of it; returns its id.
pub async fn record_callback(
    conn: &mut PgConnection,
    order_id: Option<Uuid>,
    body: &Value,
    outcome: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        "insert into card_callback (order_id, body, outcome) values ($1, $2, $3) returning id",
        order_id,
        body,
        outcome
    )
    .fetch_one(conn)
    .await
}

/// A pending card the aggregator is to be asked about again.
pub struct ToCheck {
    pub id: Uuid,
    pub provider: String,
    pub declared_value: i64,
    pub serial: String,
    pub sealed_pin: Vec<u8>,
}

/// Up to `limit` pending cards sent more than `after_ms` ago and not asked about in that time,
/// the longest waiting first; each is marked asked now (so another replica skips it).
pub async fn take_due_checks(
    conn: &mut PgConnection,
    after_ms: i64,
    limit: i64,
) -> Result<Vec<ToCheck>, sqlx::Error> {
    sqlx::query_as!(
        ToCheck,
        r#"update card_order set checked_at = now()
           where id in (
               select id from card_order
               where status = 'pending' and sealed_pin is not null
                 and submitted_at < now() - make_interval(secs => $1::bigint / 1000.0)
                 and (checked_at is null or checked_at < now() - make_interval(secs => $1::bigint / 1000.0))
               order by submitted_at limit $2
               for update skip locked)
           returning id, provider, declared_value, serial, sealed_pin as "sealed_pin!""#,
        after_ms,
        limit
    )
    .fetch_all(conn)
    .await
}
