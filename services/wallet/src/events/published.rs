//! What the wallet publishes, through its outbox in the transaction that decides it.

use kid_platform::outbox::{self, OutboxError};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

pub const TOPUP_CREDITED: &str = "wallet.topup.credited";
pub const RECALCULATE_PARTNER: &str = "wallet.partner.recalculate";

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
