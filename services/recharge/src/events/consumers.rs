//! What recharge consumes: the games' answers to orders and to giftcode grants, each in the
//! inbox's transaction.

use kid_contracts::{
    game::{self, Delivery, GiftcodeResult, Outcome, ResultOutcome},
    topics::AccountErased,
};
use kid_platform::{
    Settings,
    amqp::QueueSpec,
    inbox::{Handler, HandlerFuture, Message, Unidentified},
};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use super::published;
use crate::{app::results, db, domain};

/// Consumes the games' answers.
pub struct GameResults;

impl Handler for GameResults {
    fn handle<'a>(&'a self, conn: &'a mut PgConnection, message: &'a Message) -> HandlerFuture<'a> {
        Box::pin(async move {
            if let Some(claimed_product) = game::giftcode_result_product(&message.routing_key) {
                let result: GiftcodeResult = message.json()?;
                let effect = db::giftcodes::acknowledge(
                    conn,
                    result.grant_id,
                    claimed_product,
                    result.status == Delivery::Delivered,
                    &result.reason,
                )
                .await?;
                metrics::counter!("recharge_giftcode_acknowledgements_total", "effect" => effect.as_str())
                    .increment(1);
                if effect == db::giftcodes::Acknowledged::Applied {
                    tracing::info!(grant_id = %result.grant_id, status = result.status.as_str(), reason = result.reason, "giftcode grant acknowledged");
                } else {
                    tracing::warn!(grant_id = %result.grant_id, status = result.status.as_str(), effect = effect.as_str(), claimed_product, "giftcode acknowledgement changed nothing");
                }
                return Ok(());
            }
            let claimed_product = game::result_product(&message.routing_key).unwrap_or_default();
            let said = match domain::result::read(&message.body) {
                Ok(result) => {
                    let effect = results::apply_result(conn, &message.id, claimed_product, &result).await?;
                    tracing::info!(order_id = %result.order_id, status = result.status.as_str(), effect = effect.as_str(), "game result received");
                    let (outcome, reason) = domain::result::outcome(effect, &result, claimed_product);
                    told(Some(message.id.clone()), Some(result.order_id), outcome, reason)
                }
                Err(unreadable) => {
                    metrics::counter!("recharge_results_rejected_total", "claimed_product" => claimed_product.to_owned(), "cause" => "unreadable")
                        .increment(1);
                    tracing::warn!(message_id = %message.id, claimed_product, reason = %unreadable.reason, "unreadable game result rejected");
                    told(
                        Some(message.id.clone()),
                        unreadable.order_id,
                        Outcome::Rejected,
                        unreadable.reason,
                    )
                }
            };
            published::outcome(conn, claimed_product, &said).await?;
            Ok(())
        })
    }

    /// A result without a message id is dead-lettered unread; the game is told so, with the
    /// properties it did carry. (A giftcode acknowledgement without one is only dead-lettered.)
    fn handle_unidentified<'a>(
        &'a self,
        conn: &'a mut PgConnection,
        message: &'a Unidentified,
    ) -> HandlerFuture<'a> {
        Box::pin(async move {
            let Some(claimed_product) = game::result_product(&message.routing_key) else {
                return Ok(());
            };
            metrics::counter!("recharge_results_rejected_total", "claimed_product" => claimed_product.to_owned(), "cause" => "no_message_id")
                .increment(1);
            let (message_id, order_id) = match domain::result::read(&message.body) {
                Ok(result) => (Some(result.message_id), Some(result.order_id)),
                Err(unreadable) => (unreadable.message_id, unreadable.order_id),
            };
            let rejected = ResultOutcome {
                properties: Some(message.properties.clone()),
                ..told(
                    message_id,
                    order_id,
                    Outcome::Rejected,
                    domain::result::REASON_NO_MESSAGE_ID.to_owned(),
                )
            };
            published::outcome(conn, claimed_product, &rejected).await
        })
    }
}

/// What the game is told of one of its results, now.
fn told(
    result_message_id: Option<String>,
    order_id: Option<Uuid>,
    outcome: Outcome,
    reason: String,
) -> ResultOutcome {
    ResultOutcome {
        schema_version: game::SCHEMA_VERSION,
        result_message_id,
        order_id,
        outcome,
        reason,
        occurred_at: OffsetDateTime::now_utc(),
        properties: None,
    }
}

/// Consumes identity's account erasures: the erased player's username, kept on their orders
/// and item grants (the game knew the character by it), becomes the placeholder, and the
/// grants' character names go. The orders and redemptions stay, as the ledger's records do,
/// under the opaque id: they are what was paid and granted, and count against the codes' uses.
pub struct AccountErasures;

impl Handler for AccountErasures {
    fn handle<'a>(&'a self, conn: &'a mut PgConnection, message: &'a Message) -> HandlerFuture<'a> {
        Box::pin(async move {
            let erased: AccountErased = message.json()?;
            let changed = db::orders::forget_username(conn, erased.user_id, &erased.placeholder).await?;
            tracing::info!(user_id = %erased.user_id, changed, "erased account's username forgotten");
            Ok(())
        })
    }
}

/// The recharge service's queue of the games' answers.
pub fn results_queue(settings: &Settings) -> QueueSpec {
    QueueSpec::new(
        format!("{}.recharge.game-results", settings.amqp.exchange),
        &[game::ALL_RESULTS, game::ALL_GIFTCODE_RESULTS],
    )
}
