//! Idempotent consumers: a message's id is recorded in the inbox in the same transaction as
//! its handling, and the delivery is acknowledged only after that commit. A redelivered id is
//! acknowledged without running the handler again.
//!
//! A consumer may handle several messages at once, in lanes: messages with the same ordering
//! key (for the ledger, the player) always go to the same lane and are handled one after
//! another in delivery order; different keys proceed concurrently, each in its own transaction.

use std::{
    collections::{BTreeMap, HashMap},
    future::Future,
    pin::Pin,
    sync::Arc,
    time::Duration,
};

use lapin::{
    Channel,
    message::Delivery,
    options::{BasicAckOptions, BasicConsumeOptions, BasicNackOptions, BasicQosOptions, BasicRejectOptions},
    types::{AMQPValue, FieldTable},
};
use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::{
    amqp::{self, QueueSpec},
    config::Settings,
    telemetry,
};

/// How long connecting, declaring the queue and subscribing may take before trying again.
const SUBSCRIBE_TIMEOUT: Duration = Duration::from_secs(3);
/// The first wait before connecting again, doubled after each failed try up to the most.
const RECONNECT_FIRST: Duration = Duration::from_millis(200);
const RECONNECT_MOST: Duration = Duration::from_secs(5);
/// How long an acknowledgement (ack, nack or reject) may take before the channel is taken for
/// lost ([`amqp::within`]): one left pending held a lane, and so the whole consumer, for good.
const ACKNOWLEDGE_TIMEOUT: Duration = Duration::from_secs(5);

/// Waits for an acknowledgement, at most [`ACKNOWLEDGE_TIMEOUT`].
async fn acknowledged(
    what: &'static str,
    acknowledgement: impl Future<Output = lapin::Result<bool>>,
) -> anyhow::Result<()> {
    amqp::within(ACKNOWLEDGE_TIMEOUT, what, acknowledgement).await?;
    Ok(())
}

/// A delivered event.
#[derive(Debug, Clone)]
pub struct Message {
    pub id: String,
    pub routing_key: String,
    pub body: Vec<u8>,
    /// Deliveries before this one, as the quorum queue counts them.
    pub previous_deliveries: u64,
}

impl Message {
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, HandlerError> {
        serde_json::from_slice(&self.body).map_err(|error| HandlerError::Permanent(error.to_string()))
    }
}

#[derive(Debug, thiserror::Error)]
pub enum HandlerError {
    /// The message can never succeed (malformed, unknown): it goes to the dead-letter queue.
    #[error("permanent failure: {0}")]
    Permanent(String),
    /// Worth retrying; after the queue's delivery limit it is dead-lettered.
    #[error("transient failure: {0}")]
    Transient(String),
}

impl From<sqlx::Error> for HandlerError {
    fn from(error: sqlx::Error) -> Self {
        Self::Transient(error.to_string())
    }
}

/// A delivery without a message id, as far as it can be read: it cannot be deduplicated, so
/// it is dead-lettered; a handler may first say what became of it (see
/// [`Handler::handle_unidentified`]).
#[derive(Debug, Clone)]
pub struct Unidentified {
    pub routing_key: String,
    pub body: Vec<u8>,
    /// The AMQP properties it carried (content type, correlation id, headers…), as text.
    pub properties: BTreeMap<String, String>,
}

pub type HandlerFuture<'a> = Pin<Box<dyn Future<Output = Result<(), HandlerError>> + Send + 'a>>;

/// Handles one message inside the consumer's database transaction.
pub trait Handler: Send + Sync + 'static {
    fn handle<'a>(&'a self, conn: &'a mut PgConnection, message: &'a Message) -> HandlerFuture<'a>;

    /// Messages with equal keys are handled in delivery order, one at a time; `None` puts the
    /// message in the first lane. With one lane (the default) every message is in order.
    fn ordering_key(&self, _message: &Message) -> Option<Vec<u8>> {
        None
    }

    /// Runs in a transaction of its own before a delivery without a message id is
    /// dead-lettered, to record what became of it (the recharge service tells the game). The
    /// default records nothing.
    fn handle_unidentified<'a>(
        &'a self,
        _conn: &'a mut PgConnection,
        _message: &'a Unidentified,
    ) -> HandlerFuture<'a> {
        Box::pin(async { Ok(()) })
    }
}

/// Consumes one queue into one service's database.
pub struct Consumer {
    pool: PgPool,
    amqp_url: SecretString,
    exchange: String,
    queue: QueueSpec,
    prefetch: u16,
    lanes: usize,
    retry_base: Duration,
    /// `testing.skip_inbox_dedupe`: handle redeliveries again (never in production).
    skip_dedupe: bool,
}

