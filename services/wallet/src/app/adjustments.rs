//! KP adjustments by finance staff: a goodwill credit (positive) or a clawback (negative), with
//! a reason. Maker-checker: one within the approval threshold applies at once, unless with what
//! its asker or its player had applied alone over 24 hours it passes the threshold; a larger one
//! waits for a second finance member, and nobody approves their own. Applied, it is a top-level
//! `adjustment` transaction against the `adjustment` system account, keyed by the adjustment's
//! id, so it moves KP once. Every step is in the audit log, in the step's transaction.

use kid_contracts::limits::ADJUSTMENT_REASON_MAX;
use kid_contracts::messages::staff::{
    MSG_ADJUSTMENT_DECIDED, MSG_ADJUSTMENT_KEY_REUSED, MSG_ADJUSTMENT_KP, MSG_ADJUSTMENT_NOT_FOUND,
    MSG_CLAWBACK_OVER_BALANCE, MSG_OWN_ADJUSTMENT, MSG_REASON_LONG, MSG_REASON_REQUIRED,
};
use kid_platform::{
    audit,
    auth::{self, StaffActor},
};
use serde_json::{Value, json};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{Ledger, LedgerError, Result};
use crate::{
    db::{
        self, NewTransaction,
        adjustments::{AdjustmentRow, NewAdjustment},
    },
    domain::TxStatus,
};

/// The transaction type, which is also the name of the system account the KP come from.
pub const ADJUSTMENT: &str = "adjustment";
/// The ledger operation an applied adjustment is keyed on.
const ADJUST: &str = "adjust";
/// The most KP one adjustment moves.
const MAX_KP: i64 = 1_000_000_000;

/// What finance asks for.
pub struct AdjustmentAsk<'a> {
    pub user_id: Uuid,
    /// Positive credits the player; negative claws back.
    pub kp: i64,
    pub reason: &'a str,
    /// The ask's idempotency key (the console sends one per form submission).
    pub key: &'a str,
}

fn state(row: &AdjustmentRow) -> Value {
    json!({
        "status": row.status,
        "userId": row.user_id,
        "kp": row.kp,
        "reason": row.reason,
        "transactionId": row.transaction_id,
    })
}

fn subject(row: &AdjustmentRow) -> String {
    format!("adjustment:{}", row.id)
}

/// Whether an ask waits for a second member ([`auth::needs_second_member`]), counting what its
/// asker, and its player, had applied alone over 24 hours. Called under the player's lock; takes
/// the asker's, so two asks at once cannot both find the asker's total under the threshold.
async fn needs_a_checker(
    tx: &mut PgConnection,
    staff: &StaffActor,
    ask: &AdjustmentAsk<'_>,
    threshold: i64,
) -> Result<bool> {
    kid_platform::db::lock_key(tx, &format!("adjustment-asker:{}", staff.id)).await?;
    let (by_asker, to_player) = db::adjustments::applied_alone_lately(tx, staff.id, ask.user_id).await?;
    Ok(auth::needs_second_member(
        ask.kp,
        threshold,
        [by_asker, to_player],
    ))
}

impl Ledger {
    /// Records the ask; within `threshold` KP it applies at once, above it waits for approval.
    /// Asked again by the same member with the same key, it answers the adjustment as it is now.
    pub async fn ask_adjustment(
        &self,
        tx: &mut PgConnection,
        staff: &StaffActor,
        ask: &AdjustmentAsk<'_>,
        threshold: i64,
    ) -> Result<AdjustmentRow> {
        let reason = ask.reason.trim();
        if reason.is_empty() {
            return Err(LedgerError::Rejected("reason", MSG_REASON_REQUIRED));
        }
        if reason.chars().count() > ADJUSTMENT_REASON_MAX {
            return Err(LedgerError::Rejected("reason", MSG_REASON_LONG));
        }
        if ask.kp == 0 || ask.kp.unsigned_abs() > MAX_KP.unsigned_abs() {
            return Err(LedgerError::Rejected("kp", MSG_ADJUSTMENT_KP));
        }
        // A clawback the balance cannot cover is refused now, not when a checker approves it
        // (applying checks again: the balance may have moved meanwhile).
        let player = db::lock_or_create_player(tx, ask.user_id).await?;
        // After the player's lock: the same ask sent twice at once waits here for the first.
        if let Some(asked) = db::adjustments::asked_with(tx, staff.id, ask.key).await? {
            return if (asked.user_id, asked.kp, asked.reason.as_str()) == (ask.user_id, ask.kp, reason) {
                Ok(asked)
            } else {
                Err(LedgerError::Conflict(MSG_ADJUSTMENT_KEY_REUSED))
            };
        }
        if ask.kp < 0 && player.balance < -ask.kp {
            return Err(LedgerError::Rejected("kp", MSG_CLAWBACK_OVER_BALANCE));
        }
        let row = db::adjustments::insert(
            tx,
            &NewAdjustment {
                id: Uuid::now_v7(),
                user_id: ask.user_id,
                kp: ask.kp,
                reason,
                requested_by: staff.id,
                requested_by_username: &staff.username,
                request_key: ask.key,
            },
        )
        .await?;
        audit::record(
            tx,
            staff,
            "adjustment.request",
            &subject(&row),
            None,
            Some(&state(&row)),
        )
        .await?;
        if needs_a_checker(tx, staff, ask, threshold).await? {
            return Ok(row);
        }
        let applied = self.apply_adjustment(tx, &row, None).await?;
        audit::record(
            tx,
            staff,
            "adjustment.apply",
            &subject(&row),
            Some(&state(&row)),
            Some(&state(&applied)),
        )
        .await?;
        Ok(applied)
    }

