//! What the wallet does on events: credits and corrects top-ups from the payment service,
//! settles and refunds coin payments from the recharge service, and recalculates partner
//! status after every credited top-up and, once a day, for every player in the window.

use std::time::Duration;

use kid_contracts::topics::{
    self, PaymentRefund, PaymentSettled, TopupCorrected, TopupFailed, TopupOpened, TopupReceived,
};
use kid_platform::{
    Settings,
    amqp::QueueSpec,
    inbox::{Consumer, Handler, HandlerError, HandlerFuture, Message},
};
use serde::Deserialize;
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::published::{RECALCULATE_PARTNER, TOPUP_CREDITED, recalculate_partner};
use crate::{
    app::{self as ledger, LedgerError},
    domain::{Kp, TxStatus, Vnd},
};

const DAILY_JOB: &str = "partner-recalculation";
/// How often each replica tries to claim the day's recalculation.
const SCHEDULE_CHECK: Duration = Duration::from_secs(300);

/// What the recalculation needs of either event.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ForPlayer {
    user_id: Uuid,
}

/// The queue of partner recalculations. Named after the exchange, so deployments (and test
/// runs) sharing a broker keep their own.
pub fn partner_queue(settings: &Settings) -> QueueSpec {
    QueueSpec::new(
        format!("{}.wallet.partner-recalculation", settings.amqp.exchange),
        &[TOPUP_CREDITED, RECALCULATE_PARTNER],
    )
}

struct PartnerRecalculation;

impl Handler for PartnerRecalculation {
    fn handle<'a>(&'a self, conn: &'a mut PgConnection, message: &'a Message) -> HandlerFuture<'a> {
        Box::pin(async move {
            let ForPlayer { user_id } = message.json()?;
            match ledger::recalculate_partner(conn, user_id).await {
                Ok(status) => {
                    if let Some(status) = status {
                        tracing::info!(%user_id, is_partner = status.is_partner, bonus_bps = status.rate.bps(), "partner status recalculated");
                    }
                    Ok(())
                }
                Err(LedgerError::Database(error)) => Err(error.into()),
                Err(error) => Err(HandlerError::Transient(error.to_string())),
            }
        })
    }

    fn ordering_key(&self, message: &Message) -> Option<Vec<u8>> {
        player_key(message)
    }
}

pub async fn consume_partner_recalculations(pool: PgPool, settings: Settings, shutdown: CancellationToken) {
    Consumer::new(pool, &settings, partner_queue(&settings))
        .with_lanes(2)
        .run(PartnerRecalculation, shutdown)
        .await;
}

/// Claims today's recalculation and asks for one per player whose figures the sliding window
/// can change. Several replicas may call it at once: exactly one claims the day, and the claim
/// and the requests commit together, so a replica that dies half-way leaves the day unclaimed.
/// Returns how many players were asked for, or `None` when the day was already claimed.
pub async fn schedule_daily_recalculation(pool: &PgPool) -> Result<Option<usize>, LedgerError> {
    let mut tx = pool.begin().await?;
    if !crate::db::claim_daily_run(&mut tx, DAILY_JOB).await? {
        return Ok(None);
    }
    let players = crate::db::players_in_window(&mut tx).await?;
    for user_id in &players {
        recalculate_partner(&mut tx, *user_id, "daily").await?;
    }
    tx.commit().await?;
    tracing::info!(players = players.len(), "daily partner recalculation scheduled");
    Ok(Some(players.len()))
}

pub async fn run_daily_schedule(pool: PgPool, shutdown: CancellationToken) {
    loop {
        if let Err(error) = schedule_daily_recalculation(&pool).await {
            tracing::warn!(error = %error, "daily partner recalculation not scheduled; will retry");
        }
        tokio::select! {
            () = tokio::time::sleep(SCHEDULE_CHECK) => {}
            () = shutdown.cancelled() => return,
        }
    }
}

/// Applies other services' decisions to the ledger, each in the inbox's transaction: the
/// money moves in the same commit that marks the message handled. Each carries the ledger's
/// idempotency key, so a redelivery, or a message the inbox missed, moves nothing twice.
struct LedgerEvents {
    ledger: ledger::Ledger,
}

fn topup_type(value: &str) -> Result<ledger::TopupType, HandlerError> {
    match value {
        topics::BANK_TRANSFER => Ok(ledger::TopupType::BankTransfer),
        topics::E_WALLET => Ok(ledger::TopupType::EWallet),
        topics::CARD => Ok(ledger::TopupType::Card),
        other => Err(HandlerError::Permanent(format!("unknown top-up type {other}"))),
    }
}

fn amount<T>(parsed: Option<T>, what: &str) -> Result<T, HandlerError> {
    parsed.ok_or_else(|| HandlerError::Permanent(format!("{what} is negative")))
}

/// A redelivery may succeed where the database or broker failed; a refusal will not.
impl From<LedgerError> for HandlerError {
    fn from(error: LedgerError) -> Self {
        match error {
            LedgerError::Database(_) | LedgerError::Outbox(_) | LedgerError::NotFound(_) => {
                HandlerError::Transient(error.to_string())
            }
            LedgerError::InsufficientBalance
            | LedgerError::KeyReused
            | LedgerError::Conflict(_)
            | LedgerError::Invalid(_)
            | LedgerError::Rejected(..)
            | LedgerError::Forbidden(_) => HandlerError::Permanent(error.to_string()),
        }
    }
}

