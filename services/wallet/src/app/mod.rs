//! The ledger's operations, each on the caller's connection: the API wraps one in a
//! transaction it commits, an inbox handler runs it in the inbox's transaction, so the message
//! is marked handled in the same commit as the money it moved. Every operation first locks the
//! player's row, so a player's operations never interleave and a debit can never overspend;
//! each is keyed by the caller's idempotency key, and the same key again returns the first
//! result without moving money.

mod accounts;
mod adjustments;
mod corrections;
mod grants;
mod payments;
mod topups;

use std::{collections::HashMap, sync::Arc};

use serde_json::Value;
use sqlx::PgConnection;
use tokio::sync::OnceCell;
use uuid::Uuid;

pub use accounts::{AccountView, HistoryPageView, recalculate_partner};
pub use adjustments::{ADJUSTMENT, AdjustmentAsk};
pub use corrections::{Corrected, RecallOrder};
pub use grants::{GIFTCODE, Grant};
pub use payments::{CoinMetadata, Debit, Payment, Refund};
pub use topups::{Topup, TopupCredit, TopupType};

pub use crate::domain::Correction;
use crate::{
    db::{self, NewTransaction, PlayerRow, RelatedRow, SystemAccounts, TransactionRow},
    domain::TxStatus,
};

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("the balance does not cover the payment")]
    InsufficientBalance,
    #[error("{0}")]
    NotFound(&'static str),
    #[error("the idempotency key was used for a different request")]
    KeyReused,
    #[error("{0}")]
    Conflict(&'static str),
    #[error("{0}")]
    Invalid(&'static str),
    /// A staff member's ask refused on one of its fields; the message is the console's.
    #[error("{1}")]
    Rejected(&'static str, &'static str),
    /// A staff member may not do this (approve their own adjustment).
    #[error("{0}")]
    Forbidden(&'static str),
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] kid_platform::outbox::OutboxError),
}

pub type Result<T> = std::result::Result<T, LedgerError>;

/// A top-up or payment as the history shows it, with its related transactions.
#[derive(Debug, Clone)]
pub struct TransactionView {
    pub row: TransactionRow,
    pub related: Vec<RelatedRow>,
}

/// Operations are keyed per kind: the same caller's key names one top-up, one payment...
const TOPUP: &str = "topup";
const PAY: &str = "pay";
const REFUND: &str = "refund";
const RECALL: &str = "recall";
const GRANT: &str = "grant";

/// The ledger: the system accounts' ids, loaded once; everything else is in the database.
#[derive(Clone, Default)]
pub struct Ledger {
    system: Arc<OnceCell<SystemAccounts>>,
}

impl Ledger {
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of a system account, loaded once (on the caller's connection: a transaction
    /// holding one must not wait for a second).
    async fn system(&self, conn: &mut PgConnection, purpose: &str) -> Result<i64> {
        let accounts = self.system.get_or_try_init(|| SystemAccounts::load(conn)).await?;
        Ok(accounts.get(purpose)?)
    }
}

/// A KP transaction related to a top-up or payment, keyed when it is the operation itself
/// (a refund, a correction) rather than a part of one.
struct Related<'a> {
    parent: Uuid,
    kind: &'a str,
    amount: i64,
    payload: Value,
    key: Option<(&'a str, &'a str)>,
}

impl<'a> Related<'a> {
    fn new(parent: Uuid, kind: &'a str, amount: i64, payload: Value) -> Self {
        Self {
            parent,
            kind,
            amount,
            payload,
            key: None,
        }
    }

    fn keyed(mut self, operation: &'a str, key: &'a str) -> Self {
        self.key = Some((operation, key));
        self
    }
}

async fn insert_related(tx: &mut PgConnection, player: &PlayerRow, related: Related<'_>) -> Result<Uuid> {
    db::insert_transaction(
        tx,
        NewTransaction {
            user_id: player.user_id,
            kind: related.kind,
            status: TxStatus::Success,
            real_value: related.amount,
            currency: "KP",
            payload: related.payload,
            parent_id: Some(related.parent),
            key: related.key,
        },
    )
    .await?
    .map(|row| row.id)
    .ok_or(LedgerError::KeyReused)
}

/// A related transaction moving its amount from a system account to the player's balance.
async fn credit_from_system(
    tx: &mut PgConnection,
    player: &PlayerRow,
    related: Related<'_>,
    from: i64,
) -> Result<Uuid> {
    let amount = related.amount;
    let id = insert_related(tx, player, related).await?;
    db::post(tx, id, &[(from, -amount), (player.kp_account_id, amount)]).await?;
    Ok(id)
}

async fn keyed(tx: &mut PgConnection, operation: &str, key: &str) -> Result<TransactionRow> {
    db::find_keyed(tx, operation, key)
        .await?
        .ok_or(LedgerError::Database(sqlx::Error::RowNotFound))
}

/// The transaction `id` as the history shows it.
async fn view(conn: &mut PgConnection, id: Uuid) -> Result<TransactionView> {
    let row = db::find_transaction(conn, id)
        .await?
        .ok_or(LedgerError::Database(sqlx::Error::RowNotFound))?;
    let mut found = views(conn, vec![row]).await?;
    found.pop().ok_or(LedgerError::Database(sqlx::Error::RowNotFound))
}

async fn views(conn: &mut PgConnection, rows: Vec<TransactionRow>) -> Result<Vec<TransactionView>> {
    let ids: Vec<Uuid> = rows.iter().map(|row| row.id).collect();
    let mut related: HashMap<Uuid, Vec<RelatedRow>> = HashMap::new();
    for row in db::related(conn, &ids).await? {
        related.entry(row.parent_id).or_default().push(row);
    }
    Ok(rows
        .into_iter()
        .map(|row| {
            let related = related.remove(&row.id).unwrap_or_default();
            TransactionView { row, related }
        })
        .collect())
}
