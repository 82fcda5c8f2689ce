//! Corrections: a card the aggregator later found worth less takes back the KP (and the
//! partner bonus) its lost value credited, from the balance and, once spent, as debt. A
//! correction that overtakes its credit is held until the credit comes.

use sqlx::PgConnection;
use uuid::Uuid;

use super::{
    Correction, Ledger, LedgerError, RECALL, Related, Result, TOPUP, TransactionView, insert_related, view,
};
use crate::{
    db,
    domain::{
        self, BonusRate, Kp, TxStatus, Vnd, bonus_recalled,
        payload::{BonusPayload, RecallPayload, payload_of},
    },
    events::published as events,
};

#[derive(Debug, Clone)]
pub struct RecallOrder {
    pub key: String,
    pub user_id: Uuid,
    pub topup_id: Uuid,
    pub kp: Kp,
    pub corrected_amount: Option<Vnd>,
}

impl Correction {
    pub(super) fn recall(&self, topup_id: Uuid) -> RecallOrder {
        RecallOrder {
            key: self.key.clone(),
            user_id: self.user_id,
            topup_id,
            kp: self.kp,
            corrected_amount: self.corrected_amount,
        }
    }
}

/// What a correction did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corrected {
    Recalled {
        debt_added: Kp,
    },
    /// Held until its top-up is credited.
    Held,
}

impl Ledger {
    /// Applies a correction of the top-up keyed `topup_key`: recalled at once when it is
    /// credited, held until its credit otherwise. The player's lock orders this with the
    /// credit, so a correction is never held after its credit looked for held ones.
    pub async fn correct(&self, tx: &mut PgConnection, correction: &Correction) -> Result<Corrected> {
        db::lock_or_create_player(tx, correction.user_id).await?;
        let topup = db::find_keyed(tx, TOPUP, &correction.topup_key).await?;
        match topup {
            Some(topup) if topup.user_id != correction.user_id => Err(LedgerError::KeyReused),
            Some(topup) if topup.status == TxStatus::Success => {
                let recall = correction.recall(topup.id);
                let (_, debt_added) = self.recall(tx, &recall).await?;
                Ok(Corrected::Recalled { debt_added })
            }
            Some(topup) if topup.status == TxStatus::Failed => {
                Err(LedgerError::Conflict("the corrected top-up has failed"))
            }
            // Not credited yet (unknown, or opened and pending).
            _ => {
                db::hold_correction(tx, correction).await?;
                Ok(Corrected::Held)
            }
        }
    }

    /// Takes back over-credited KP of a top-up: what the balance holds, the rest as debt.
    /// Returns the top-up and the debt the recall added.
    pub async fn recall(&self, tx: &mut PgConnection, order: &RecallOrder) -> Result<(TransactionView, Kp)> {
        if order.kp.is_zero() {
            return Err(LedgerError::Invalid("a recall takes a positive amount"));
        }
        let player = db::lock_player(tx, order.user_id)
            .await?
            .ok_or(LedgerError::NotFound("no such top-up"))?;
        if let Some(first) = db::find_keyed(tx, RECALL, &order.key).await? {
            let same = first.user_id == order.user_id
                && first.parent_id == Some(order.topup_id)
                && RecallPayload::of(&first.payload.0)
                    .is_some_and(|recall| recall.top_up_kp(first.real_value) == order.kp.get());
            if !same {
                return Err(LedgerError::KeyReused);
            }
            db::release_held_correction(tx, &order.key).await?;
            let debt_added = -db::posted(tx, first.id, player.debt_account_id).await?;
            return Ok((
                view(tx, order.topup_id).await?,
                Kp::parse(debt_added).unwrap_or_default(),
            ));
        }
        let topup = db::find_transaction(tx, order.topup_id)
            .await?
            .filter(|topup| topup.user_id == order.user_id && topup.kind.starts_with("topup."))
            .ok_or(LedgerError::NotFound("no such top-up"))?;
        if topup.status != TxStatus::Success {
            return Err(LedgerError::Conflict("only a credited top-up can be recalled"));
        }
        let related = db::related(tx, &[topup.id]).await?;
        let credited: i64 = related
            .iter()
            .filter(|r| r.kind == "credit.recharge")
            .map(|r| r.real_value)
            .sum();
        let corrections: Vec<_> = related
            .iter()
            .filter(|r| r.kind == "credit.recall")
            .filter_map(|r| {
                Some((
                    RecallPayload::of(&r.payload.0).filter(RecallPayload::is_correction)?,
                    r,
                ))
            })
            .collect();
        let kp_recalled: i64 = corrections
            .iter()
            .map(|(recall, row)| recall.top_up_kp(row.real_value))
            .sum();
        if kp_recalled.saturating_add(order.kp.get()) > credited {
            return Err(LedgerError::Invalid(
                "a recall cannot take more than the top-up credited",
            ));
        }
        // The bonus its lost value earned goes back with it (money.md, corrections).
        let bonus_row = related.iter().find(|r| r.kind == "credit.bonus");
        let bonus_back = bonus_row.map_or(Kp::ZERO, |bonus| {
            let rate = serde_json::from_value::<BonusPayload>(bonus.payload.0.clone())
                .ok()
                .and_then(|granted| u32::try_from(granted.rate_bps).ok())
                .map(BonusRate::from_bps);
            let already: i64 = corrections.iter().filter_map(|(recall, _)| recall.bonus).sum();
            bonus_recalled(
                Kp::new(bonus.real_value),
                Kp::new(already),
                rate,
                Kp::new(credited),
                Kp::new(credited - kp_recalled - order.kp.get()),
            )
        });
        let total = order
            .kp
            .checked_add(bonus_back)
            .ok_or(LedgerError::Invalid("amount too large"))?;
        let split = domain::recall(player.balance(), total);
        let recall = Related::new(
            topup.id,
            "credit.recall",
            total.get(),
            payload_of(&RecallPayload {
                reason: RecallPayload::CORRECTION.to_owned(),
                kp: Some(order.kp.get()),
                bonus: Some(bonus_back.get()),
            }),
        )
        .keyed(RECALL, &order.key);
        let id = insert_related(tx, &player, recall).await?;
        db::release_held_correction(tx, &order.key).await?;
        let recall_account = self.system(tx, "recall").await?;
        db::post(
            tx,
            id,
            &[
                (player.kp_account_id, -split.from_balance.get()),
                (player.debt_account_id, -split.to_debt.get()),
                (recall_account, total.get()),
            ],
        )
        .await?;
        db::touch(tx, topup.id, None, order.corrected_amount).await?;
        events::recalculate_partner(tx, order.user_id, "recall").await?;
        Ok((view(tx, topup.id).await?, split.to_debt))
    }
}
