//! What recharge consumes: the games' answers to orders and to giftcode grants, each in the
//! inbox's transaction.

use kid_contracts::{
    game::{self, Delivery, GameResult, GiftcodeResult},
    topics::AccountErased,
};
use kid_platform::{
    Settings,
    amqp::QueueSpec,
    inbox::{Handler, HandlerFuture, Message},
};
use sqlx::PgConnection;

use crate::{app::results, db};

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
            let result: GameResult = message.json()?;
            let claimed_product = game::result_product(&message.routing_key).unwrap_or_default();
            let effect = results::apply_result(conn, &message.id, claimed_product, &result).await?;
            tracing::info!(order_id = %result.order_id, status = result.status.as_str(), effect = effect.as_str(), "game result received");
            Ok(())
        })
    }
}

/// Consumes identity's account erasures: the erased player's username, kept on their orders
/// and item grants (the game knew the character by it), becomes the placeholder.
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
