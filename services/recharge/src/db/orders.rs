//! Coin orders and the games' answers, as stored. Every state change is a conditional update,
//! so of concurrent deciders (replicas, redeliveries, the sweeper) exactly one changes a row.

use std::time::Duration;

use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::domain::{
    Payout,
    order::{Effect, NewOrder, Order},
};

/// Stores the order `paying`; `None` when the player's key already names an order.
pub async fn insert_paying(
    conn: &mut PgConnection,
    request: &NewOrder,
    product_code: &str,
    payout: Payout,
) -> Result<Option<Order>, sqlx::Error> {
    sqlx::query_as!(
        Order,
        "insert into recharge_order (id, user_id, idempotency_key, username, product_code, zone_id, credit,
               coins, milestone_bonus, event_bonus, lottery_points, status)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'paying')
           on conflict (user_id, idempotency_key) do nothing
           returning *",
        Uuid::now_v7(),
        request.user_id,
        request.key,
        request.username,
        product_code,
        request.zone_id,
        request.credit,
        payout.coins.get(),
        payout.milestone_bonus.get(),
        payout.event_bonus.get(),
        payout.lottery_points
    )
    .fetch_optional(conn)
    .await
}

pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<Order>, sqlx::Error> {
    sqlx::query_as!(Order, "select * from recharge_order where id = $1", id)
        .fetch_optional(conn)
        .await
}

/// The order, locked until the transaction ends.
pub async fn lock(conn: &mut PgConnection, id: Uuid) -> Result<Option<Order>, sqlx::Error> {
    sqlx::query_as!(Order, "select * from recharge_order where id = $1 for update", id)
        .fetch_optional(conn)
        .await
}

pub async fn find_by_key(
    conn: &mut PgConnection,
    user_id: Uuid,
    key: &str,
) -> Result<Option<Order>, sqlx::Error> {
    sqlx::query_as!(
        Order,
        "select * from recharge_order where user_id = $1 and idempotency_key = $2",
        user_id,
        key
    )
    .fetch_optional(conn)
    .await
}

/// Removes an order whose debit was refused: nothing moved.
pub async fn delete_paying(conn: &mut PgConnection, id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "delete from recharge_order where id = $1 and status = 'paying'",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Marks a `paying` order debited and due by `deliver_by`; `None` when it was not `paying`.
pub async fn mark_debited(
    conn: &mut PgConnection,
    id: Uuid,
    transaction_id: Uuid,
    deadline: Duration,
) -> Result<Option<Order>, sqlx::Error> {
    sqlx::query_as!(
        Order,
        "update recharge_order
           set status = 'awaiting_delivery', transaction_id = $2,
               deliver_by = now() + make_interval(secs => $3), updated_at = now()
           where id = $1 and status = 'paying'
           returning *",
        id,
        transaction_id,
        deadline.as_secs_f64()
    )
    .fetch_optional(conn)
    .await
}

/// Up to `limit` orders still `paying` after `after`, oldest first.
pub async fn stalled(
    conn: &mut PgConnection,
    after: Duration,
    limit: i64,
) -> Result<Vec<Order>, sqlx::Error> {
    sqlx::query_as!(
        Order,
        "select * from recharge_order
           where status = 'paying' and created_at < now() - make_interval(secs => $1)
           order by created_at limit $2",
        after.as_secs_f64(),
        limit
    )
    .fetch_all(conn)
    .await
}

/// Fails up to `limit` orders past their delivery deadline, skipping those another sweeper holds.
pub async fn fail_overdue(
    conn: &mut PgConnection,
    reason: &str,
    limit: i64,
) -> Result<Vec<Order>, sqlx::Error> {
    sqlx::query_as!(
        Order,
        "update recharge_order set status = 'failed', failure_reason = $1, updated_at = now()
           where id in (select id from recharge_order
                        where status = 'awaiting_delivery' and deliver_by < now()
                        order by deliver_by limit $2 for update skip locked)
           returning *",
        reason,
        limit
    )
    .fetch_all(conn)
    .await
}

pub async fn mark_delivered(conn: &mut PgConnection, id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update recharge_order set status = 'delivered', updated_at = now() where id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn mark_failed(conn: &mut PgConnection, id: Uuid, reason: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update recharge_order set status = 'failed', failure_reason = $2, updated_at = now() where id = $1",
        id,
        reason
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A game's answer as received, with what it did.
pub struct ResultRecord<'a> {
    pub message_id: &'a str,
    pub order_id: Uuid,
    pub product_code: &'a str,
    pub claimed_product: &'a str,
    pub status: &'a str,
    pub reason: &'a str,
    pub occurred_at: Option<OffsetDateTime>,
    pub effect: Effect,
}

/// Keeps a game's answer; a redelivered message is kept once.
pub async fn record_result(conn: &mut PgConnection, record: ResultRecord<'_>) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into game_result (message_id, order_id, product_code, claimed_product, status, reason,
             occurred_at, effect)
         values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (message_id) do nothing",
        record.message_id,
        record.order_id,
        record.product_code,
        record.claimed_product,
        record.status,
        record.reason,
        record.occurred_at,
        record.effect.as_str()
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Every order of the player, newest first (their data export).
pub async fn of_user(conn: &mut PgConnection, user_id: Uuid) -> Result<Vec<Order>, sqlx::Error> {
    sqlx::query_as!(
        Order,
        "select * from recharge_order where user_id = $1 order by created_at desc, id desc",
        user_id
    )
    .fetch_all(conn)
    .await
}

/// Replaces an erased player's username on their orders and item grants, and forgets the
/// characters the games named on the grants; answers how many rows changed.
pub async fn forget_username(
    conn: &mut PgConnection,
    user_id: Uuid,
    placeholder: &str,
) -> Result<u64, sqlx::Error> {
    let orders = sqlx::query!(
        "update recharge_order set username = $2 where user_id = $1 and username <> $2",
        user_id,
        placeholder
    )
    .execute(&mut *conn)
    .await?;
    let grants = sqlx::query!(
        "update giftcode_redemption set username = $2, character_name = null
          where user_id = $1 and username is not null
            and (username <> $2 or character_name is not null)",
        user_id,
        placeholder
    )
    .execute(conn)
    .await?;
    Ok(orders.rows_affected() + grants.rows_affected())
}

/// The game's order message of `order_id` in the outbox: its id (the AMQP message id) and when
/// it was published, if it was.
pub async fn game_message(
    conn: &mut PgConnection,
    routing_key: &str,
    order_id: Uuid,
) -> Result<Option<(Uuid, Option<time::OffsetDateTime>)>, sqlx::Error> {
    let row = sqlx::query!(
        "select id, published_at from outbox_message
          where routing_key = $1 and payload->>'orderId' = $2::uuid::text
          order by created_at limit 1",
        routing_key,
        order_id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|row| (row.id, row.published_at)))
}