enum Outcome {
    Processed,
    Duplicate,
}

impl Consumer {
    pub fn new(pool: PgPool, settings: &Settings, queue: QueueSpec) -> Self {
        let queue = queue.configured(&settings.amqp);
        Self {
            pool,
            amqp_url: settings.amqp.url.clone(),
            exchange: settings.amqp.exchange.clone(),
            queue,
            prefetch: 16,
            lanes: 1,
            retry_base: Duration::from_millis(500),
            skip_dedupe: settings.testing.skip_inbox_dedupe,
        }
    }

    /// Handles up to `lanes` messages at once (see the module's documentation); the broker
    /// sends up to four per lane ahead.
    pub fn with_lanes(mut self, lanes: usize) -> Self {
        self.lanes = lanes.max(1);
        self.prefetch = self.prefetch.max(u16::try_from(lanes * 4).unwrap_or(u16::MAX));
        self
    }

    /// The first retry's delay; each later one doubles it.
    pub fn with_retry_base(mut self, retry_base: Duration) -> Self {
        self.retry_base = retry_base;
        self
    }

    /// Consumes until `shutdown`, reconnecting to the broker as needed.
    pub async fn run<H: Handler>(self, handler: H, shutdown: CancellationToken) {
        // Exported at 0 from the start, so the first dead letter is an increase alerts see.
        metrics::counter!("inbox_dead_lettered_total", "queue" => self.queue.name.clone()).increment(0);
        let (consumer, handler) = (Arc::new(self), Arc::new(handler));
        let mut backoff = RECONNECT_FIRST;
        while !shutdown.is_cancelled() {
            let mut subscribed = false;
            match consumer.consume(&handler, &shutdown, &mut subscribed).await {
                Ok(()) => return,
                Err(error) => {
                    tracing::warn!(queue = %consumer.queue.name, error = %error, "consumer lost the broker")
                }
            }
            // A consumer that was subscribed starts over: the back-off counts failed tries in
            // a row, not every loss in the process's life.
            if subscribed {
                backoff = RECONNECT_FIRST;
            }
            tokio::select! {
                () = tokio::time::sleep(backoff) => {}
                () = shutdown.cancelled() => return,
            }
            backoff = (backoff * 2).min(RECONNECT_MOST);
        }
    }

    async fn open_channel(&self) -> lapin::Result<Channel> {
        let connection = amqp::connect(self.amqp_url.expose_secret(), &self.queue.name).await?;
        let channel = connection.create_channel().await?;
        amqp::declare_queue(&channel, &self.exchange, &self.queue).await?;
        channel
            .basic_qos(self.prefetch, BasicQosOptions::default())
            .await?;
        Ok(channel)
    }

    /// Connects, declares the queue and subscribes.
    async fn subscribe(&self) -> lapin::Result<(Channel, lapin::Consumer)> {
        let channel = self.open_channel().await?;
        let deliveries = channel
            .basic_consume(
                self.queue.name.as_str().into(),
                "".into(),
                BasicConsumeOptions::default(),
                FieldTable::default(),
            )
            .await?;
        Ok((channel, deliveries))
    }

    async fn consume<H: Handler>(
        self: &Arc<Self>,
        handler: &Arc<H>,
        shutdown: &CancellationToken,
        subscribed: &mut bool,
    ) -> anyhow::Result<()> {
        // Bounded: a quorum queue another connection is declaring at the same moment can make
        // the broker drop our connection mid-subscribe ("noproc"), and the answer we wait for
        // may then never come. Without a deadline the consumer would wait forever, consuming
        // nothing while the service reports ready.
        let (_channel, mut deliveries) =
            tokio::time::timeout(SUBSCRIBE_TIMEOUT, self.subscribe())
                .await
                .map_err(|_| anyhow::anyhow!("no subscription within {SUBSCRIBE_TIMEOUT:?}"))??;
        *subscribed = true;
        // One task per lane, each handling its deliveries in order. A lane that fails to
        // acknowledge (the channel is gone) stops; the broker redelivers what it held.
        let mut lanes = Vec::with_capacity(self.lanes);
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..self.lanes {
            let (sender, mut receiver) =
                tokio::sync::mpsc::channel::<(Delivery, Option<Message>)>(usize::from(self.prefetch));
            let (consumer, handler) = (self.clone(), handler.clone());
            tasks.spawn(async move {
                while let Some((delivery, message)) = receiver.recv().await {
                    consumer.dispatch(handler.as_ref(), delivery, message).await?;
                }
                anyhow::Ok(())
            });
            lanes.push(sender);
        }
        let consumed = async {
            while let Some(delivery) = amqp::next_delivery(&mut deliveries, shutdown).await? {
                let message = message_of(&delivery);
                let lane = self.lane_of(handler.as_ref(), message.as_ref());
                if lanes[lane].send((delivery, message)).await.is_err() {
                    anyhow::bail!("a lane of the consumer stopped");
                }
            }
            anyhow::Ok(())
        }
        .await;
        drop(lanes);
        if consumed.is_err() {
            // The channel is gone: what the lanes hold is redelivered (and deduplicated by
            // the inbox), so they need not finish it; one may be stuck on an acknowledgement.
            tasks.abort_all();
        }
        while let Some(lane) = tasks.join_next().await {
            match lane {
                Ok(finished) => finished?,
                Err(stopped) if stopped.is_cancelled() => {}
                Err(panicked) => return Err(panicked.into()),
            }
        }
        consumed
    }

