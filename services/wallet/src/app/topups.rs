//! Top-ups: a card opened while the aggregator checks it, then credited or failed; a bank or
//! e-wallet transfer credited at once. A credit adds the partner bonus and settles debt first.

use serde_json::{Value, json};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{
    Ledger, LedgerError, Related, Result, TOPUP, TransactionView, credit_from_system, insert_related, keyed,
    view,
};
use crate::{
    db::{self, NewTransaction, TransactionRow},
    domain::{
        self, Kp, PartnerStatus, TxStatus, Vnd, bonus_rate_for,
        payload::{BonusPayload, payload_of},
    },
    events::published as events,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TopupType {
    BankTransfer,
    EWallet,
    Card,
}

impl TopupType {
    /// The transaction type, which is also the name of the system account the KP comes from.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BankTransfer => "topup.bank-transfer",
            Self::EWallet => "topup.e-wallet",
            Self::Card => "topup.card",
        }
    }

    /// Cards name their provider; banks and e-wallets their source.
    fn payload(self, source: &str, serial: &str) -> Value {
        match self {
            Self::Card => json!({ "provider": source, "serial": serial }),
            Self::BankTransfer | Self::EWallet => json!({ "source": source }),
        }
    }
}

/// A top-up as the payment service reports it: whose, of what kind, from where, of how much.
#[derive(Debug, Clone)]
pub struct Topup {
    pub key: String,
    pub user_id: Uuid,
    pub kind: TopupType,
    pub source: String,
    pub amount: Vnd,
    pub serial: String,
}

impl Topup {
    /// The top-up's own transaction, keyed on its idempotency key.
    fn transaction(&self, status: TxStatus, payload: Value) -> NewTransaction<'_> {
        NewTransaction {
            user_id: self.user_id,
            kind: self.kind.as_str(),
            status,
            real_value: self.amount.get(),
            currency: "VND",
            payload,
            parent_id: None,
            key: Some((TOPUP, &self.key)),
        }
    }
}

/// A top-up the payment service has received: `kp` is the base KP, already floored.
#[derive(Debug, Clone)]
pub struct TopupCredit {
    pub topup: Topup,
    pub kp: Kp,
    pub error_code: String,
}

impl Ledger {
    /// Opens a top-up waiting on the outside world (a submitted card).
    pub async fn open_topup(&self, tx: &mut PgConnection, order: &Topup) -> Result<TransactionView> {
        db::lock_or_create_player(tx, order.user_id).await?;
        let pending = order.transaction(
            TxStatus::Pending,
            order.kind.payload(&order.source, &order.serial),
        );
        let id = match db::insert_transaction(tx, pending).await? {
            Some(row) => row.id,
            None => {
                let first = keyed(tx, TOPUP, &order.key).await?;
                same_topup(&first, order.user_id, order.kind)?;
                first.id
            }
        };
        view(tx, id).await
    }

    pub async fn fail_topup(
        &self,
        tx: &mut PgConnection,
        key: &str,
        user_id: Uuid,
        error_code: &str,
    ) -> Result<TransactionView> {
        db::lock_player(tx, user_id)
            .await?
            .ok_or(LedgerError::NotFound("no such top-up"))?;
        let topup = db::find_keyed(tx, TOPUP, key)
            .await?
            .ok_or(LedgerError::NotFound("no such top-up"))?;
        if topup.user_id != user_id {
            return Err(LedgerError::KeyReused);
        }
        match topup.status {
            TxStatus::Pending => {
                let payload = json!({ "errorCode": error_code });
                db::set_topup_outcome(tx, topup.id, TxStatus::Failed, topup.real_value, &payload).await?;
            }
            TxStatus::Failed => {}
            TxStatus::Success => return Err(LedgerError::Conflict("the top-up was already credited")),
        }
        view(tx, topup.id).await
    }

    /// Credits a top-up: base KP from the source's system account, the partner bonus from the
    /// bonus account, then the player's debt settled first out of both.
    ///
    /// Corrections that overtook this credit and were held are applied right after it (also
    /// when the credit is a replay, so a crash in between is mended by the redelivery).
    pub async fn credit(&self, tx: &mut PgConnection, order: &TopupCredit) -> Result<TransactionView> {
        let credited = self.credit_once(tx, order).await?;
        if self.apply_held(tx, &order.topup.key, credited.row.id).await? == 0 {
            return Ok(credited);
        }
        view(tx, credited.row.id).await
    }

