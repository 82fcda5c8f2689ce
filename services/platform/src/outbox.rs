//! The transactional outbox: `enqueue` writes an event in the caller's transaction, and the
//! [`Relay`] publishes committed events with publisher confirms. Several relays may run: each
//! claims its batch with `FOR UPDATE SKIP LOCKED`, so a row is published by one of them.
//!
//! `enqueue` also sends a PostgreSQL notification on the schema's outbox channel, which the
//! database delivers when (and only if) the transaction commits: a relay listening on it
//! publishes at once instead of at its next poll. Polling stays, as the safety net for a
//! notification lost with the listener's connection.

use std::{collections::HashMap, time::Duration};

use lapin::{
    BasicProperties, Channel,
    options::{BasicPublishOptions, ConfirmSelectOptions},
    types::{AMQPValue, FieldTable, LongString, ShortString},
};
use secrecy::{ExposeSecret, SecretString};
use serde::Serialize;
use sqlx::{PgConnection, PgPool, postgres::PgListener};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{
    amqp::{self, QueueSpec},
    config::Settings,
    telemetry,
};

#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error("outbox database error")]
    Database(#[from] sqlx::Error),
    #[error("event payload is not JSON")]
    Payload(#[from] serde_json::Error),
    #[error("broker error")]
    Broker(#[from] lapin::Error),
    #[error("broker refused message {0}")]
    Nacked(Uuid),
    #[error("no confirm for message {0} within {CONFIRM_TIMEOUT:?}: the channel is lost")]
    Unconfirmed(Uuid),
}

/// How long the broker's confirm of a published batch may take before the channel is taken
/// for lost ([`amqp::within`]): a confirm left pending would hold the batch's rows locked, and
/// no relay would publish them. Rolled back, they are published again.
const CONFIRM_TIMEOUT: Duration = Duration::from_secs(10);

/// Writes an event in the caller's transaction; it is published only if that transaction
/// commits. Returns the event's id, which is also the AMQP message id.
pub async fn enqueue(
    conn: &mut PgConnection,
    routing_key: &str,
    payload: &impl Serialize,
) -> Result<Uuid, OutboxError> {
    enqueue_with_id(conn, Uuid::now_v7(), routing_key, payload).await
}

/// [`enqueue`] with an id the caller chose, for messages that carry their own id in the body.
pub async fn enqueue_with_id(
    conn: &mut PgConnection,
    id: Uuid,
    routing_key: &str,
    payload: &impl Serialize,
) -> Result<Uuid, OutboxError> {
    let payload = serde_json::to_value(payload)?;
    let headers = serde_json::to_value(telemetry::current_context_headers())?;
    sqlx::query!(
        "insert into outbox_message (id, routing_key, payload, headers) values ($1, $2, $3, $4)",
        id,
        routing_key,
        payload,
        headers
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query("select pg_notify('kid_outbox_' || current_schema(), '')")
        .execute(conn)
        .await?;
    Ok(id)
}

/// Publishes a message again under the same id (and so the same AMQP message id): stamped
/// unpublished, the relay sends it once more. For a consumer that dedupes on the id and may
/// have lost it (support resending a game's order); `false` when there is no such message.
pub async fn publish_again(conn: &mut PgConnection, id: Uuid) -> Result<bool, OutboxError> {
    let updated = sqlx::query!("update outbox_message set published_at = null where id = $1", id)
        .execute(&mut *conn)
        .await?;
    sqlx::query("select pg_notify('kid_outbox_' || current_schema(), '')")
        .execute(conn)
        .await?;
    Ok(updated.rows_affected() == 1)
}

/// The listener on the relay's schema's outbox channel; `None` (polling only) if it cannot
/// be set up.
async fn listener(pool: &PgPool) -> Option<PgListener> {
    let setup = async || -> sqlx::Result<PgListener> {
        let schema: String = sqlx::query_scalar("select current_schema()")
            .fetch_one(pool)
            .await?;
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen(&format!("kid_outbox_{schema}")).await?;
        Ok(listener)
    };
    match setup().await {
        Ok(listener) => Some(listener),
        Err(error) => {
            tracing::warn!(error = %error, "outbox relay polls only: no notification listener");
            None
        }
    }
}

/// How long a relay woken by a notification waits before it publishes, so that the commits of
/// a busy moment go out in one batch (one claim, one stamp) rather than one by one.
const BATCH_WINDOW: Duration = Duration::from_millis(5);

/// Until the next notification on `listener` (and the batch window after it), or
/// `poll_interval`, whichever comes first.
async fn next_wake(listener: &mut Option<PgListener>, poll_interval: Duration) {
    let Some(active) = listener else {
        return tokio::time::sleep(poll_interval).await;
    };
    match tokio::time::timeout(poll_interval, active.try_recv()).await {
        // A notification or a lost connection (reconnected on the next call: publish in case
        // a notification went with it), or the poll interval: look at the table.
        Ok(Ok(Some(_))) => {
            tokio::time::sleep(BATCH_WINDOW).await;
            // The window's other notifications are for the same batch.
            while let Ok(Ok(Some(_))) = tokio::time::timeout(Duration::ZERO, active.try_recv()).await {}
        }
        Ok(Ok(None)) | Err(_) => {}
        Ok(Err(error)) => {
            tracing::warn!(error = %error, "outbox notification listener failed; polling only");
            *listener = None;
        }
    }
}

struct PendingMessage {
    id: Uuid,
    routing_key: String,
    payload: serde_json::Value,
    headers: sqlx::types::Json<HashMap<String, String>>,
}

/// Publishes committed outbox rows of one service schema to the events exchange.
#[derive(Clone)]
pub struct Relay {
    pool: PgPool,
    amqp_url: SecretString,
    exchange: String,
    batch_size: i64,
    poll_interval: Duration,
    queues: Vec<QueueSpec>,
}

impl Relay {
    pub fn new(pool: PgPool, settings: &Settings) -> Self {
        Self {
            pool,
            amqp_url: settings.amqp.url.clone(),
            exchange: settings.amqp.exchange.clone(),
            batch_size: settings.outbox.batch_size,
            poll_interval: settings.outbox.poll_interval,
            queues: Vec::new(),
        }
    }

    /// Queues declared (with their bindings) before anything is published, so the service's
    /// own consumers miss nothing it publishes before they first connect: the broker drops a
    /// message that no queue is bound for.
    pub fn declaring(mut self, queues: Vec<QueueSpec>) -> Self {
        self.queues = queues;
        self
    }

    /// Publishes until `shutdown`, reconnecting to the broker as needed. On shutdown it drains
    /// what is already committed (for a few seconds at most) before returning.
    pub async fn run(self, shutdown: CancellationToken) {
        let mut backoff = Duration::from_millis(200);
        loop {
            match self.open_channel().await {
                Ok(channel) => {
                    backoff = Duration::from_millis(200);
                    match self.pump(&channel, &shutdown).await {
                        Ok(()) => return,
                        Err(error) => tracing::warn!(error = %error, "outbox relay lost its channel"),
                    }
                }
                Err(error) => tracing::warn!(error = %error, "outbox relay cannot reach the broker"),
            }
            tokio::select! {
                () = tokio::time::sleep(backoff) => {}
                () = shutdown.cancelled() => return,
            }
            backoff = (backoff * 2).min(Duration::from_secs(10));
        }
    }

    async fn open_channel(&self) -> Result<Channel, OutboxError> {
        let connection = amqp::connect(self.amqp_url.expose_secret(), "kid-outbox-relay").await?;
        let channel = connection.create_channel().await?;
        channel.confirm_select(ConfirmSelectOptions::default()).await?;
        amqp::declare_exchanges(&channel, &self.exchange).await?;
        for queue in &self.queues {
            amqp::declare_queue(&channel, &self.exchange, queue).await?;
        }
        Ok(channel)
    }

    async fn pump(&self, channel: &Channel, shutdown: &CancellationToken) -> Result<(), OutboxError> {
        let mut listener = listener(&self.pool).await;
        loop {
            if shutdown.is_cancelled() {
                return tokio::time::timeout(Duration::from_secs(5), self.drain(channel))
                    .await
                    .unwrap_or(Ok(()));
            }
            if self.publish_batch(channel).await? == 0 {
                tokio::select! {
                    () = next_wake(&mut listener, self.poll_interval) => {}
                    () = shutdown.cancelled() => {}
                }
            }
        }
    }

    async fn drain(&self, channel: &Channel) -> Result<(), OutboxError> {
        while self.publish_batch(channel).await? > 0 {}
        Ok(())
    }

    /// Claims up to a batch of unpublished rows, publishes them, waits for every confirm, and
    /// stamps them in the same transaction that holds their locks.
    pub async fn publish_batch(&self, channel: &Channel) -> Result<usize, OutboxError> {
        let mut tx = self.pool.begin().await?;
        let pending = sqlx::query_as!(
            PendingMessage,
            r#"select id, routing_key, payload, headers as "headers: sqlx::types::Json<HashMap<String, String>>"
               from outbox_message
               where published_at is null
               order by created_at, id
               limit $1
               for update skip locked"#,
            self.batch_size
        )
        .fetch_all(&mut *tx)
        .await?;
        if pending.is_empty() {
            return Ok(0);
        }
        let mut confirms = Vec::with_capacity(pending.len());
        for message in &pending {
            let body = serde_json::to_vec(&message.payload)?;
            let confirm = channel
                .basic_publish(
                    self.exchange.as_str().into(),
                    message.routing_key.as_str().into(),
                    BasicPublishOptions::default(),
                    &body,
                    properties(message),
                )
                .await?;
            confirms.push((message.id, confirm));
        }
        for (id, confirm) in confirms {
            let confirmed = match amqp::within(CONFIRM_TIMEOUT, "confirm", confirm).await {
                Ok(confirmed) => confirmed,
                Err(amqp::Unanswered::Lost(..)) => return Err(OutboxError::Unconfirmed(id)),
                Err(amqp::Unanswered::Broker(error)) => return Err(error.into()),
            };
            if !confirmed.is_ack() {
                return Err(OutboxError::Nacked(id));
            }
        }
        let ids: Vec<Uuid> = pending.iter().map(|message| message.id).collect();
        sqlx::query!(
            "update outbox_message set published_at = now() where id = any($1)",
            &ids
        )
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        metrics::counter!("outbox_published_total").increment(ids.len() as u64);
        Ok(ids.len())
    }
}

fn properties(message: &PendingMessage) -> BasicProperties {
    let mut headers = FieldTable::default();
    for (key, value) in message.headers.iter() {
        headers.insert(
            ShortString::from(key.as_str()),
            AMQPValue::LongString(LongString::from(value.as_str())),
        );
    }
    BasicProperties::default()
        .with_message_id(message.id.to_string().into())
        .with_content_type("application/json".into())
        .with_delivery_mode(2)
        .with_headers(headers)
}