    /// The lane a delivery goes to: by its ordering key, the first for none.
    fn lane_of<H: Handler>(&self, handler: &H, message: Option<&Message>) -> usize {
        if self.lanes == 1 {
            return 0;
        }
        message
            .and_then(|message| handler.ordering_key(message))
            .map_or(0, |key| {
                let mut hasher = std::hash::DefaultHasher::new();
                std::hash::Hash::hash(&key, &mut hasher);
                usize::try_from(std::hash::Hasher::finish(&hasher) % self.lanes as u64).unwrap_or(0)
            })
    }

    /// Handles `delivery`, read as `message` (none: it has no id).
    async fn dispatch<H: Handler>(
        &self,
        handler: &H,
        delivery: Delivery,
        message: Option<Message>,
    ) -> anyhow::Result<()> {
        let Some(message) = message else {
            let unidentified = unidentified_of(&delivery);
            if let Err(HandlerError::Transient(error)) =
                self.process_unidentified(handler, &unidentified).await
            {
                // Not recorded (the database is away): back to the queue to try again.
                let wait = retry_delay(self.retry_base, previous_deliveries(&delivery));
                tracing::warn!(queue = %self.queue.name, %error, ?wait, "message without an id will be retried");
                return requeue_after(wait, &delivery).await;
            }
            tracing::error!(queue = %self.queue.name, routing_key = %unidentified.routing_key, "message without an id dead-lettered");
            metrics::counter!("inbox_dead_lettered_total", "queue" => self.queue.name.clone()).increment(1);
            acknowledged("reject", delivery.reject(BasicRejectOptions { requeue: false })).await?;
            return Ok(());
        };
        let span = tracing::info_span!("consume", queue = %self.queue.name, message_id = %message.id, routing_key = %message.routing_key);
        telemetry::adopt_parent_from_map(&span, &trace_headers(&delivery));
        let result = self.process(handler, &message).instrument(span).await;
        match result {
            Ok(Outcome::Processed) => {
                metrics::counter!("inbox_processed_total", "queue" => self.queue.name.clone()).increment(1);
                acknowledged("ack", delivery.ack(BasicAckOptions::default())).await?;
            }
            Ok(Outcome::Duplicate) => {
                metrics::counter!("inbox_duplicates_total", "queue" => self.queue.name.clone()).increment(1);
                acknowledged("ack", delivery.ack(BasicAckOptions::default())).await?;
            }
            Err(HandlerError::Permanent(reason)) => {
                tracing::error!(queue = %self.queue.name, message_id = %message.id, %reason, "message dead-lettered");
                metrics::counter!("inbox_dead_lettered_total", "queue" => self.queue.name.clone())
                    .increment(1);
                acknowledged("reject", delivery.reject(BasicRejectOptions { requeue: false })).await?;
            }
            Err(HandlerError::Transient(reason)) => {
                let wait = retry_delay(self.retry_base, message.previous_deliveries);
                tracing::warn!(queue = %self.queue.name, message_id = %message.id, %reason, ?wait, "message will be retried");
                requeue_after(wait, &delivery).await?;
            }
        }
        Ok(())
    }

    async fn process<H: Handler>(&self, handler: &H, message: &Message) -> Result<Outcome, HandlerError> {
        let mut tx = self.pool.begin().await?;
        let first_time = sqlx::query!(
            "insert into inbox_message (consumer, message_id) values ($1, $2) on conflict do nothing",
            self.queue.name,
            message.id
        )
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if !first_time && !self.skip_dedupe {
            return Ok(Outcome::Duplicate);
        }
        handler.handle(&mut tx, message).await?;
        tx.commit().await?;
        Ok(Outcome::Processed)
    }