    async fn credit_once(&self, tx: &mut PgConnection, order: &TopupCredit) -> Result<TransactionView> {
        let TopupCredit {
            topup,
            kp,
            error_code,
        } = order;
        let kp = *kp;
        if kp.is_zero() || topup.amount.is_zero() {
            return Err(LedgerError::Invalid("a top-up credits a positive amount"));
        }
        let player = db::lock_or_create_player(tx, topup.user_id).await?;
        let mut payload = topup.kind.payload(&topup.source, &topup.serial);
        if !error_code.is_empty() {
            payload["errorCode"] = json!(error_code);
        }
        let id = match db::find_keyed(tx, TOPUP, &topup.key).await? {
            Some(first) => {
                same_topup(&first, topup.user_id, topup.kind)?;
                match first.status {
                    TxStatus::Pending => {
                        db::set_topup_outcome(tx, first.id, TxStatus::Success, topup.amount.get(), &payload)
                            .await?;
                        first.id
                    }
                    TxStatus::Success if first.real_value == topup.amount.get() => {
                        return view(tx, first.id).await;
                    }
                    TxStatus::Success => return Err(LedgerError::KeyReused),
                    TxStatus::Failed => return Err(LedgerError::Conflict("the top-up has already failed")),
                }
            }
            None => {
                let new = topup.transaction(TxStatus::Success, payload);
                // The player's lock is held, so nobody else can be inserting this key for them;
                // a key held by another player's top-up is a reused key.
                db::insert_transaction(tx, new)
                    .await?
                    .ok_or(LedgerError::KeyReused)?
                    .id
            }
        };
        // The tier in force is found from the window as it is now, without this order.
        let window = db::topup_window(tx, topup.user_id).await?;
        let before = PartnerStatus::recalculate(player.is_pay_partner, window);
        let rate = bonus_rate_for(&before, topup.amount);
        let bonus = rate.of(kp);
        let source = self.system(tx, topup.kind.as_str()).await?;
        let recharge = Related::new(id, "credit.recharge", kp.get(), json!({}));
        credit_from_system(tx, &player, recharge, source).await?;
        if !bonus.is_zero() {
            let bonus_account = self.system(tx, "bonus").await?;
            // The rate is kept: a later correction recalls the bonus its lost value earned.
            let granted = BonusPayload { rate_bps: rate.bps() };
            let bonus = Related::new(id, "credit.bonus", bonus.get(), payload_of(&granted));
            credit_from_system(tx, &player, bonus, bonus_account).await?;
        }
        let incoming = kp
            .checked_add(bonus)
            .ok_or(LedgerError::Invalid("amount too large"))?;
        let settlement = domain::settle(incoming, player.debt());
        if !settlement.settles_debt.is_zero() {
            let amount = settlement.settles_debt.get();
            let recall = Related::new(id, "credit.recall", amount, json!({ "reason": "debt" }));
            let recall = insert_related(tx, &player, recall).await?;
            db::post(
                tx,
                recall,
                &[(player.kp_account_id, -amount), (player.debt_account_id, amount)],
            )
            .await?;
        }
        let credited_at = db::mark_credited(tx, id, topup.amount).await?;
        events::topup_credited(
            tx,
            &events::TopupCredited {
                transaction_id: id,
                user_id: topup.user_id,
                kind: topup.kind.as_str(),
                source: &topup.source,
                amount_vnd: topup.amount.get(),
                kp: kp.get(),
                bonus_kp: bonus.get(),
                debt_settled_kp: settlement.settles_debt.get(),
                credited_at,
            },
        )
        .await?;
        view(tx, id).await
    }

    /// Recalls the corrections held for the top-up keyed `topup_key`, in the credit's
    /// transaction; returns how many were applied. One that cannot be applied is logged and
    /// stays held with its error: its savepoint is rolled back, the credit is not.
    async fn apply_held(&self, tx: &mut PgConnection, topup_key: &str, topup_id: Uuid) -> Result<usize> {
        let held = db::held_corrections(tx, topup_key).await?;
        let mut applied = 0;
        for correction in held {
            let mut savepoint = sqlx::Connection::begin(&mut *tx).await?;
            match self.recall(&mut savepoint, &correction.recall(topup_id)).await {
                Ok((_, debt_added)) => {
                    savepoint.commit().await?;
                    applied += 1;
                    tracing::warn!(%topup_id, kp = correction.kp.get(), debt_added = debt_added.get(), "held correction applied after its credit");
                }
                Err(error @ (LedgerError::Database(_) | LedgerError::Outbox(_))) => return Err(error),
                Err(error) => {
                    savepoint.rollback().await?;
                    tracing::error!(%topup_id, key = correction.key, %error, "a held correction cannot be applied; left for an operator");
                    db::held_correction_failed(tx, &correction.key, &error.to_string()).await?;
                }
            }
        }
        Ok(applied)
    }
}

fn same_topup(first: &TransactionRow, user_id: Uuid, kind: TopupType) -> Result<()> {
    if first.user_id == user_id && first.kind == kind.as_str() {
        Ok(())
    } else {
        Err(LedgerError::KeyReused)
    }
}
