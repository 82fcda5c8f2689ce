//! RabbitMQ topology: one durable topic exchange for events, its dead-letter exchange, and
//! quorum queues that dead-letter poison messages after a bounded number of deliveries.

use std::time::Duration;

use futures::StreamExt;
use lapin::{
    Channel, Connection, ConnectionProperties, ExchangeKind,
    message::Delivery,
    options::{BasicConsumeOptions, ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions},
    types::{AMQPValue, FieldTable, LongString, ShortString},
    uri::AMQPUri,
};
use tokio_util::sync::CancellationToken;

/// How a consumer's queue is declared.
#[derive(Debug, Clone)]
pub struct QueueSpec {
    pub name: String,
    /// Routing-key patterns bound on the events exchange.
    pub bindings: Vec<String>,
    /// Deliveries before a message that keeps failing is dead-lettered.
    pub delivery_limit: u32,
    /// Deletes the queue (and its dead-letter queue) after this long without consumers; for
    /// test runs, whose queues nobody consumes once they end. Production queues never expire.
    pub expires: Option<Duration>,
}

impl QueueSpec {
    pub fn new(name: impl Into<String>, bindings: &[&str]) -> Self {
        Self {
            name: name.into(),
            bindings: bindings.iter().map(|b| (*b).to_owned()).collect(),
            delivery_limit: 5,
            expires: None,
        }
    }

    /// The queue as this deployment declares it (test runs' queues expire).
    pub fn configured(mut self, settings: &crate::config::AmqpSettings) -> Self {
        self.expires = self.expires.or(settings.queue_expires());
        self
    }

    pub fn dead_letter_queue(&self) -> String {
        format!("{}.dlq", self.name)
    }
}

pub fn dead_letter_exchange(exchange: &str) -> String {
    format!("{exchange}.dlx")
}

/// The largest AMQP frame a connection asks for, unless its URL names one (`?frame_max=`).
/// lapin keeps a receive and a send buffer of 32 frames per connection, filled with zeros: at
/// RabbitMQ's default of 128 KiB that is 8 MiB a connection, most of a service's memory at
/// rest (30 of the wallet's 48 MB, with its four connections). Kid's messages are small JSON;
/// a larger body is split across frames.
pub const FRAME_MAX: u32 = 16 * 1024;

pub async fn connect(url: &str, name: &str) -> lapin::Result<Connection> {
    let properties = ConnectionProperties::default().with_connection_name(name.into());
    match url.parse::<AMQPUri>() {
        Ok(mut uri) => {
            uri.query.frame_max = uri.query.frame_max.or(Some(FRAME_MAX));
            Connection::connect_uri(uri, properties).await
        }
        // lapin reports the malformed URL itself.
        Err(_) => Connection::connect(url, properties).await,
    }
}

/// Connects with a deadline, for readiness checks.
pub async fn ping(url: &str, timeout: Duration) -> Result<(), String> {
    match tokio::time::timeout(timeout, connect(url, "kid-readiness")).await {
        Ok(Ok(connection)) => {
            let _ = connection.close(200, "readiness checked".into()).await;
            Ok(())
        }
        Ok(Err(error)) => Err(error.to_string()),
        Err(_) => Err(format!("no answer within {timeout:?}")),
    }
}

pub async fn declare_exchanges(channel: &Channel, exchange: &str) -> lapin::Result<()> {
    let durable = ExchangeDeclareOptions {
        durable: true,
        ..ExchangeDeclareOptions::default()
    };
    channel
        .exchange_declare(
            exchange.into(),
            ExchangeKind::Topic,
            durable,
            FieldTable::default(),
        )
        .await?;
    channel
        .exchange_declare(
            dead_letter_exchange(exchange).into(),
            ExchangeKind::Topic,
            durable,
            FieldTable::default(),
        )
        .await
}

fn quorum_arguments(expires: Option<Duration>) -> FieldTable {
    let mut arguments = FieldTable::default();
    arguments.insert(
        ShortString::from("x-queue-type"),
        AMQPValue::LongString(LongString::from("quorum")),
    );
    if let Some(expires) = expires {
        let millis = u32::try_from(expires.as_millis()).unwrap_or(u32::MAX);
        arguments.insert(ShortString::from("x-expires"), AMQPValue::LongUInt(millis));
    }
    arguments
}

