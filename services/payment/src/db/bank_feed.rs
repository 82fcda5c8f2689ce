//! What the bank feed sent, kept whatever became of it.

use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::TransferStatus;

/// One notification as recorded; the transfer's fields are absent for a malformed body.
pub struct Record<'a> {
    pub provider_id: Option<&'a str>,
    pub transfer: Option<TransferFields<'a>>,
    pub body: Option<&'a Value>,
    pub raw: &'a str,
    pub method_code: Option<&'a str>,
    pub user_id: Option<Uuid>,
    pub status: TransferStatus,
    pub reason: Option<&'a str>,
}

/// The fields of a notification that could be read as a transfer.
#[derive(Clone, Copy)]
pub struct TransferFields<'a> {
    pub transaction_date: &'a str,
    pub account_number: &'a str,
    pub content: &'a str,
    pub transfer_type: &'a str,
    pub amount_vnd: i64,
    pub reference_code: Option<&'a str>,
}

/// Inserts the record; false when its provider id is already recorded.
pub async fn insert(conn: &mut PgConnection, record: Record<'_>) -> Result<bool, sqlx::Error> {
    let transfer = record.transfer;
    let inserted = sqlx::query!(
        "insert into bank_feed_record (id, provider_id, method_code, transaction_date, account_number,
             content, transfer_type, amount_vnd, reference_code, body, raw_body, user_id, status, reason)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         on conflict (provider_id) do nothing",
        Uuid::now_v7(),
        record.provider_id,
        record.method_code,
        transfer.map(|t| t.transaction_date),
        transfer.map(|t| t.account_number),
        transfer.map(|t| t.content),
        transfer.map(|t| t.transfer_type),
        transfer.map(|t| t.amount_vnd),
        transfer.and_then(|t| t.reference_code),
        record.body,
        record.raw,
        record.user_id,
        record.status as TransferStatus,
        record.reason
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(inserted == 1)
}
