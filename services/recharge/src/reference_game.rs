//! The reference game consumer: what a game team runs, reduced to its contract. It takes every
//! product's orders and giftcode grants and delivers them, except on zone 99, which it answers
//! failed so refunds (and a giftcode's use given back) can be seen, an order taken after its
//! `deliverBy`, which it fails, and zone 97, where it loses each order's first delivery so
//! support's resend can be seen; it credits an order once, however often it comes, and answers
//! a repeat with the same result again; and it answers character checks with a character named
//! after the username on every zone but 98. The development launcher and the tests run it; it
//! speaks only AMQP and JSON, like a real game (docs/game-contract), and `kid-game-sandbox`
//! checks it as it checks a game team's consumer.

use std::time::Duration;

use anyhow::Context;
use kid_platform::{Settings, amqp};
use lapin::{
    BasicProperties, Channel,
    message::Delivery as AmqpDelivery,
    options::{
        BasicAckOptions, BasicConsumeOptions, BasicPublishOptions, BasicRejectOptions, ConfirmSelectOptions,
    },
    types::FieldTable,
};
use secrecy::ExposeSecret;
use time::OffsetDateTime;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use futures::StreamExt;
use kid_contracts::game::{
    self as contract, CharacterAnswer, CharacterQuery, Delivery, GameOrder, GameResult, GiftcodeGrant,
    GiftcodeResult,
};

use crate::domain::catalogue::{FAILING_ZONE, LOSING_ZONE, NO_CHARACTER_ZONE};

/// The orders the game has seen: the message ids it lost (zone 97's first delivery) and the
/// answer it gave each order, so an order that comes again is credited once and answered the
/// same way again (docs/game-contract, "At-least-once delivery and idempotency").
#[derive(Debug, Default)]
struct Seen {
    lost: std::collections::HashSet<String>,
    answered: std::collections::HashMap<Uuid, GameResult>,
}

/// What the game does with an order's delivery.
#[derive(Debug, PartialEq, Eq)]
enum Fate {
    /// Credit it (or fail it) and answer.
    Answer,
    /// Zone 97's first delivery: taken and never answered.
    Lose,
    /// Answered before: not credited again, and the stored answer is sent again.
    Again(GameResult),
}

impl Seen {
    fn fate(&mut self, order: &GameOrder) -> Fate {
        if let Some(answer) = self.answered.get(&order.order_id) {
            return Fate::Again(answer.clone());
        }
        if order.zone_id == LOSING_ZONE && self.lost.insert(order.message_id.to_string()) {
            return Fate::Lose;
        }
        Fate::Answer
    }

    fn answered(&mut self, answer: &GameResult) {
        self.answered.insert(answer.order_id, answer.clone());
    }
}

/// What the reference game answers to an order: failed past its `deliverBy` or on zone 99,
/// delivered otherwise.
pub fn answer(order: &GameOrder) -> GameResult {
    let (status, reason) = if order.deliver_by < OffsetDateTime::now_utc() {
        // The portal has refunded it by now: crediting it would give the player both.
        (Delivery::Failed, "received after deliverBy".to_owned())
    } else if order.zone_id == FAILING_ZONE {
        (Delivery::Failed, format!("zone {FAILING_ZONE} is closed"))
    } else {
        (Delivery::Delivered, String::new())
    };
    GameResult {
        schema_version: contract::SCHEMA_VERSION,
        message_id: Uuid::now_v7().to_string(),
        order_id: order.order_id,
        status,
        reason,
        occurred_at: Some(OffsetDateTime::now_utc()),
    }
}

/// What the reference game answers to a giftcode grant: as to an order, failed on zone 99.
pub fn acknowledge(grant: &GiftcodeGrant) -> GiftcodeResult {
    let (status, reason) = if grant.zone_id == FAILING_ZONE {
        (Delivery::Failed, format!("zone {FAILING_ZONE} is closed"))
    } else {
        (Delivery::Delivered, String::new())
    };
    GiftcodeResult {
        schema_version: contract::SCHEMA_VERSION,
        message_id: Uuid::now_v7().to_string(),
        grant_id: grant.grant_id,
        status,
        reason,
        occurred_at: Some(OffsetDateTime::now_utc()),
    }
}