    /// Lets the handler record a delivery without an id, in a transaction of its own.
    async fn process_unidentified<H: Handler>(
        &self,
        handler: &H,
        message: &Unidentified,
    ) -> Result<(), HandlerError> {
        let mut tx = self.pool.begin().await?;
        handler.handle_unidentified(&mut tx, message).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Hands `delivery` back to the queue after `wait`, for another try.
async fn requeue_after(wait: Duration, delivery: &Delivery) -> anyhow::Result<()> {
    tokio::time::sleep(wait).await;
    let requeue = BasicNackOptions {
        requeue: true,
        ..BasicNackOptions::default()
    };
    acknowledged("nack", delivery.nack(requeue)).await
}

/// Exponential back-off before a failed message goes back to the queue: base, 2×, 4×… 32×.
fn retry_delay(base: Duration, previous_deliveries: u64) -> Duration {
    base.saturating_mul(1 << previous_deliveries.min(5))
}

fn message_of(delivery: &Delivery) -> Option<Message> {
    let id = delivery.properties.message_id().as_ref()?.to_string();
    Some(Message {
        id,
        routing_key: delivery.routing_key.to_string(),
        body: delivery.data.clone(),
        previous_deliveries: previous_deliveries(delivery),
    })
}

/// Deliveries before this one, as the quorum queue counts them.
fn previous_deliveries(delivery: &Delivery) -> u64 {
    delivery
        .properties
        .headers()
        .as_ref()
        .and_then(|headers| headers.inner().get("x-delivery-count"))
        .and_then(as_u64)
        .unwrap_or(0)
}

/// A delivery without an id, with the properties it carried as text.
fn unidentified_of(delivery: &Delivery) -> Unidentified {
    let p = &delivery.properties;
    let mut properties = BTreeMap::new();
    let mut put = |name: &str, value: Option<String>| {
        if let Some(value) = value {
            properties.insert(name.to_owned(), value);
        }
    };
    put("content_type", p.content_type().as_ref().map(ToString::to_string));
    put(
        "content_encoding",
        p.content_encoding().as_ref().map(ToString::to_string),
    );
    put("delivery_mode", p.delivery_mode().map(|mode| mode.to_string()));
    put(
        "correlation_id",
        p.correlation_id().as_ref().map(ToString::to_string),
    );
    put("reply_to", p.reply_to().as_ref().map(ToString::to_string));
    put("timestamp", p.timestamp().map(|stamp| stamp.to_string()));
    put("type", p.kind().as_ref().map(ToString::to_string));
    put("user_id", p.user_id().as_ref().map(ToString::to_string));
    put("app_id", p.app_id().as_ref().map(ToString::to_string));
    if let Some(headers) = p.headers() {
        for (key, value) in headers.inner() {
            let text = match value {
                AMQPValue::LongString(text) => text.to_string(),
                AMQPValue::ShortString(text) => text.to_string(),
                other => match as_u64(other) {
                    Some(number) => number.to_string(),
                    None => continue,
                },
            };
            properties.insert(format!("headers.{key}"), text);
        }
    }
    Unidentified {
        routing_key: delivery.routing_key.to_string(),
        body: delivery.data.clone(),
        properties,
    }
}

fn as_u64(value: &AMQPValue) -> Option<u64> {
    match value {
        AMQPValue::LongLongInt(n) => u64::try_from(*n).ok(),
        AMQPValue::LongInt(n) => u64::try_from(*n).ok(),
        AMQPValue::LongUInt(n) => Some(u64::from(*n)),
        AMQPValue::ShortInt(n) => u64::try_from(*n).ok(),
        _ => None,
    }
}

fn trace_headers(delivery: &Delivery) -> HashMap<String, String> {
    let Some(headers) = delivery.properties.headers() else {
        return HashMap::new();
    };
    headers
        .inner()
        .iter()
        .filter_map(|(key, value)| match value {
            AMQPValue::LongString(text) => Some((key.to_string(), text.to_string())),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_exponentially_and_stop_growing() {
        let base = Duration::from_millis(500);
        assert_eq!(retry_delay(base, 0), Duration::from_millis(500));
        assert_eq!(retry_delay(base, 1), Duration::from_secs(1));
        assert_eq!(retry_delay(base, 3), Duration::from_secs(4));
        assert_eq!(retry_delay(base, 50), Duration::from_secs(16));
    }
}