/// The top-up an event names: `payment.topup.opened` and `.received` name its parts alike.
macro_rules! topup {
    ($event:expr) => {
        ledger::Topup {
            key: $event.idempotency_key,
            user_id: $event.user_id,
            kind: topup_type(&$event.topup_type)?,
            source: $event.source,
            amount: amount(Vnd::parse($event.amount_vnd), "amountVnd")?,
            serial: $event.card_serial,
        }
    };
}

impl LedgerEvents {
    /// The payment service's top-ups: opened, credited, failed or corrected.
    async fn topup(&self, conn: &mut PgConnection, message: &Message) -> Result<(), HandlerError> {
        match message.routing_key.as_str() {
            topics::TOPUP_OPENED => {
                let event: TopupOpened = message.json()?;
                self.ledger.open_topup(conn, &topup!(event)).await?;
            }
            topics::TOPUP_RECEIVED => {
                let event: TopupReceived = message.json()?;
                let received_at = event.received_at;
                let credit = ledger::TopupCredit {
                    kp: amount(Kp::parse(event.kp), "kp")?,
                    error_code: event.error_code,
                    topup: topup!(event),
                };
                let credited = self.ledger.credit(conn, &credit).await?;
                tracing::info!(transaction_id = %credited.row.id, user_id = %credit.topup.user_id, kp = credit.kp.get(), "top-up credited");
                // The top-up SLO's good events: credited within 60 s of the money reaching us.
                if let Some(received_at) = received_at {
                    let delay = (time::OffsetDateTime::now_utc() - received_at)
                        .as_seconds_f64()
                        .max(0.0);
                    metrics::histogram!("wallet_topup_credit_delay_seconds").record(delay);
                }
            }
            topics::TOPUP_FAILED => {
                let event: TopupFailed = message.json()?;
                self.ledger
                    .fail_topup(conn, &event.idempotency_key, event.user_id, &event.error_code)
                    .await?;
            }
            topics::TOPUP_CORRECTED => {
                let event: TopupCorrected = message.json()?;
                let correction = ledger::Correction {
                    key: event.idempotency_key,
                    topup_key: event.topup_key,
                    user_id: event.user_id,
                    kp: amount(Kp::parse(event.kp), "kp")?,
                    corrected_amount: Vnd::parse(event.corrected_amount_vnd),
                };
                match self.ledger.correct(conn, &correction).await? {
                    ledger::Corrected::Recalled { debt_added } => {
                        tracing::warn!(
                            topup_key = correction.topup_key,
                            kp = correction.kp.get(),
                            debt_added = debt_added.get(),
                            "card top-up recalled"
                        );
                    }
                    ledger::Corrected::Held => {
                        tracing::warn!(
                            topup_key = correction.topup_key,
                            kp = correction.kp.get(),
                            "correction arrived before its credit; held"
                        );
                    }
                }
            }
            other => return Err(HandlerError::Permanent(format!("unexpected routing key {other}"))),
        }
        Ok(())
    }

    /// The recharge service's decisions on coin payments: settled when the game delivered,
    /// refunded when it failed or never answered. The refund carries its own idempotency key,
    /// so a redelivery gives nothing back twice.
    async fn coin_payment(&self, conn: &mut PgConnection, message: &Message) -> Result<(), HandlerError> {
        match message.routing_key.as_str() {
            topics::PAYMENT_SETTLED => {
                let event: PaymentSettled = message.json()?;
                let payment = self
                    .ledger
                    .settle_payment(conn, event.user_id, event.transaction_id)
                    .await?;
                if payment.row.status == TxStatus::Failed {
                    tracing::warn!(order_id = %event.order_id, transaction_id = %event.transaction_id, "delivery reported for a refunded payment; kept refunded");
                }
            }
            topics::PAYMENT_REFUND => {
                let event: PaymentRefund = message.json()?;
                let refund = ledger::Refund {
                    key: event.idempotency_key,
                    user_id: event.user_id,
                    payment_id: event.transaction_id,
                };
                self.ledger.refund(conn, &refund).await?;
                tracing::info!(order_id = %event.order_id, transaction_id = %event.transaction_id, reason = %event.reason, "coin payment refunded");
            }
            other => return Err(HandlerError::Permanent(format!("unexpected routing key {other}"))),
        }
        Ok(())
    }
}

/// Every event names its player: one player's events are applied in order, different
/// players' at once.
fn player_key(message: &Message) -> Option<Vec<u8>> {
    let ForPlayer { user_id } = message.json().ok()?;
    Some(user_id.as_bytes().to_vec())
}

impl Handler for LedgerEvents {
    fn handle<'a>(&'a self, conn: &'a mut PgConnection, message: &'a Message) -> HandlerFuture<'a> {
        Box::pin(async move {
            if message.routing_key.starts_with("payment.topup.") {
                self.topup(conn, message).await
            } else {
                self.coin_payment(conn, message).await
            }
        })
    }

    fn ordering_key(&self, message: &Message) -> Option<Vec<u8>> {
        player_key(message)
    }
}

/// How many players' ledger events the wallet applies at once, per queue: each holds a
/// connection of the pool (10) while it runs, and the gRPC calls need the rest.
const LEDGER_LANES: usize = 4;

/// Applies the events of `queue` (the top-ups, or the coin payments) to the ledger until shutdown.
pub async fn consume_ledger_events(
    pool: PgPool,
    ledger: ledger::Ledger,
    settings: Settings,
    queue: QueueSpec,
    shutdown: CancellationToken,
) {
    Consumer::new(pool, &settings, queue)
        .with_lanes(LEDGER_LANES)
        .run(LedgerEvents { ledger }, shutdown)
        .await;
}