/// The reference game's characters: one named after the player on every zone but 98.
pub fn character(query: &CharacterQuery) -> CharacterAnswer {
    let found = query.zone_id != NO_CHARACTER_ZONE;
    CharacterAnswer {
        schema_version: contract::SCHEMA_VERSION,
        found,
        name: found.then(|| query.username.clone()),
    }
}

/// The reference game's queue of character checks, bound to every product's.
pub fn character_queue(settings: &Settings) -> amqp::QueueSpec {
    amqp::QueueSpec::new(
        format!("{}.game.reference.characters", settings.amqp.exchange),
        &[contract::ALL_CHARACTER_CHECKS],
    )
    .configured(&settings.amqp)
}

/// The reference game's own queue, bound to every product's orders and giftcode grants.
pub fn queue(settings: &Settings) -> amqp::QueueSpec {
    amqp::QueueSpec::new(
        format!("{}.game.reference", settings.amqp.exchange),
        &[contract::ALL_ORDERS, contract::ALL_GIFTCODE_GRANTS],
    )
    .configured(&settings.amqp)
}

/// How long the broker may take to take an answer and confirm it ([`amqp::within`]).
const BROKER_ANSWER: Duration = Duration::from_secs(5);

/// Publishes a game's answer to an order to the events exchange, persistent, and waits for the
/// broker's confirm. `channel` must be in confirm mode.
pub async fn publish_result(
    channel: &Channel,
    exchange: &str,
    product_code: &str,
    result: &GameResult,
) -> anyhow::Result<()> {
    publish_answer(
        channel,
        exchange,
        &contract::result_routing_key(product_code),
        &result.message_id,
        result,
    )
    .await
}

/// Publishes a game's acknowledgement of a giftcode grant as [`publish_result`] does an order's.
pub async fn publish_giftcode_result(
    channel: &Channel,
    exchange: &str,
    product_code: &str,
    result: &GiftcodeResult,
) -> anyhow::Result<()> {
    publish_answer(
        channel,
        exchange,
        &contract::giftcode_result_routing_key(product_code),
        &result.message_id,
        result,
    )
    .await
}

/// Publishes a game's answer on `routing_key`, persistent, with its message id, and waits for
/// the broker's confirm.
async fn publish_answer(
    channel: &Channel,
    exchange: &str,
    routing_key: &str,
    message_id: &str,
    answer: &impl serde::Serialize,
) -> anyhow::Result<()> {
    let body = serde_json::to_vec(answer)?;
    let properties = BasicProperties::default()
        .with_message_id(message_id.into())
        .with_content_type("application/json".into())
        .with_delivery_mode(2);
    let published = amqp::within(
        BROKER_ANSWER,
        "publish",
        channel.basic_publish(
            exchange.into(),
            routing_key.into(),
            BasicPublishOptions::default(),
            &body,
            properties,
        ),
    )
    .await?;
    let confirm = amqp::within(BROKER_ANSWER, "confirm", published).await?;
    anyhow::ensure!(confirm.is_ack(), "the broker refused the result");
    Ok(())
}

/// Where the reference game takes its orders from.
#[derive(Debug, Clone)]
enum Source {
    /// Every product's orders, on a queue of ours with a dead-letter queue: the development
    /// portal's and the tests' game.
    AllProducts,
    /// One product's orders and giftcode grants, as that game team does it with its own
    /// RabbitMQ user (docs/game-contract, "Binding your queue"): `game.<product>.recharge-orders`,
    /// declared and bound without touching our exchanges.
    Product(String),
}

impl Source {
    fn queue(&self, settings: &Settings) -> amqp::QueueSpec {
        match self {
            Self::AllProducts => queue(settings),
            Self::Product(product) => amqp::QueueSpec::new(
                format!("game.{product}.recharge-orders"),
                &[
                    contract::order_routing_key(product).as_str(),
                    contract::giftcode_grant_routing_key(product).as_str(),
                ],
            ),
        }
    }