/// Declares the exchanges, the queue with its bindings, and its dead-letter queue.
pub async fn declare_queue(channel: &Channel, exchange: &str, spec: &QueueSpec) -> lapin::Result<()> {
    declare_exchanges(channel, exchange).await?;
    let durable = QueueDeclareOptions {
        durable: true,
        ..QueueDeclareOptions::default()
    };
    let dead_letters = spec.dead_letter_queue();
    channel
        .queue_declare(
            dead_letters.as_str().into(),
            durable,
            quorum_arguments(spec.expires),
        )
        .await?;
    channel
        .queue_bind(
            dead_letters.as_str().into(),
            dead_letter_exchange(exchange).into(),
            spec.name.as_str().into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await?;

    let mut arguments = quorum_arguments(spec.expires);
    arguments.insert(
        ShortString::from("x-dead-letter-exchange"),
        AMQPValue::LongString(LongString::from(dead_letter_exchange(exchange))),
    );
    arguments.insert(
        ShortString::from("x-dead-letter-routing-key"),
        AMQPValue::LongString(LongString::from(spec.name.as_str())),
    );
    arguments.insert(
        ShortString::from("x-delivery-limit"),
        AMQPValue::LongUInt(spec.delivery_limit),
    );
    channel
        .queue_declare(spec.name.as_str().into(), durable, arguments)
        .await?;
    bind(channel, exchange, spec).await
}

/// Declares a game team's queue as the game contract tells them to (docs/game-contract): a
/// durable quorum queue of their own, bound to `exchange`, which must exist, dead-lettering to
/// `dead_letter_exchange` when given (see [`declare_game_dead_letters`]). Nothing else is
/// declared, so a game's user needs no configure permission on our exchanges.
pub async fn declare_game_queue(
    channel: &Channel,
    exchange: &str,
    spec: &QueueSpec,
    dead_letter_exchange: Option<&str>,
) -> lapin::Result<()> {
    let durable = QueueDeclareOptions {
        durable: true,
        ..QueueDeclareOptions::default()
    };
    let mut arguments = quorum_arguments(spec.expires);
    if let Some(dead_letters) = dead_letter_exchange {
        arguments.insert(
            ShortString::from("x-dead-letter-exchange"),
            AMQPValue::LongString(LongString::from(dead_letters)),
        );
    }
    channel
        .queue_declare(spec.name.as_str().into(), durable, arguments)
        .await?;
    bind(channel, exchange, spec).await
}

/// A game team's own dead letters, as the game contract tells them to set up: the fanout
/// exchange `game.<product>.dlx` and the quorum queue `game.<product>.dlq` bound to it. Returns
/// the exchange's name, for the `x-dead-letter-exchange` of the team's queues.
pub async fn declare_game_dead_letters(channel: &Channel, product_code: &str) -> lapin::Result<String> {
    let exchange = format!("game.{product_code}.dlx");
    let queue = format!("game.{product_code}.dlq");
    channel
        .exchange_declare(
            exchange.as_str().into(),
            ExchangeKind::Fanout,
            ExchangeDeclareOptions {
                durable: true,
                ..ExchangeDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await?;
    let durable = QueueDeclareOptions {
        durable: true,
        ..QueueDeclareOptions::default()
    };
    channel
        .queue_declare(queue.as_str().into(), durable, quorum_arguments(None))
        .await?;
    channel
        .queue_bind(
            queue.as_str().into(),
            exchange.as_str().into(),
            "".into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await?;
    Ok(exchange)
}

async fn bind(channel: &Channel, exchange: &str, spec: &QueueSpec) -> lapin::Result<()> {
    for binding in &spec.bindings {
        channel
            .queue_bind(
                spec.name.as_str().into(),
                exchange.into(),
                binding.as_str().into(),
                QueueBindOptions::default(),
                FieldTable::default(),
            )
            .await?;
    }
    Ok(())
}

/// A private queue (exclusive, server-named, gone with the channel) bound to `exchange` with
/// `pattern`, and its deliveries (acknowledged by hand unless `no_ack`): how a spy, a test or
/// the game sandbox listens to the events without leaving a queue behind.
pub async fn consume_private(
    channel: &Channel,
    exchange: &str,
    pattern: &str,
    no_ack: bool,
) -> lapin::Result<lapin::Consumer> {
    consume_exclusive(channel, "", exchange, pattern, no_ack).await
}

/// The same with a queue named `name` (the server names it when empty): for a service whose
/// broker user may declare only the names its permission lists.
pub async fn consume_exclusive(
    channel: &Channel,
    name: &str,
    exchange: &str,
    pattern: &str,
    no_ack: bool,
) -> lapin::Result<lapin::Consumer> {
    let queue = channel
        .queue_declare(
            name.into(),
            QueueDeclareOptions {
                exclusive: true,
                auto_delete: true,
                ..QueueDeclareOptions::default()
            },
            FieldTable::default(),
        )
        .await?;
    channel
        .queue_bind(
            queue.name().clone(),
            exchange.into(),
            pattern.into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await?;
    channel
        .basic_consume(
            queue.name().clone(),
            "".into(),
            BasicConsumeOptions {
                no_ack,
                ..BasicConsumeOptions::default()
            },
            FieldTable::default(),
        )
        .await
}

/// The next of `deliveries`, or `None` once `shutdown` is cancelled. A consumer the broker
/// ended is an error: the caller reconnects.
pub async fn next_delivery(
    deliveries: &mut lapin::Consumer,
    shutdown: &CancellationToken,
) -> anyhow::Result<Option<Delivery>> {
    let delivery = tokio::select! {
        delivery = deliveries.next() => delivery,
        () = shutdown.cancelled() => return Ok(None),
    };
    match delivery {
        Some(delivery) => Ok(Some(delivery?)),
        None => anyhow::bail!("the broker ended the consumer"),
    }
}

/// The broker did not answer in time, or answered with an error.
#[derive(Debug, thiserror::Error)]
pub enum Unanswered {
    #[error("no {0} from the broker within {1:?}: the channel is lost")]
    Lost(&'static str, Duration),
    #[error(transparent)]
    Broker(#[from] lapin::Error),
}

/// Waits at most `limit` for the broker's answer to an acknowledgement, a publish or its
/// confirm. lapin can leave one pending for ever when the connection dies as it is sent
/// (`scripts/chaos`, RabbitMQ stopped): a consumer or relay waiting on it unbounded stalls for
/// good, so every wait on the broker goes through here and a lost one reads as a lost channel.
pub async fn within<T>(
    limit: Duration,
    what: &'static str,
    answer: impl Future<Output = lapin::Result<T>>,
) -> Result<T, Unanswered> {
    match tokio::time::timeout(limit, answer).await {
        Ok(answer) => Ok(answer?),
        Err(_) => Err(Unanswered::Lost(what, limit)),
    }
}
