//! A game's answer to an order, applied in the inbox's transaction: the first answer to an
//! order awaiting delivery decides it; every answer is kept with what it did.

use kid_contracts::{
    game::{Delivery, GameResult},
    topics::{self, PaymentSettled},
};
use kid_platform::{inbox::HandlerError, outbox};
use sqlx::PgConnection;

use crate::{
    db::{self, orders::ResultRecord},
    domain::order::{self, Effect, Order},
    events,
};

/// Applies a game's answer in the inbox's transaction: the first answer to an order awaiting
/// delivery decides it; every answer is kept with what it did. `claimed_product` is the
/// product of the routing key it came on: only the order's own product may answer for it.
pub async fn apply_result(
    conn: &mut PgConnection,
    message_id: &str,
    claimed_product: &str,
    result: &GameResult,
) -> Result<Effect, HandlerError> {
    let order = db::orders::lock(conn, result.order_id).await?;
    let effect = match &order {
        None => Effect::UnknownOrder,
        Some(order) if order.product_code != claimed_product => Effect::Rejected,
        Some(order) => match order::answer_effect(order.status, result.status) {
            // Not sent yet, so not from a game we sent it to; wait for the confirmation.
            None => {
                return Err(HandlerError::Transient(format!(
                    "order {} is still paying",
                    order.id
                )));
            }
            Some(Effect::Applied) => {
                decide(conn, order, result).await?;
                Effect::Applied
            }
            Some(other) => other,
        },
    };
    let product_code = order.as_ref().map_or("", |order| order.product_code.as_str());
    let record = ResultRecord {
        message_id,
        order_id: result.order_id,
        product_code,
        claimed_product,
        status: result.status.as_str(),
        reason: &result.reason,
        occurred_at: result.occurred_at,
        effect,
    };
    db::orders::record_result(conn, record).await?;
    match effect {
        Effect::Applied | Effect::Duplicate => {}
        Effect::Late => {
            metrics::counter!("recharge_late_deliveries_total").increment(1);
            tracing::warn!(order_id = %result.order_id, "delivery reported after the refund: kept for support, not paid again");
        }
        Effect::Conflicting => {
            tracing::warn!(order_id = %result.order_id, "failure reported after delivery: kept, nothing changed")
        }
        Effect::UnknownOrder => {
            tracing::warn!(order_id = %result.order_id, "result for an unknown order: kept")
        }
        Effect::Rejected => {
            metrics::counter!("recharge_results_rejected_total", "claimed_product" => claimed_product.to_owned(), "cause" => "other_product")
                .increment(1);
            tracing::warn!(order_id = %result.order_id, order_product = product_code, claimed_product,
                "result for another product's order: kept as rejected, nothing changed")
        }
    }
    Ok(effect)
}

/// Applies the answer that decides `order`: delivered (its payment settles) or failed (its
/// payment is refunded).
async fn decide(conn: &mut PgConnection, order: &Order, result: &GameResult) -> Result<(), HandlerError> {
    match result.status {
        Delivery::Delivered => {
            db::orders::mark_delivered(conn, order.id).await?;
            order.count_finished("delivered");
            if let Some(transaction_id) = order.transaction_id {
                let event = PaymentSettled {
                    order_id: order.id,
                    user_id: order.user_id,
                    transaction_id,
                };
                outbox::enqueue(conn, topics::PAYMENT_SETTLED, &event)
                    .await
                    .map_err(|error| HandlerError::Transient(error.to_string()))?;
            }
        }
        Delivery::Failed => {
            let reason = if result.reason.is_empty() {
                "failed without a reason"
            } else {
                result.reason.as_str()
            };
            db::orders::mark_failed(conn, order.id, reason).await?;
            order.count_finished("refunded");
            events::published::refund(conn, order, reason)
                .await
                .map_err(|error| HandlerError::Transient(error.to_string()))?;
        }
    }
    Ok(())
}