    fn character_queue(&self, settings: &Settings) -> amqp::QueueSpec {
        match self {
            Self::AllProducts => character_queue(settings),
            Self::Product(product) => amqp::QueueSpec::new(
                format!("game.{product}.character-checks"),
                &[contract::character_routing_key(product).as_str()],
            ),
        }
    }
}

/// A started reference game: its queue is declared, so no order published from now on is lost.
pub struct ReferenceGame {
    settings: Settings,
    source: Source,
    channel: Option<Channel>,
}

impl ReferenceGame {
    /// Connects and declares the queue now; when the broker cannot be reached, the game
    /// connects (and declares) once it can, in [`Self::run`].
    pub async fn start(settings: &Settings) -> Self {
        Self::starting(settings, Source::AllProducts).await
    }

    /// The game of one product, as its team runs it: with that team's RabbitMQ user in
    /// `settings.amqp.url`, its own queue, and only its product's routing keys. Its queue is
    /// declared and bound when this returns, so whatever is sent from then on reaches it; it
    /// fails (saying why) when it cannot be, for instance while the portal's exchange, which a
    /// game's user may not declare, does not exist yet.
    pub async fn for_product(settings: &Settings, product_code: &str) -> anyhow::Result<Self> {
        let source = Source::Product(product_code.to_owned());
        let channel = open(settings, &source)
            .await
            .with_context(|| format!("the {product_code} game declaring and binding its queues"))?;
        Ok(Self {
            settings: settings.clone(),
            source,
            channel: Some(channel),
        })
    }

    async fn starting(settings: &Settings, source: Source) -> Self {
        let channel = match open(settings, &source).await {
            Ok(channel) => Some(channel),
            Err(error) => {
                tracing::warn!(error = %error, "reference game: broker unreachable; will retry");
                None
            }
        };
        Self {
            settings: settings.clone(),
            source,
            channel,
        }
    }

    /// Answers orders until `shutdown`, reconnecting when the broker goes away.
    pub async fn run(self, shutdown: CancellationToken) {
        let mut channel = self.channel;
        let mut backoff = Duration::from_millis(200);
        while !shutdown.is_cancelled() {
            let current = match channel.take() {
                Some(channel) => Ok(channel),
                None => open(&self.settings, &self.source).await,
            };
            let outcome = match current {
                Ok(current) => {
                    serve(
                        &current,
                        &self.settings,
                        [
                            &self.source.queue(&self.settings),
                            &self.source.character_queue(&self.settings),
                        ],
                        &shutdown,
                    )
                    .await
                }
                Err(error) => Err(error),
            };
            match outcome {
                Ok(()) => return,
                Err(error) => tracing::warn!(error = %error, "reference game lost the broker"),
            }
            tokio::select! {
                () = tokio::time::sleep(backoff) => {}
                () = shutdown.cancelled() => return,
            }
            backoff = (backoff * 2).min(Duration::from_secs(10));
        }
    }
}

async fn open(settings: &Settings, source: &Source) -> anyhow::Result<Channel> {
    let connection = amqp::connect(settings.amqp.url.expose_secret(), "kid-reference-game").await?;
    let channel = connection.create_channel().await?;
    match source {
        Source::AllProducts => {
            for queue in [source.queue(settings), source.character_queue(settings)] {
                amqp::declare_queue(&channel, &settings.amqp.exchange, &queue).await?;
            }
        }
        Source::Product(product) => {
            // As the contract tells a team: its orders dead-letter to its own game.<product>.dlq.
            let dead_letters = amqp::declare_game_dead_letters(&channel, product).await?;
            let exchange = &settings.amqp.exchange;
            amqp::declare_game_queue(&channel, exchange, &source.queue(settings), Some(&dead_letters))
                .await?;
            amqp::declare_game_queue(&channel, exchange, &source.character_queue(settings), None).await?;
        }
    }
    channel.confirm_select(ConfirmSelectOptions::default()).await?;
    channel.basic_qos(16, Default::default()).await?;
    Ok(channel)
}

