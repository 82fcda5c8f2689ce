//! The game the suite runs in place of the reference game: it speaks the game contract over
//! AMQP, keeps its own coin ledger (schema `game` of the run's database) and relies on the
//! platform's inbox to grant each order once, as a game team following docs/game-contract
//! would. Each scenario may make it misbehave: answer twice, answer late (after the order's
//! deadline, so for a refunded order), or never answer.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU8, Ordering},
    },
    time::Duration,
};

use kid_contracts::game::{GameOrder, GameResult};
use kid_platform::{
    Settings, amqp,
    inbox::{Consumer, Handler, HandlerError, HandlerFuture, Message},
};
use kid_recharge::reference_game;
use lapin::{Channel, options::ConfirmSelectOptions};
use secrecy::ExposeSecret;
use sqlx::{PgConnection, PgPool};
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// How the game answers the orders it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Answering {
    /// At once, once.
    Promptly = 0,
    /// At once, then again with a new message id.
    Twice = 1,
    /// After [`LATE_BY`]: past the order's deadline, when the order was already refunded.
    Late = 2,
    /// Never: the deadline refunds the order.
    Never = 3,
}

/// How late a late answer comes: past the deadline the suite gives the portal.
pub const LATE_BY: Duration = Duration::from_secs(6);

/// The schema of the game's own tables.
pub const SCHEMA: &str = "game";

/// The game's switch between behaviours, shared with the scenario that sets it.
#[derive(Clone, Default)]
pub struct Behaviour(Arc<AtomicU8>);

impl Behaviour {
    pub fn set(&self, answering: Answering) {
        self.0.store(answering as u8, Ordering::SeqCst);
    }

    fn get(&self) -> Answering {
        match self.0.load(Ordering::SeqCst) {
            1 => Answering::Twice,
            2 => Answering::Late,
            3 => Answering::Never,
            _ => Answering::Promptly,
        }
    }
}

/// The game's answers go out on one confirmed channel, opened again after a failure.
#[derive(Clone)]
struct Answers {
    settings: Settings,
    channel: Arc<Mutex<Option<Channel>>>,
}

impl Answers {
    async fn send(&self, order: &GameOrder, result: &GameResult) -> anyhow::Result<()> {
        let mut channel = self.channel.lock().await;
        if channel.is_none() {
            let connection = amqp::connect(self.settings.amqp.url.expose_secret(), "kid-chaos-game").await?;
            let opened = connection.create_channel().await?;
            opened.confirm_select(ConfirmSelectOptions::default()).await?;
            *channel = Some(opened);
        }
        let sent = match channel.as_ref() {
            Some(open) => {
                reference_game::publish_result(
                    open,
                    &self.settings.amqp.exchange,
                    &order.product_code,
                    result,
                )
                .await
            }
            None => Err(anyhow::anyhow!("no channel")),
        };
        if sent.is_err() {
            *channel = None;
        }
        sent
    }

    /// Sends `result` after `delay`, trying again for a minute while the broker is away.
    fn send_later(&self, order: GameOrder, result: GameResult, delay: Duration) {
        let answers = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            for _ in 0..60 {
                if answers.send(&order, &result).await.is_ok() {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            tracing::error!(order_id = %order.order_id, "chaos game: a late answer was never sent");
        });
    }
}

struct Game {
    behaviour: Behaviour,
    answers: Answers,
}

impl Handler for Game {
    fn handle<'a>(&'a self, conn: &'a mut PgConnection, message: &'a Message) -> HandlerFuture<'a> {
        Box::pin(async move {
            let order: GameOrder = message.json()?;
            let answering = self.behaviour.get();
            let result = reference_game::answer(&order);
            sqlx::query("insert into taken (order_id, message_id, answering) values ($1, $2, $3)")
                .bind(order.order_id)
                .bind(&message.id)
                .bind(format!("{answering:?}"))
                .execute(&mut *conn)
                .await?;
            if answering == Answering::Never {
                return Ok(());
            }
            // As the contract asks: an order past its deadline was refunded, so it is not
            // delivered (only the late game, on purpose, delivers it all the same).
            let result = if answering != Answering::Late && time::OffsetDateTime::now_utc() > order.deliver_by
            {
                GameResult {
                    status: kid_contracts::game::Delivery::Failed,
                    reason: "received after its deadline".into(),
                    ..result
                }
            } else {
                result
            };
            if result.status == kid_contracts::game::Delivery::Delivered {
                // A game's own ledger: no constraint of its own, the inbox grants once.
                sqlx::query("insert into coin_grant (order_id, coins) values ($1, $2)")
                    .bind(order.order_id)
                    .bind(order.total_coins)
                    .execute(&mut *conn)
                    .await?;
            }
            let transient = |error: anyhow::Error| HandlerError::Transient(error.to_string());
            match answering {
                Answering::Promptly => self.answers.send(&order, &result).await.map_err(transient)?,
                Answering::Twice => {
                    self.answers.send(&order, &result).await.map_err(transient)?;
                    let again = GameResult {
                        message_id: Uuid::now_v7().to_string(),
                        ..result
                    };
                    self.answers.send(&order, &again).await.map_err(transient)?;
                }
                Answering::Late => self.answers.send_later(order, result, LATE_BY),
                Answering::Never => {}
            }
            Ok(())
        })
    }

    fn ordering_key(&self, message: &Message) -> Option<Vec<u8>> {
        let order: GameOrder = message.json().ok()?;
        Some(order.order_id.as_bytes().to_vec())
    }
}

/// Creates the game's tables and starts consuming every product's orders until `shutdown`.
/// `settings.testing.skip_inbox_dedupe` breaks its dedupe, as the suite's broken scenario does.
pub async fn start(
    settings: &Settings,
    behaviour: Behaviour,
    shutdown: CancellationToken,
) -> anyhow::Result<PgPool> {
    let pool = kid_platform::db::connect(&settings.database, SCHEMA).await?;
    kid_platform::db::migrate(
        &pool,
        SCHEMA,
        &sqlx::migrate::Migrator::with_migrations(Vec::new()),
    )
    .await?;
    for statement in [
        "create table if not exists taken (order_id uuid not null, message_id text not null,
           answering text not null, taken_at timestamptz not null default now())",
        "create table if not exists coin_grant (order_id uuid not null, coins bigint not null,
           granted_at timestamptz not null default now())",
    ] {
        sqlx::query(statement).execute(&pool).await?;
    }
    let queue = amqp::QueueSpec::new(
        format!("{}.game.chaos", settings.amqp.exchange),
        &[kid_contracts::game::ALL_ORDERS],
    );
    // Declared now, so no order published from here on is missed.
    let connection = amqp::connect(settings.amqp.url.expose_secret(), "kid-chaos-game").await?;
    let channel = connection.create_channel().await?;
    amqp::declare_queue(
        &channel,
        &settings.amqp.exchange,
        &queue.clone().configured(&settings.amqp),
    )
    .await?;
    let game = Game {
        behaviour,
        answers: Answers {
            settings: settings.clone(),
            channel: Arc::new(Mutex::new(None)),
        },
    };
    let consumer = Consumer::new(pool.clone(), settings, queue)
        .with_lanes(4)
        .with_retry_base(Duration::from_millis(100));
    tokio::spawn(consumer.run(game, shutdown));
    Ok(pool)
}
