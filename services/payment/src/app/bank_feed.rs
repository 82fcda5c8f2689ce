//! The bank feed's webhook: incoming transfers to our bank and e-wallet accounts, from the
//! provider the publisher signed with (`domain::bank_feed`). Each is verified by the provider's
//! credential before its body is read, recorded whatever
//! it holds, deduplicated on the provider's id, matched to a player by the transfer content,
//! and a matched one is handed to the wallet through the outbox.

use kid_contracts::topics::{self, TopupReceived};
use kid_platform::outbox;
use serde_json::Value;
use sqlx::PgPool;

use crate::{
    app,
    db::{
        self,
        bank_feed::{Record, TransferFields},
    },
    domain::{
        TransferStatus,
        bank_feed::{IncomingTransfer, Verified},
        card::kp_for_transfer,
    },
    events,
};

#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("malformed transfer notification: {0}")]
    Malformed(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] outbox::OutboxError),
}

/// Why a transfer paid into an account that is not ours is kept: never credited to a player.
pub const NOT_OUR_ACCOUNT: &str = "not one of our accounts";

/// What became of a notification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Receipt {
    /// Matched to a player; the wallet credits it.
    Credited,
    /// Kept for support: no player's content, an unknown bank or account, or not incoming.
    Kept,
    /// This provider id was received before; nothing was done.
    Duplicate,
}

fn fields(transfer: &IncomingTransfer) -> TransferFields<'_> {
    TransferFields {
        transaction_date: &transfer.transaction_date,
        account_number: &transfer.account_number,
        content: &transfer.content,
        transfer_type: if transfer.incoming { "in" } else { "out" },
        amount_vnd: transfer.amount_vnd,
        reference_code: transfer.reference_code.as_deref(),
    }
}

/// Verifies, records and, when it matches a player, credits one notification. A malformed body
/// is recorded and refused; everything else answers Ok so the feed stops resending it.
pub async fn receive(pool: &PgPool, notification: Verified<'_>) -> Result<Receipt, FeedError> {
    let received_at = time::OffsetDateTime::now_utc();
    let body = notification.body();
    let raw = String::from_utf8_lossy(body);
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(error) => return Err(keep_malformed(pool, None, &raw, &error.to_string()).await),
    };
    let transfer = match notification.read(&value) {
        Ok(transfer) => transfer,
        Err(reason) => return Err(keep_malformed(pool, Some(&value), &raw, &reason).await),
    };
    let provider_id = &transfer.provider_id;
    let transfer = &transfer;
    let value = &value;
    let mut tx = pool.begin().await?;

    let method = db::methods::transfer_method(&mut tx, &transfer.gateway).await?;
    let user_id = app::methods::player_for_content(&mut tx, &transfer.content).await?;
    let kind = method.as_ref().map(|method| method.kind.as_str());
    let (status, reason) = if !transfer.incoming {
        (TransferStatus::Ignored, Some("not an incoming transfer"))
    } else if transfer.amount_vnd <= 0 {
        (TransferStatus::Unmatched, Some("amount is not positive"))
    } else if method.is_none() {
        (TransferStatus::Unmatched, Some("unknown bank or e-wallet"))
    } else if method.as_ref().is_some_and(|method| {
        // Paid into our account, or into one of our virtual accounts inside another.
        !method.is_account(&transfer.account_number)
            && !transfer
                .sub_account
                .as_deref()
                .is_some_and(|sub| method.is_account(sub))
    }) {
        (TransferStatus::Unmatched, Some(NOT_OUR_ACCOUNT))
    } else if user_id.is_none() {
        (TransferStatus::Unmatched, Some("no player's transfer content"))
    } else {
        (TransferStatus::Credited, None)
    };
    let inserted = db::bank_feed::insert(
        &mut tx,
        Record {
            provider_id: Some(provider_id),
            transfer: Some(fields(transfer)),
            body: Some(value),
            raw: &raw,
            method_code: method.as_ref().map(|method| method.code.as_str()),
            user_id: user_id.filter(|_| status == TransferStatus::Credited),
            status,
            reason,
        },
    )
    .await?;
    if !inserted {
        return Ok(Receipt::Duplicate);
    }
    let (Some(method), Some(user_id), TransferStatus::Credited) = (&method, user_id, status) else {
        tx.commit().await?;
        tracing::warn!(%provider_id, ?reason, "bank-feed transfer kept for support");
        return Ok(Receipt::Kept);
    };
    let kp = kp_for_transfer(transfer.amount_vnd, method.rate())
        .ok_or_else(|| FeedError::Malformed("amount too large".into()))?;
    let event = TopupReceived {
        idempotency_key: events::bank_feed_topup_key(provider_id),
        user_id,
        topup_type: kind.unwrap_or(topics::BANK_TRANSFER).to_owned(),
        source: method.code.clone(),
        amount_vnd: transfer.amount_vnd,
        kp,
        card_serial: String::new(),
        error_code: String::new(),
        received_at: Some(received_at),
    };
    outbox::enqueue(&mut tx, topics::TOPUP_RECEIVED, &event).await?;
    tx.commit().await?;
    events::topup_received(&event.topup_type);
    tracing::info!(%provider_id, %user_id, amount_vnd = transfer.amount_vnd, kp, "bank-feed transfer matched");
    Ok(Receipt::Credited)
}

/// Records a notification that cannot be read as a transfer, and says why it was refused.
async fn keep_malformed(pool: &PgPool, body: Option<&Value>, raw: &str, reason: &str) -> FeedError {
    let mut conn = match pool.acquire().await {
        Ok(conn) => conn,
        Err(error) => return error.into(),
    };
    let kept = Record {
        provider_id: None,
        transfer: None,
        body,
        raw,
        method_code: None,
        user_id: None,
        status: TransferStatus::Malformed,
        reason: Some(reason),
    };
    if let Err(error) = db::bank_feed::insert(&mut conn, kept).await {
        return error.into();
    }
    tracing::warn!(reason, "malformed bank-feed notification kept for support");
    FeedError::Malformed(reason.to_owned())
}