/// Takes orders from the first queue and character checks from the second, on one channel.
async fn serve(
    channel: &Channel,
    settings: &Settings,
    [orders, checks]: [&amqp::QueueSpec; 2],
    shutdown: &CancellationToken,
) -> anyhow::Result<()> {
    // A consumer tag is unique per channel: the broker closes a channel that reuses one.
    let consume = |queue: &amqp::QueueSpec, tag: &'static str| {
        channel.basic_consume(
            queue.name.as_str().into(),
            tag.into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
    };
    let orders = consume(orders, "kid-reference-game-orders")
        .await?
        .map(|delivery| (true, delivery));
    let checks = consume(checks, "kid-reference-game-characters")
        .await?
        .map(|delivery| (false, delivery));
    let mut deliveries = futures::stream::select(orders, checks);
    let mut seen = Seen::default();
    loop {
        let next = tokio::select! {
            next = deliveries.next() => next,
            () = shutdown.cancelled() => return Ok(()),
        };
        let Some((is_order, delivery)) = next else {
            anyhow::bail!("the broker ended the consumer");
        };
        if is_order {
            handle(channel, &settings.amqp.exchange, delivery?, &mut seen).await?;
        } else {
            answer_character(channel, &settings.amqp.exchange, delivery?).await?;
        }
    }
}

/// Answers a character check on the portal's exchange with the query's product's answer key
/// (which its `reply_to` names) and its `correlation_id`.
async fn answer_character(channel: &Channel, exchange: &str, delivery: AmqpDelivery) -> anyhow::Result<()> {
    let query = serde_json::from_slice::<CharacterQuery>(&delivery.data);
    let (Ok(query), Some(reply_to)) = (query, delivery.properties.reply_to().clone()) else {
        tracing::error!("reference game: unreadable character check rejected");
        delivery.reject(BasicRejectOptions { requeue: false }).await?;
        return Ok(());
    };
    let mut properties = BasicProperties::default().with_content_type("application/json".into());
    if let Some(correlation) = delivery.properties.correlation_id() {
        properties = properties.with_correlation_id(correlation.clone());
    }
    let answer = character(&query);
    let published = amqp::within(
        BROKER_ANSWER,
        "publish",
        channel.basic_publish(
            exchange.into(),
            reply_to,
            BasicPublishOptions::default(),
            &serde_json::to_vec(&answer)?,
            properties,
        ),
    )
    .await?;
    amqp::within(BROKER_ANSWER, "confirm", published).await?;
    tracing::info!(
        zone = query.zone_id,
        found = answer.found,
        "reference game answered a character check"
    );
    amqp::within(BROKER_ANSWER, "ack", delivery.ack(BasicAckOptions::default())).await?;
    Ok(())
}

async fn handle(
    channel: &Channel,
    exchange: &str,
    delivery: AmqpDelivery,
    seen: &mut Seen,
) -> anyhow::Result<()> {
    if contract::giftcode_grant_product(delivery.routing_key.as_str()).is_some() {
        return handle_grant(channel, exchange, delivery).await;
    }
    let order: GameOrder = match serde_json::from_slice(&delivery.data) {
        Ok(order) => order,
        Err(error) => {
            tracing::error!(error = %error, "reference game: unreadable order rejected");
            delivery.reject(BasicRejectOptions { requeue: false }).await?;
            return Ok(());
        }
    };
    match seen.fate(&order) {
        Fate::Answer => {
            let result = answer(&order);
            publish_result(channel, exchange, &order.product_code, &result).await?;
            seen.answered(&result);
            tracing::info!(order_id = %order.order_id, zone = order.zone_id, status = result.status.as_str(), "reference game answered");
        }
        Fate::Lose => tracing::warn!(order_id = %order.order_id, "reference game lost an order (zone 97)"),
        Fate::Again(previous) => {
            let again = GameResult {
                message_id: Uuid::now_v7().to_string(),
                occurred_at: Some(OffsetDateTime::now_utc()),
                ..previous
            };
            publish_result(channel, exchange, &order.product_code, &again).await?;
            tracing::info!(order_id = %order.order_id, "reference game answered an order it had answered again, crediting nothing")
        }
    }
    amqp::within(BROKER_ANSWER, "ack", delivery.ack(BasicAckOptions::default())).await?;
    Ok(())
}