    /// A second finance member approves a pending adjustment, which applies it. Approving one's
    /// own is refused; approving again what one approved answers it as it is.
    pub async fn approve_adjustment(
        &self,
        tx: &mut PgConnection,
        staff: &StaffActor,
        id: Uuid,
    ) -> Result<AdjustmentRow> {
        let row = db::adjustments::lock(tx, id)
            .await?
            .ok_or(LedgerError::NotFound(MSG_ADJUSTMENT_NOT_FOUND))?;
        if row.requested_by == staff.id {
            return Err(LedgerError::Forbidden(MSG_OWN_ADJUSTMENT));
        }
        if row.status != "pending" {
            return if row.status == "applied" && row.decided_by == Some(staff.id) {
                Ok(row)
            } else {
                Err(LedgerError::Conflict(MSG_ADJUSTMENT_DECIDED))
            };
        }
        let applied = self.apply_adjustment(tx, &row, Some(staff)).await?;
        audit::record(
            tx,
            staff,
            "adjustment.approve",
            &subject(&row),
            Some(&state(&row)),
            Some(&state(&applied)),
        )
        .await?;
        Ok(applied)
    }

    /// Rejects a pending adjustment (its asker may withdraw it too); nothing moves.
    pub async fn reject_adjustment(
        &self,
        tx: &mut PgConnection,
        staff: &StaffActor,
        id: Uuid,
    ) -> Result<AdjustmentRow> {
        let row = db::adjustments::lock(tx, id)
            .await?
            .ok_or(LedgerError::NotFound(MSG_ADJUSTMENT_NOT_FOUND))?;
        if row.status != "pending" {
            return Err(LedgerError::Conflict(MSG_ADJUSTMENT_DECIDED));
        }
        let rejected = db::adjustments::decide(
            tx,
            id,
            "rejected",
            Some((staff.id, staff.username.as_str())),
            None,
        )
        .await?;
        // The asker taking back their own ask is a withdrawal, not a checker's decision.
        let action = if row.requested_by == staff.id {
            "adjustment.withdraw"
        } else {
            "adjustment.reject"
        };
        audit::record(
            tx,
            staff,
            action,
            &subject(&row),
            Some(&state(&row)),
            Some(&state(&rejected)),
        )
        .await?;
        Ok(rejected)
    }

    /// Moves the adjustment's KP: the `adjustment` transaction, keyed by its id.
    async fn apply_adjustment(
        &self,
        tx: &mut PgConnection,
        row: &AdjustmentRow,
        approver: Option<&StaffActor>,
    ) -> Result<AdjustmentRow> {
        let player = db::lock_or_create_player(tx, row.user_id).await?;
        if row.kp < 0 && player.balance < -row.kp {
            return Err(LedgerError::Rejected("kp", MSG_CLAWBACK_OVER_BALANCE));
        }
        let key = row.id.to_string();
        let payload = json!({
            "direction": if row.kp > 0 { "credit" } else { "clawback" },
            "reason": row.reason,
            "adjustmentId": row.id,
        });
        let transaction = db::insert_transaction(
            tx,
            NewTransaction {
                user_id: row.user_id,
                kind: ADJUSTMENT,
                status: TxStatus::Success,
                real_value: row.kp.abs(),
                currency: "KP",
                payload,
                parent_id: None,
                key: Some((ADJUST, &key)),
            },
        )
        .await?
        .ok_or(LedgerError::KeyReused)?;
        let source = self.system(tx, ADJUSTMENT).await?;
        db::post(
            tx,
            transaction.id,
            &[(source, -row.kp), (player.kp_account_id, row.kp)],
        )
        .await?;
        let approver = approver.map(|staff| (staff.id, staff.username.as_str()));
        Ok(db::adjustments::decide(tx, row.id, "applied", approver, Some(transaction.id)).await?)
    }
}
