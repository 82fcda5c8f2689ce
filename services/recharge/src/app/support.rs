//! The support console's actions on coin orders. Resending publishes the game's order message
//! again under its own id (the outbox row is stamped unpublished, and the relay sends the same
//! message once more), so a game that applied it drops the copy. Refunding fails an order the
//! game never answered and refunds its KP through the same keyed event the sweeper writes, so
//! the wallet refunds it once whoever decided. Both are recorded in the audit log, in the
//! action's transaction.

use kid_contracts::{
    game,
    messages::staff::{
        MSG_ORDER_DELIVERED, MSG_ORDER_MAY_STILL_DELIVER, MSG_ORDER_NOT_AWAITING, MSG_ORDER_NOT_FOUND,
        MSG_ORDER_PAYING, MSG_REASON_REQUIRED,
    },
};
use kid_platform::{
    audit,
    auth::StaffActor,
    outbox::{self, OutboxError},
};
use serde_json::json;
use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{
    db,
    domain::{OrderState, order::Order},
    events,
};

#[derive(Debug, thiserror::Error)]
pub enum SupportError {
    #[error("{0}")]
    NotFound(&'static str),
    #[error("{0}")]
    Refused(&'static str),
    #[error("{0}")]
    Invalid(&'static str),
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] OutboxError),
}

fn subject(order: &Order) -> String {
    format!("order:{}", order.id)
}

/// Publishes an order awaiting delivery to its game again; answers the message's id.
pub async fn resend(
    pool: &PgPool,
    staff: &StaffActor,
    order_id: Uuid,
) -> Result<(Order, Uuid), SupportError> {
    let mut tx = pool.begin().await?;
    let order = db::orders::lock(&mut tx, order_id)
        .await?
        .ok_or(SupportError::NotFound(MSG_ORDER_NOT_FOUND))?;
    if order.status != OrderState::AwaitingDelivery {
        return Err(SupportError::Refused(MSG_ORDER_NOT_AWAITING));
    }
    let routing_key = game::order_routing_key(&order.product_code);
    let (message_id, published_at) = db::orders::game_message(&mut tx, &routing_key, order.id)
        .await?
        .ok_or(SupportError::Refused(MSG_ORDER_NOT_AWAITING))?;
    outbox::publish_again(&mut tx, message_id).await?;
    audit::record(
        &mut tx,
        staff,
        "order.resend",
        &subject(&order),
        Some(
            &json!({ "status": order.status.as_str(), "messageId": message_id, "publishedAt": published_at }),
        ),
        Some(&json!({ "status": order.status.as_str(), "messageId": message_id, "publishedAt": null })),
    )
    .await?;
    tx.commit().await?;
    tracing::info!(%order_id, %message_id, staff = staff.username, "order resent to its game by support");
    Ok((order, message_id))
}

/// Fails an order the game never answered and refunds its KP; an order already failed (and so
/// refunded) answers `true`, nothing done again.
pub async fn refund(
    pool: &PgPool,
    staff: &StaffActor,
    order_id: Uuid,
    reason: &str,
) -> Result<(Order, bool), SupportError> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(SupportError::Invalid(MSG_REASON_REQUIRED));
    }
    let mut tx = pool.begin().await?;
    let order = db::orders::lock(&mut tx, order_id)
        .await?
        .ok_or(SupportError::NotFound(MSG_ORDER_NOT_FOUND))?;
    match order.status {
        OrderState::Failed => return Ok((order, true)),
        OrderState::Delivered => return Err(SupportError::Refused(MSG_ORDER_DELIVERED)),
        OrderState::Paying => return Err(SupportError::Refused(MSG_ORDER_PAYING)),
        OrderState::AwaitingDelivery => {}
    }
    // Until its deliverBy the game may still credit the coins; refunding then would leave the
    // player both the coins and the KP. After it the game must fail the order (the contract).
    if order
        .deliver_by
        .is_some_and(|deliver_by| OffsetDateTime::now_utc() < deliver_by)
    {
        return Err(SupportError::Refused(MSG_ORDER_MAY_STILL_DELIVER));
    }
    let failure = format!("refunded by support: {reason}");
    db::orders::mark_failed(&mut tx, order.id, &failure).await?;
    events::published::refund(&mut tx, &order, &failure).await?;
    audit::record(
        &mut tx,
        staff,
        "order.refund",
        &subject(&order),
        Some(&json!({ "status": order.status.as_str() })),
        Some(&json!({ "status": "failed", "refundKp": order.credit, "reason": reason })),
    )
    .await?;
    let refunded = db::orders::lock(&mut tx, order_id)
        .await?
        .ok_or(SupportError::NotFound(MSG_ORDER_NOT_FOUND))?;
    tx.commit().await?;
    tracing::info!(%order_id, staff = staff.username, "order refunded by support");
    Ok((refunded, false))
}