/// Puts a giftcode's items on the character (here: answers as [`acknowledge`] says), and
/// acknowledges the grant on its product's `giftcode.result` key.
async fn handle_grant(channel: &Channel, exchange: &str, delivery: AmqpDelivery) -> anyhow::Result<()> {
    let grant: GiftcodeGrant = match serde_json::from_slice(&delivery.data) {
        Ok(grant) => grant,
        Err(error) => {
            tracing::error!(error = %error, "reference game: unreadable giftcode grant rejected");
            delivery.reject(BasicRejectOptions { requeue: false }).await?;
            return Ok(());
        }
    };
    let result = acknowledge(&grant);
    publish_giftcode_result(channel, exchange, &grant.product_code, &result).await?;
    tracing::info!(grant_id = %grant.grant_id, zone = grant.zone_id, status = result.status.as_str(), "reference game acknowledged a giftcode grant");
    amqp::within(BROKER_ANSWER, "ack", delivery.ack(BasicAckOptions::default())).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_is_credited_once_answered_again_alike_and_zone_97_loses_its_first_delivery() {
        let mut seen = Seen::default();
        let first = order(1);
        assert_eq!(seen.fate(&first), Fate::Answer);
        let answered = answer(&first);
        seen.answered(&answered);
        assert_eq!(seen.fate(&first), Fate::Again(answered.clone()));
        let resent = GameOrder {
            message_id: Uuid::now_v7(),
            ..first
        };
        assert_eq!(
            seen.fate(&resent),
            Fate::Again(answered),
            "by orderId, whatever the message"
        );
        let lost = order(LOSING_ZONE);
        assert_eq!(seen.fate(&lost), Fate::Lose);
        assert_eq!(seen.fate(&lost), Fate::Answer, "the resend is answered");
    }

    #[test]
    fn an_order_taken_after_its_deadline_is_failed_not_credited() {
        let late = GameOrder {
            deliver_by: OffsetDateTime::now_utc() - time::Duration::minutes(1),
            ..order(1)
        };
        let answered = answer(&late);
        assert_eq!(
            (answered.status, answered.reason.as_str()),
            (Delivery::Failed, "received after deliverBy")
        );
    }

    fn order(zone_id: i64) -> GameOrder {
        let now = OffsetDateTime::now_utc();
        GameOrder {
            schema_version: 1,
            message_id: Uuid::now_v7(),
            order_id: Uuid::now_v7(),
            transaction_id: Uuid::now_v7(),
            username: "demo".into(),
            product_code: "fsonline".into(),
            zone_id,
            coins: 200,
            milestone_bonus: 0,
            event_bonus: 20,
            total_coins: 220,
            lottery_points: 0,
            created_at: now,
            deliver_by: now + time::Duration::minutes(10),
        }
    }

    #[test]
    fn every_zone_but_98_has_a_character_named_after_the_player() {
        let query = |zone_id| CharacterQuery {
            schema_version: 1,
            message_id: Uuid::now_v7(),
            username: "demo".into(),
            product_code: "jxsj2".into(),
            zone_id,
        };
        assert_eq!(character(&query(1)).name.as_deref(), Some("demo"));
        assert!(
            character(&query(99)).found,
            "zone 99 has a character (its orders fail)"
        );
        let none = character(&query(98));
        assert_eq!((none.found, none.name), (false, None));
    }

    #[test]
    fn zone_99_fails_with_a_reason_and_every_other_zone_is_delivered() {
        let failed = answer(&order(99));
        assert_eq!(failed.status, Delivery::Failed);
        assert_eq!(failed.reason, "zone 99 is closed");
        let delivered = answer(&order(1));
        assert_eq!(delivered.status, Delivery::Delivered);
        assert!(delivered.reason.is_empty());
        assert_ne!(
            failed.message_id, delivered.message_id,
            "each answer has its own id"
        );
    }
}
