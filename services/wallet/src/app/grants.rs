//! Giftcodes: KP a campaign gives a player, from the giftcode system account, as a top-level
//! `giftcode` transaction. Nothing is bought, so no partner bonus is earned and the 28-day sum
//! does not move; the KP reach the balance whole (debt is settled by top-ups only).

use serde_json::json;
use sqlx::PgConnection;
use uuid::Uuid;

use super::{GRANT, Ledger, LedgerError, Result, TransactionView, view};
use crate::{
    db::{self, NewTransaction},
    domain::{Kp, TxStatus},
};

/// The transaction type, which is also the name of the system account the KP come from.
pub const GIFTCODE: &str = "giftcode";

/// A giftcode's KP for a player, keyed by the redemption's id.
#[derive(Debug, Clone)]
pub struct Grant {
    pub key: String,
    pub user_id: Uuid,
    pub kp: Kp,
    pub campaign: String,
}

impl Ledger {
    /// Gives the grant's KP once: the same key again returns the first grant, and a key that
    /// gave another player or amount is refused as reused.
    pub async fn grant(&self, tx: &mut PgConnection, grant: &Grant) -> Result<TransactionView> {
        if grant.kp.is_zero() {
            return Err(LedgerError::Invalid("a grant gives a positive amount"));
        }
        let player = db::lock_or_create_player(tx, grant.user_id).await?;
        if let Some(first) = db::find_keyed(tx, GRANT, &grant.key).await? {
            return if first.user_id == grant.user_id && first.real_value == grant.kp.get() {
                view(tx, first.id).await
            } else {
                Err(LedgerError::KeyReused)
            };
        }
        let row = db::insert_transaction(
            tx,
            NewTransaction {
                user_id: grant.user_id,
                kind: GIFTCODE,
                status: TxStatus::Success,
                real_value: grant.kp.get(),
                currency: "KP",
                payload: json!({ "campaign": grant.campaign }),
                parent_id: None,
                key: Some((GRANT, &grant.key)),
            },
        )
        .await?
        .ok_or(LedgerError::KeyReused)?;
        let source = self.system(tx, GIFTCODE).await?;
        let amount = grant.kp.get();
        db::post(tx, row.id, &[(source, -amount), (player.kp_account_id, amount)]).await?;
        view(tx, row.id).await
    }
}
