//! What recharge consumes: the games' answers, each in the inbox's transaction.

use kid_contracts::game::{self, GameResult};
use kid_platform::{
    Settings,
    amqp::QueueSpec,
    inbox::{Handler, HandlerFuture, Message},
};
use sqlx::PgConnection;

use crate::app::results;

/// Consumes the games' answers.
pub struct GameResults;

impl Handler for GameResults {
    fn handle<'a>(&'a self, conn: &'a mut PgConnection, message: &'a Message) -> HandlerFuture<'a> {
        Box::pin(async move {
            let result: GameResult = message.json()?;
            let claimed_product = game::result_product(&message.routing_key).unwrap_or_default();
            let effect = results::apply_result(conn, &message.id, claimed_product, &result).await?;
            tracing::info!(order_id = %result.order_id, status = result.status.as_str(), effect = effect.as_str(), "game result received");
            Ok(())
        })
    }
}

/// The recharge service's queue of the games' answers.
pub fn results_queue(settings: &Settings) -> QueueSpec {
    QueueSpec::new(
        format!("{}.recharge.game-results", settings.amqp.exchange),
        &[game::ALL_RESULTS],
    )
}
