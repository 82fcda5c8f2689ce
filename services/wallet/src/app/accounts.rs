//! What a player's wallet shows: the balance, debt and partner figures, and the history; and
//! the partner status recalculated from the window.

use kid_contracts::messages::history::MSG_NOT_FOUND;
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{Ledger, LedgerError, Result, TransactionView, views};
use crate::{
    db,
    domain::{Kp, PartnerStatus, Vnd},
};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AccountView {
    pub credit: Kp,
    pub debt: Kp,
    pub is_pay_partner: bool,
    pub partner_bonus_bps: i32,
    pub pay_amount_last_28_days: Vnd,
}

const MAX_HISTORY: i64 = 100;
const DEFAULT_HISTORY: i64 = 10;
/// The largest page of the full history: the REST API's 100, and the CSV export's batches.
const MAX_PAGE: i64 = 1_000;

/// A page of the full history and where the next one starts (`None` after the last).
#[derive(Debug, Clone)]
pub struct HistoryPageView {
    pub transactions: Vec<TransactionView>,
    pub next: Option<(OffsetDateTime, Uuid)>,
}

impl Ledger {
    pub async fn account(&self, conn: &mut PgConnection, user_id: Uuid) -> Result<AccountView> {
        Ok(db::find_player(conn, user_id)
            .await?
            .map(|player| AccountView {
                credit: player.balance(),
                debt: player.debt(),
                is_pay_partner: player.is_pay_partner,
                partner_bonus_bps: player.partner_bonus_bps,
                pay_amount_last_28_days: Vnd::parse(player.pay_amount_last_28_days).unwrap_or_default(),
            })
            .unwrap_or_default())
    }

    /// The latest `limit` top-ups and payments (the spec's 10 when `limit` is not positive).
    pub async fn history(
        &self,
        conn: &mut PgConnection,
        user_id: Uuid,
        limit: i64,
    ) -> Result<Vec<TransactionView>> {
        let limit = if limit > 0 {
            limit.min(MAX_HISTORY)
        } else {
            DEFAULT_HISTORY
        };
        let rows = db::history(conn, user_id, limit).await?;
        views(conn, rows).await
    }

    /// A page of the full history, newest created first (`page.limit` clamped to 1..=1000).
    pub async fn history_page(
        &self,
        conn: &mut PgConnection,
        page: db::HistoryPage<'_>,
    ) -> Result<HistoryPageView> {
        let limit = page.limit.clamp(1, MAX_PAGE);
        // One more than the page: whether it exists says whether there is a next page.
        let mut rows = db::history_page(
            conn,
            &db::HistoryPage {
                limit: limit + 1,
                ..page
            },
        )
        .await?;
        let more = rows.len() as i64 > limit;
        rows.truncate(limit as usize);
        let next = more
            .then(|| rows.last().map(|row| (row.created_at, row.id)))
            .flatten();
        Ok(HistoryPageView {
            transactions: views(conn, rows).await?,
            next,
        })
    }

    /// One of the player's top-ups or payments, as the history shows it.
    pub async fn history_entry(
        &self,
        conn: &mut PgConnection,
        user_id: Uuid,
        id: Uuid,
    ) -> Result<TransactionView> {
        let row = db::find_history_entry(conn, user_id, id)
            .await?
            .ok_or(LedgerError::NotFound(MSG_NOT_FOUND))?;
        let mut found = views(conn, vec![row]).await?;
        found.pop().ok_or(LedgerError::NotFound(MSG_NOT_FOUND))
    }
}

/// Recalculates one player's partner status from the window as it is now, and stores it.
pub async fn recalculate_partner(conn: &mut PgConnection, user_id: Uuid) -> Result<Option<PartnerStatus>> {
    let Some(player) = db::lock_player(conn, user_id).await? else {
        return Ok(None);
    };
    let window = db::topup_window(conn, user_id).await?;
    let status = PartnerStatus::recalculate(player.is_pay_partner, window);
    db::store_partner_status(
        conn,
        user_id,
        status.is_partner,
        status.rate.bps(),
        status.pay_amount_last_28_days,
    )
    .await?;
    Ok(Some(status))
}
