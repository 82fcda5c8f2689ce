//! At-least-once delivery taken at its word: while switched on, every event published on the
//! portal's exchange is delivered a second time, with the same message id, routing key and
//! body, as a broker does after a lost acknowledgement or a publisher after a crash between
//! its publish and its outbox commit. Every consumer must handle each event once all the same.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use kid_platform::{Settings, amqp};
use lapin::{
    BasicProperties,
    options::{BasicAckOptions, BasicConsumeOptions, BasicPublishOptions, ConfirmSelectOptions},
    types::{AMQPValue, FieldTable, ShortString},
};
use secrecy::ExposeSecret;
use tokio_util::sync::CancellationToken;

/// The header a copy carries, so it is not copied again.
const COPY: &str = "x-chaos-copy";
/// How long the broker may take to answer a publish, its confirm or an ack
/// ([`amqp::within`]).
const BROKER_ANSWER: Duration = Duration::from_secs(5);
/// How long connecting, opening a channel and declaring the tap may take together.
const REOPEN: Duration = Duration::from_secs(10);

/// Switches the duplication on and off, and counts the copies sent.
#[derive(Clone, Default)]
pub struct Duplicator {
    on: Arc<AtomicBool>,
    copies: Arc<AtomicU64>,
}

impl Duplicator {
    pub fn set(&self, on: bool) {
        self.on.store(on, Ordering::SeqCst);
    }

    pub fn copies(&self) -> u64 {
        self.copies.load(Ordering::SeqCst)
    }

    /// Declares its tap on every routing key now, then copies until `shutdown`, reconnecting
    /// when the broker goes away.
    pub async fn start(&self, settings: &Settings, shutdown: CancellationToken) -> anyhow::Result<()> {
        let queue = amqp::QueueSpec::new(format!("{}.chaos.duplicator", settings.amqp.exchange), &["#"])
            .configured(&settings.amqp);
        let (settings, this) = (settings.clone(), self.clone());
        let first = this.open(&settings, &queue).await?;
        tokio::spawn(async move {
            let mut channel = Some(first);
            while !shutdown.is_cancelled() {
                let open = match channel.take() {
                    Some(open) => Some(open),
                    // Bounded: a connection or declaration sent while the broker starts again
                    // may wait for an answer that never comes, and the duplicator with it. A
                    // broker that refuses (it is down) is simply tried again shortly.
                    None => match tokio::time::timeout(REOPEN, this.open(&settings, &queue)).await {
                        Ok(open) => open.ok(),
                        Err(_) => {
                            println!("  the duplicator had no channel within {REOPEN:?}: trying again");
                            None
                        }
                    },
                };
                // Said where the suite's report is read: a scenario that finds no copy says why.
                if let Some(open) = open
                    && let Err(error) = this
                        .copy(&open, &settings.amqp.exchange, &queue.name, &shutdown)
                        .await
                {
                    println!("  the duplicator lost the broker: {error:#}");
                }
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(500)) => {}
                    () = shutdown.cancelled() => return,
                }
            }
        });
        Ok(())
    }

    async fn open(&self, settings: &Settings, queue: &amqp::QueueSpec) -> anyhow::Result<lapin::Channel> {
        let connection = amqp::connect(settings.amqp.url.expose_secret(), "kid-chaos-duplicator").await?;
        let channel = connection.create_channel().await?;
        amqp::declare_queue(&channel, &settings.amqp.exchange, queue).await?;
        channel.confirm_select(ConfirmSelectOptions::default()).await?;
        Ok(channel)
    }

    async fn copy(
        &self,
        channel: &lapin::Channel,
        exchange: &str,
        queue: &str,
        shutdown: &CancellationToken,
    ) -> anyhow::Result<()> {
        let mut deliveries = channel
            .basic_consume(
                queue.into(),
                "kid-chaos-duplicator".into(),
                BasicConsumeOptions::default(),
                FieldTable::default(),
            )
            .await?;
        while let Some(delivery) = amqp::next_delivery(&mut deliveries, shutdown).await? {
            let headers = delivery.properties.headers().clone().unwrap_or_default();
            let is_copy = headers.inner().contains_key(&ShortString::from(COPY));
            if self.on.load(Ordering::SeqCst) && !is_copy {
                let mut marked = headers;
                marked.insert(COPY.into(), AMQPValue::Boolean(true));
                let properties: BasicProperties = delivery.properties.clone().with_headers(marked);
                let published = amqp::within(
                    BROKER_ANSWER,
                    "publish",
                    channel.basic_publish(
                        exchange.into(),
                        delivery.routing_key.as_str().into(),
                        BasicPublishOptions::default(),
                        &delivery.data,
                        properties,
                    ),
                )
                .await?;
                let confirm = amqp::within(BROKER_ANSWER, "confirm", published).await?;
                anyhow::ensure!(confirm.is_ack(), "the broker refused a copy");
                self.copies.fetch_add(1, Ordering::SeqCst);
            }
            amqp::within(BROKER_ANSWER, "ack", delivery.ack(BasicAckOptions::default())).await?;
        }
        Ok(())
    }
}
