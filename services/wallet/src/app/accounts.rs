//! What a player's wallet shows: the balance, debt and partner figures, and the history; and
//! the partner status recalculated from the window.

use sqlx::PgConnection;
use uuid::Uuid;

use super::{Ledger, Result, TransactionView, views};
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
