//! What recharge publishes, each in the transaction that decided it: the game's order and a
//! giftcode's items for the game (see `kid_contracts::game`), and the settlement or refund of its payment for the wallet.

use kid_contracts::{
    game::{self, GameOrder, GiftItem, GiftcodeGrant, ResultOutcome},
    topics::{self, PaymentRefund},
};
use kid_platform::{
    inbox::HandlerError,
    outbox::{self, OutboxError},
};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{
    db::giftcodes::{Destination, RedemptionRow},
    domain::order::Order,
};

/// The key the wallet refunds an order's payment by: once, whatever decided it.
pub fn refund_key(order_id: Uuid) -> String {
    format!("refund:{order_id}")
}

/// Tells the game of `product_code` what became of a result it published on its key, in the
/// transaction that decided it (or refused it).
pub async fn outcome(
    conn: &mut PgConnection,
    product_code: &str,
    outcome: &ResultOutcome,
) -> Result<(), HandlerError> {
    outbox::enqueue(conn, &game::outcome_routing_key(product_code), outcome)
        .await
        .map_err(|error| HandlerError::Transient(error.to_string()))?;
    Ok(())
}

/// Writes the game's order for an order debited by `transaction_id`, due by `deliver_by`.
pub async fn send_to_game(
    conn: &mut PgConnection,
    order: &Order,
    transaction_id: Uuid,
    deliver_by: OffsetDateTime,
) -> Result<(), OutboxError> {
    let message_id = Uuid::now_v7();
    let message = GameOrder {
        schema_version: game::SCHEMA_VERSION,
        message_id,
        order_id: order.id,
        transaction_id,
        username: order.username.clone(),
        product_code: order.product_code.clone(),
        zone_id: order.zone_id,
        coins: order.coins,
        milestone_bonus: order.milestone_bonus,
        event_bonus: order.event_bonus,
        total_coins: order.total_coins(),
        lottery_points: order.lottery_points,
        created_at: order.created_at,
        deliver_by,
    };
    outbox::enqueue_with_id(
        conn,
        message_id,
        &game::order_routing_key(&order.product_code),
        &message,
    )
    .await?;
    Ok(())
}

/// Writes the game's grant of an item redemption, in the redemption's transaction.
pub async fn send_gift(
    conn: &mut PgConnection,
    redemption: &RedemptionRow,
    to: &Destination,
    items: &[GiftItem],
) -> Result<(), OutboxError> {
    let message_id = Uuid::now_v7();
    let message = GiftcodeGrant {
        schema_version: game::SCHEMA_VERSION,
        message_id,
        grant_id: redemption.id,
        username: to.username.clone(),
        product_code: to.place.product_code.clone(),
        zone_id: to.place.zone_id,
        campaign: redemption.campaign.clone(),
        items: items.to_vec(),
        created_at: OffsetDateTime::now_utc(),
    };
    outbox::enqueue_with_id(
        conn,
        message_id,
        &game::giftcode_grant_routing_key(&to.place.product_code),
        &message,
    )
    .await?;
    Ok(())
}

pub async fn refund(conn: &mut PgConnection, order: &Order, reason: &str) -> Result<(), OutboxError> {
    let Some(transaction_id) = order.transaction_id else {
        return Ok(());
    };
    let event = PaymentRefund {
        idempotency_key: refund_key(order.id),
        order_id: order.id,
        user_id: order.user_id,
        transaction_id,
        reason: reason.to_owned(),
    };
    outbox::enqueue(conn, topics::PAYMENT_REFUND, &event)
        .await
        .map(drop)
}
