//! The wallet's events, and what it does on them: after every credited top-up, and for every
//! player in the window once a day, the partner status is recalculated.

use std::time::Duration;

use kid_platform::{
    Settings,
    amqp::QueueSpec,
    inbox::{Consumer, Handler, HandlerError, HandlerFuture, Message},
    outbox::{self, OutboxError},
};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::ledger::{self, LedgerError};

pub const TOPUP_CREDITED: &str = "wallet.topup.credited";
pub const RECALCULATE_PARTNER: &str = "wallet.partner.recalculate";
const DAILY_JOB: &str = "partner-recalculation";
/// How often each replica tries to claim the day's recalculation.
const SCHEDULE_CHECK: Duration = Duration::from_secs(300);

/// Published once a top-up's KP reached the ledger.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TopupCredited<'a> {
    pub transaction_id: Uuid,
    pub user_id: Uuid,
    #[serde(rename = "type")]
    pub kind: &'a str,
    pub source: &'a str,
    pub amount_vnd: i64,
    pub kp: i64,
    pub bonus_kp: i64,
    pub debt_settled_kp: i64,
    #[serde(with = "time::serde::rfc3339")]
    pub credited_at: OffsetDateTime,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecalculatePartner {
    pub user_id: Uuid,
    pub reason: String,
}

/// What the recalculation needs of either event.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ForPlayer {
    user_id: Uuid,
}

pub async fn topup_credited(conn: &mut PgConnection, event: &TopupCredited<'_>) -> Result<(), OutboxError> {
    outbox::enqueue(conn, TOPUP_CREDITED, event).await.map(drop)
}

pub async fn recalculate_partner(
    conn: &mut PgConnection,
    user_id: Uuid,
    reason: &str,
) -> Result<(), OutboxError> {
    let event = RecalculatePartner {
        user_id,
        reason: reason.to_owned(),
    };
    outbox::enqueue(conn, RECALCULATE_PARTNER, &event).await.map(drop)
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
}

pub async fn consume_partner_recalculations(pool: PgPool, settings: Settings, shutdown: CancellationToken) {
    Consumer::new(pool, &settings, partner_queue(&settings))
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
