//! The ledger's operations. Each runs in one database transaction that first locks the
//! player's row, so a player's operations never interleave and a debit can never overspend;
//! each is keyed by the caller's idempotency key, and the same key again returns the first
//! result without moving money.

use std::{collections::HashMap, sync::Arc};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool, Postgres, Transaction};
use tokio::sync::OnceCell;
use uuid::Uuid;

pub use crate::domain::Correction;
use crate::{
    db::{self, NewTransaction, PlayerRow, RelatedRow, SystemAccounts, TransactionRow},
    domain::{self, BonusRate, Kp, PartnerStatus, TxStatus, Vnd, bonus_rate_for, bonus_recalled},
    events::published as events,
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
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] kid_platform::outbox::OutboxError),
}

pub type Result<T> = std::result::Result<T, LedgerError>;

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

/// A top-up the payment service has received: `kp` is the base KP, already floored.
#[derive(Debug, Clone)]
pub struct TopupCredit {
    pub key: String,
    pub user_id: Uuid,
    pub kind: TopupType,
    pub source: String,
    pub amount: Vnd,
    pub kp: Kp,
    pub serial: String,
    pub error_code: String,
}

/// A top-up waiting on the outside world (a submitted card).
#[derive(Debug, Clone)]
pub struct TopupOpening {
    pub key: String,
    pub user_id: Uuid,
    pub kind: TopupType,
    pub source: String,
    pub amount: Vnd,
    pub serial: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CoinMetadata {
    pub coin: i64,
    pub coin_bonus: i64,
    pub product_code: String,
    pub product_name: String,
    pub coin_name: String,
}

#[derive(Debug, Clone)]
pub struct Payment {
    pub key: String,
    pub user_id: Uuid,
    pub kp: Kp,
    pub metadata: CoinMetadata,
}

#[derive(Debug, Clone)]
pub struct Refund {
    pub key: String,
    pub user_id: Uuid,
    pub payment_id: Uuid,
}

#[derive(Debug, Clone)]
pub struct RecallOrder {
    pub key: String,
    pub user_id: Uuid,
    pub topup_id: Uuid,
    pub kp: Kp,
    pub corrected_amount: Option<Vnd>,
}

impl Correction {
    fn recall(&self, topup_id: Uuid) -> RecallOrder {
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

/// A top-up or payment as the history shows it, with its related transactions.
#[derive(Debug, Clone)]
pub struct TransactionView {
    pub row: TransactionRow,
    pub related: Vec<RelatedRow>,
}

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
const TOPUP: &str = "topup";
const PAY: &str = "pay";
const REFUND: &str = "refund";
const RECALL: &str = "recall";

#[derive(Clone)]
pub struct Ledger {
    pool: PgPool,
    system: Arc<OnceCell<SystemAccounts>>,
}

impl Ledger {
    pub fn new(pool: PgPool) -> Self {
        Self {
            pool,
            system: Arc::default(),
        }
    }

    /// The id of a system account, loaded once (on the caller's connection: a transaction
    /// holding one must not wait for a second).
    async fn system(&self, conn: &mut PgConnection, purpose: &str) -> Result<i64> {
        let accounts = self.system.get_or_try_init(|| SystemAccounts::load(conn)).await?;
        Ok(accounts.get(purpose)?)
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// The top-up credited or opened with `key`, if any.
    pub async fn topup_by_key(&self, key: &str) -> Result<Option<Uuid>> {
        let mut conn = self.pool.acquire().await?;
        Ok(db::find_keyed(&mut conn, TOPUP, key).await?.map(|row| row.id))
    }

    pub async fn account(&self, user_id: Uuid) -> Result<AccountView> {
        Ok(db::find_player(&self.pool, user_id)
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
    pub async fn history(&self, user_id: Uuid, limit: i64) -> Result<Vec<TransactionView>> {
        let limit = if limit > 0 {
            limit.min(MAX_HISTORY)
        } else {
            DEFAULT_HISTORY
        };
        let mut conn = self.pool.acquire().await?;
        let rows = db::history(&mut conn, user_id, limit).await?;
        views(&mut conn, rows).await
    }

    pub async fn open_topup(&self, order: &TopupOpening) -> Result<TransactionView> {
        let mut tx = self.pool.begin().await?;
        db::lock_or_create_player(&mut tx, order.user_id).await?;
        let inserted = db::insert_transaction(
            &mut tx,
            NewTransaction {
                user_id: order.user_id,
                kind: order.kind.as_str(),
                status: TxStatus::Pending,
                real_value: order.amount.get(),
                currency: "VND",
                payload: order.kind.payload(&order.source, &order.serial),
                parent_id: None,
                key: Some((TOPUP, &order.key)),
            },
        )
        .await?;
        let id = match inserted {
            Some(id) => id,
            None => {
                let first = keyed(&mut tx, TOPUP, &order.key).await?;
                same_topup(&first, order.user_id, order.kind)?;
                first.id
            }
        };
        finish(tx, id).await
    }

    pub async fn fail_topup(&self, key: &str, user_id: Uuid, error_code: &str) -> Result<TransactionView> {
        let mut tx = self.pool.begin().await?;
        db::lock_player(&mut tx, user_id)
            .await?
            .ok_or(LedgerError::NotFound("no such top-up"))?;
        let topup = db::find_keyed(&mut tx, TOPUP, key)
            .await?
            .ok_or(LedgerError::NotFound("no such top-up"))?;
        if topup.user_id != user_id {
            return Err(LedgerError::KeyReused);
        }
        match topup.status {
            TxStatus::Pending => {
                let payload = json!({ "errorCode": error_code });
                db::set_topup_outcome(&mut tx, topup.id, TxStatus::Failed, topup.real_value, &payload)
                    .await?;
            }
            TxStatus::Failed => {}
            TxStatus::Success => return Err(LedgerError::Conflict("the top-up was already credited")),
        }
        finish(tx, topup.id).await
    }

    /// Credits a top-up: base KP from the source's system account, the partner bonus from the
    /// bonus account, then the player's debt settled first out of both.
    ///
    /// Corrections that overtook this credit and were held are applied right after it (also
    /// when the credit is a replay, so a crash in between is mended by the redelivery).
    pub async fn credit(&self, order: &TopupCredit) -> Result<TransactionView> {
        let credited = self.credit_once(order).await?;
        if self.apply_held(&order.key, credited.row.id).await? == 0 {
            return Ok(credited);
        }
        self.transaction(credited.row.id).await
    }

    async fn credit_once(&self, order: &TopupCredit) -> Result<TransactionView> {
        if order.kp.is_zero() || order.amount.is_zero() {
            return Err(LedgerError::Invalid("a top-up credits a positive amount"));
        }
        let mut tx = self.pool.begin().await?;
        let player = db::lock_or_create_player(&mut tx, order.user_id).await?;
        let mut payload = order.kind.payload(&order.source, &order.serial);
        if !order.error_code.is_empty() {
            payload["errorCode"] = json!(order.error_code);
        }
        let id = match db::find_keyed(&mut tx, TOPUP, &order.key).await? {
            Some(first) => {
                same_topup(&first, order.user_id, order.kind)?;
                match first.status {
                    TxStatus::Pending => {
                        db::set_topup_outcome(
                            &mut tx,
                            first.id,
                            TxStatus::Success,
                            order.amount.get(),
                            &payload,
                        )
                        .await?;
                        first.id
                    }
                    TxStatus::Success if first.real_value == order.amount.get() => {
                        return finish(tx, first.id).await;
                    }
                    TxStatus::Success => return Err(LedgerError::KeyReused),
                    TxStatus::Failed => return Err(LedgerError::Conflict("the top-up has already failed")),
                }
            }
            None => {
                let new = NewTransaction {
                    user_id: order.user_id,
                    kind: order.kind.as_str(),
                    status: TxStatus::Success,
                    real_value: order.amount.get(),
                    currency: "VND",
                    payload,
                    parent_id: None,
                    key: Some((TOPUP, &order.key)),
                };
                // The player's lock is held, so nobody else can be inserting this key for them;
                // a key held by another player's top-up is a reused key.
                db::insert_transaction(&mut tx, new)
                    .await?
                    .ok_or(LedgerError::KeyReused)?
            }
        };
        // The tier in force is found from the window as it is now, without this order.
        let window = db::topup_window(&mut tx, order.user_id).await?;
        let before = PartnerStatus::recalculate(player.is_pay_partner, window);
        let rate = bonus_rate_for(&before, order.amount);
        let bonus = rate.of(order.kp);
        let source = self.system(&mut tx, order.kind.as_str()).await?;
        let recharge = Related::new(id, "credit.recharge", order.kp.get(), json!({}));
        credit_from_system(&mut tx, &player, recharge, source).await?;
        if !bonus.is_zero() {
            let bonus_account = self.system(&mut tx, "bonus").await?;
            // The rate is kept: a later correction recalls the bonus its lost value earned.
            let granted = BonusPayload { rate_bps: rate.bps() };
            let bonus = Related::new(id, "credit.bonus", bonus.get(), payload_of(&granted));
            credit_from_system(&mut tx, &player, bonus, bonus_account).await?;
        }
        let incoming = order
            .kp
            .checked_add(bonus)
            .ok_or(LedgerError::Invalid("amount too large"))?;
        let settlement = domain::settle(incoming, player.debt());
        if !settlement.settles_debt.is_zero() {
            let amount = settlement.settles_debt.get();
            let recall = Related::new(id, "credit.recall", amount, json!({ "reason": "debt" }));
            let recall = insert_related(&mut tx, &player, recall).await?;
            db::post(
                &mut tx,
                recall,
                &[(player.kp_account_id, -amount), (player.debt_account_id, amount)],
            )
            .await?;
        }
        let credited_at = db::mark_credited(&mut tx, id, order.amount).await?;
        events::topup_credited(
            &mut tx,
            &events::TopupCredited {
                transaction_id: id,
                user_id: order.user_id,
                kind: order.kind.as_str(),
                source: &order.source,
                amount_vnd: order.amount.get(),
                kp: order.kp.get(),
                bonus_kp: bonus.get(),
                debt_settled_kp: settlement.settles_debt.get(),
                credited_at,
            },
        )
        .await?;
        finish(tx, id).await
    }

    /// Pays for game coin: the KP goes to game sales, refused when the balance is short. The
    /// payment stays pending until [`Ledger::settle_payment`] or [`Ledger::refund`].
    pub async fn debit(&self, payment: &Payment) -> Result<TransactionView> {
        if payment.kp.is_zero() {
            return Err(LedgerError::Invalid("a payment debits a positive amount"));
        }
        let mut tx = self.pool.begin().await?;
        // Created when missing, so that a refusal and a concurrent attempt are ordered too.
        let player = db::lock_or_create_player(&mut tx, payment.user_id).await?;
        if let Some(first) = db::find_keyed(&mut tx, PAY, &payment.key).await? {
            let same = first.user_id == payment.user_id
                && first.real_value == payment.kp.get()
                && first.payload.0["metadata"]["productCode"] == json!(payment.metadata.product_code);
            return if same {
                finish(tx, first.id).await
            } else {
                Err(LedgerError::KeyReused)
            };
        }
        // A refusal is the key's answer for good: the order it was for may be gone.
        if let Some(refused) = db::refused_payment(&mut tx, &payment.key).await? {
            return Err(if refused == (payment.user_id, payment.kp.get()) {
                LedgerError::InsufficientBalance
            } else {
                LedgerError::KeyReused
            });
        }
        if player.balance() < payment.kp {
            db::refuse_payment(&mut tx, &payment.key, payment.user_id, payment.kp).await?;
            tx.commit().await?;
            return Err(LedgerError::InsufficientBalance);
        }
        let new = NewTransaction {
            user_id: payment.user_id,
            kind: "credit.pay",
            // Until the game confirms delivery ('Đang xử lý'); a refund makes it failed.
            status: TxStatus::Pending,
            real_value: payment.kp.get(),
            currency: "KP",
            payload: json!({ "metadata": payment.metadata }),
            parent_id: None,
            key: Some((PAY, &payment.key)),
        };
        let id = db::insert_transaction(&mut tx, new)
            .await?
            .ok_or(LedgerError::KeyReused)?;
        let sales = self.system(&mut tx, "game-sales").await?;
        db::post(
            &mut tx,
            id,
            &[
                (player.kp_account_id, -payment.kp.get()),
                (sales, payment.kp.get()),
            ],
        )
        .await?;
        finish(tx, id).await
    }

    /// Marks a pending payment delivered. A payment already settled stays as it is; one
    /// already refunded stays failed (a late delivery never pays twice). Returns the payment.
    pub async fn settle_payment(&self, user_id: Uuid, payment_id: Uuid) -> Result<TransactionView> {
        let mut tx = self.pool.begin().await?;
        db::lock_player(&mut tx, user_id).await?;
        let payment = db::find_transaction(&mut tx, payment_id)
            .await?
            .filter(|payment| payment.user_id == user_id && payment.kind == "credit.pay")
            .ok_or(LedgerError::NotFound("no such payment"))?;
        if payment.status == TxStatus::Pending {
            db::touch(&mut tx, payment.id, Some(TxStatus::Success), None).await?;
        }
        finish(tx, payment.id).await
    }

    /// Gives a payment's KP back: the payment shows failed, with a related credit.refund.
    pub async fn refund(&self, refund: &Refund) -> Result<TransactionView> {
        let mut tx = self.pool.begin().await?;
        let player = db::lock_player(&mut tx, refund.user_id)
            .await?
            .ok_or(LedgerError::NotFound("no such payment"))?;
        if let Some(first) = db::find_keyed(&mut tx, REFUND, &refund.key).await? {
            let same = first.user_id == refund.user_id && first.parent_id == Some(refund.payment_id);
            return if same {
                finish(tx, refund.payment_id).await
            } else {
                Err(LedgerError::KeyReused)
            };
        }
        let payment = db::find_transaction(&mut tx, refund.payment_id)
            .await?
            .filter(|payment| payment.user_id == refund.user_id && payment.kind == "credit.pay")
            .ok_or(LedgerError::NotFound("no such payment"))?;
        if payment.status == TxStatus::Failed {
            return Err(LedgerError::Conflict("the payment was already refunded"));
        }
        let refunds = self.system(&mut tx, "refund").await?;
        let credit_refund = Related::new(payment.id, "credit.refund", payment.real_value, json!({}))
            .keyed(REFUND, &refund.key);
        credit_from_system(&mut tx, &player, credit_refund, refunds).await?;
        db::touch(&mut tx, payment.id, Some(TxStatus::Failed), None).await?;
        finish(tx, payment.id).await
    }

    /// Applies a correction of the top-up keyed `topup_key`: recalled at once when it is
    /// credited, held until its credit otherwise. The player's lock orders this with the
    /// credit, so a correction is never held after its credit looked for held ones.
    pub async fn correct(&self, correction: &Correction) -> Result<Corrected> {
        let mut tx = self.pool.begin().await?;
        db::lock_or_create_player(&mut tx, correction.user_id).await?;
        let topup = db::find_keyed(&mut tx, TOPUP, &correction.topup_key).await?;
        match topup {
            Some(topup) if topup.user_id != correction.user_id => Err(LedgerError::KeyReused),
            Some(topup) if topup.status == TxStatus::Success => {
                tx.rollback().await?;
                let recall = correction.recall(topup.id);
                let (_, debt_added) = self.recall(&recall).await?;
                Ok(Corrected::Recalled { debt_added })
            }
            Some(topup) if topup.status == TxStatus::Failed => {
                Err(LedgerError::Conflict("the corrected top-up has failed"))
            }
            // Not credited yet (unknown, or opened and pending).
            _ => {
                db::hold_correction(&mut tx, correction).await?;
                tx.commit().await?;
                Ok(Corrected::Held)
            }
        }
    }

    /// Recalls the corrections held for the top-up keyed `topup_key`; returns how many were
    /// applied. One that cannot be applied is logged and stays held with its error.
    async fn apply_held(&self, topup_key: &str, topup_id: Uuid) -> Result<usize> {
        let held = db::held_corrections(&self.pool, topup_key).await?;
        let mut applied = 0;
        for correction in held {
            match self.recall(&correction.recall(topup_id)).await {
                Ok((_, debt_added)) => {
                    applied += 1;
                    tracing::warn!(%topup_id, kp = correction.kp.get(), debt_added = debt_added.get(), "held correction applied after its credit");
                }
                Err(error @ (LedgerError::Database(_) | LedgerError::Outbox(_))) => return Err(error),
                Err(error) => {
                    tracing::error!(%topup_id, key = correction.key, %error, "a held correction cannot be applied; left for an operator");
                    db::held_correction_failed(&self.pool, &correction.key, &error.to_string()).await?;
                }
            }
        }
        Ok(applied)
    }

    /// A transaction as the history shows it.
    async fn transaction(&self, id: Uuid) -> Result<TransactionView> {
        finish(self.pool.begin().await?, id).await
    }

    /// Takes back over-credited KP of a top-up: what the balance holds, the rest as debt.
    /// Returns the top-up and the debt the recall added.
    pub async fn recall(&self, order: &RecallOrder) -> Result<(TransactionView, Kp)> {
        if order.kp.is_zero() {
            return Err(LedgerError::Invalid("a recall takes a positive amount"));
        }
        let mut tx = self.pool.begin().await?;
        let player = db::lock_player(&mut tx, order.user_id)
            .await?
            .ok_or(LedgerError::NotFound("no such top-up"))?;
        if let Some(first) = db::find_keyed(&mut tx, RECALL, &order.key).await? {
            let same = first.user_id == order.user_id
                && first.parent_id == Some(order.topup_id)
                && RecallPayload::of(&first.payload.0)
                    .is_some_and(|recall| recall.top_up_kp(first.real_value) == order.kp.get());
            if !same {
                return Err(LedgerError::KeyReused);
            }
            db::release_held_correction(&mut tx, &order.key).await?;
            let debt_added = -db::posted(&mut tx, first.id, player.debt_account_id).await?;
            return Ok((
                finish(tx, order.topup_id).await?,
                Kp::parse(debt_added).unwrap_or_default(),
            ));
        }
        let topup = db::find_transaction(&mut tx, order.topup_id)
            .await?
            .filter(|topup| topup.user_id == order.user_id && topup.kind.starts_with("topup."))
            .ok_or(LedgerError::NotFound("no such top-up"))?;
        if topup.status != TxStatus::Success {
            return Err(LedgerError::Conflict("only a credited top-up can be recalled"));
        }
        let related = db::related(&mut tx, &[topup.id]).await?;
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
        let id = insert_related(&mut tx, &player, recall).await?;
        db::release_held_correction(&mut tx, &order.key).await?;
        let recall_account = self.system(&mut tx, "recall").await?;
        db::post(
            &mut tx,
            id,
            &[
                (player.kp_account_id, -split.from_balance.get()),
                (player.debt_account_id, -split.to_debt.get()),
                (recall_account, total.get()),
            ],
        )
        .await?;
        db::touch(&mut tx, topup.id, None, order.corrected_amount).await?;
        events::recalculate_partner(&mut tx, order.user_id, "recall").await?;
        Ok((finish(tx, topup.id).await?, split.to_debt))
    }
}

/// What a `credit.bonus` keeps: the rate it was granted at, which a later correction recalls
/// the bonus at.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BonusPayload {
    rate_bps: i32,
}

/// What a correction's `credit.recall` keeps: the top-up KP it took back and the bonus that
/// went with it (a correction recorded before bonuses were recalled has neither).
#[derive(Debug, Serialize, Deserialize)]
struct RecallPayload {
    reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kp: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bonus: Option<i64>,
}

impl RecallPayload {
    const CORRECTION: &str = "correction";

    fn of(payload: &Value) -> Option<Self> {
        serde_json::from_value(payload.clone()).ok()
    }

    fn is_correction(&self) -> bool {
        self.reason == Self::CORRECTION
    }

    /// The top-up KP recalled, without the bonus; an old correction's value is only that.
    fn top_up_kp(&self, real_value: i64) -> i64 {
        self.kp.unwrap_or(real_value)
    }
}

/// A payload struct as the JSON a transaction keeps.
fn payload_of(payload: &impl Serialize) -> Value {
    serde_json::to_value(payload).expect("a payload struct serializes")
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

fn same_topup(first: &TransactionRow, user_id: Uuid, kind: TopupType) -> Result<()> {
    if first.user_id == user_id && first.kind == kind.as_str() {
        Ok(())
    } else {
        Err(LedgerError::KeyReused)
    }
}

/// Commits and reads back the transaction as the history shows it.
async fn finish(mut tx: Transaction<'static, Postgres>, id: Uuid) -> Result<TransactionView> {
    let row = db::find_transaction(&mut tx, id)
        .await?
        .ok_or(LedgerError::Database(sqlx::Error::RowNotFound))?;
    let mut found = views(&mut tx, vec![row]).await?;
    tx.commit().await?;
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
