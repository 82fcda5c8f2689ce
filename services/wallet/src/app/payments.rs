//! Paying for game coin: a debit pending until the game delivers, then settled, or refunded.

use serde::Serialize;
use serde_json::json;
use sqlx::PgConnection;
use uuid::Uuid;

use super::{Ledger, LedgerError, PAY, REFUND, Related, Result, TransactionView, credit_from_system, view};
use crate::{
    db::{self, NewTransaction},
    domain::{Kp, TxStatus},
};

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

/// What a debit did. A refusal is an answer to keep, not an error to roll back: the key is
/// refused for good, so the caller commits it too.
#[derive(Debug, Clone)]
pub enum Debit {
    Paid(TransactionView),
    /// The balance did not cover it (now or when the key was first seen).
    Refused,
}

impl Ledger {
    /// Pays for game coin: the KP goes to game sales, refused when the balance is short. The
    /// payment stays pending until [`Ledger::settle_payment`] or [`Ledger::refund`].
    pub async fn debit(&self, tx: &mut PgConnection, payment: &Payment) -> Result<Debit> {
        if payment.kp.is_zero() {
            return Err(LedgerError::Invalid("a payment debits a positive amount"));
        }
        // Created when missing, so that a refusal and a concurrent attempt are ordered too.
        let player = db::lock_or_create_player(tx, payment.user_id).await?;
        if let Some(first) = db::find_keyed(tx, PAY, &payment.key).await? {
            let same = first.user_id == payment.user_id
                && first.real_value == payment.kp.get()
                && first.payload.0["metadata"]["productCode"] == json!(payment.metadata.product_code);
            return if same {
                Ok(Debit::Paid(view(tx, first.id).await?))
            } else {
                Err(LedgerError::KeyReused)
            };
        }
        // A refusal is the key's answer for good: the order it was for may be gone.
        if let Some(refused) = db::refused_payment(tx, &payment.key).await? {
            return if refused == (payment.user_id, payment.kp.get()) {
                Ok(Debit::Refused)
            } else {
                Err(LedgerError::KeyReused)
            };
        }
        if player.balance() < payment.kp {
            db::refuse_payment(tx, &payment.key, payment.user_id, payment.kp).await?;
            return Ok(Debit::Refused);
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
        let row = db::insert_transaction(tx, new)
            .await?
            .ok_or(LedgerError::KeyReused)?;
        let sales = self.system(tx, "game-sales").await?;
        db::post(
            tx,
            row.id,
            &[
                (player.kp_account_id, -payment.kp.get()),
                (sales, payment.kp.get()),
            ],
        )
        .await?;
        // The payment as inserted: postings leave the transaction's row as it is, and nothing
        // can relate to it before it commits. Reading it back cost two round trips a payment.
        Ok(Debit::Paid(TransactionView {
            row,
            related: Vec::new(),
        }))
    }

    /// Marks a pending payment delivered. A payment already settled stays as it is; one
    /// already refunded stays failed (a late delivery never pays twice). Returns the payment.
    pub async fn settle_payment(
        &self,
        tx: &mut PgConnection,
        user_id: Uuid,
        payment_id: Uuid,
    ) -> Result<TransactionView> {
        db::lock_player(tx, user_id).await?;
        let payment = db::find_transaction(tx, payment_id)
            .await?
            .filter(|payment| payment.user_id == user_id && payment.kind == "credit.pay")
            .ok_or(LedgerError::NotFound("no such payment"))?;
        if payment.status == TxStatus::Pending {
            db::touch(tx, payment.id, Some(TxStatus::Success), None).await?;
        }
        view(tx, payment.id).await
    }

    /// Gives a payment's KP back: the payment shows failed, with a related credit.refund.
    pub async fn refund(&self, tx: &mut PgConnection, refund: &Refund) -> Result<TransactionView> {
        let player = db::lock_player(tx, refund.user_id)
            .await?
            .ok_or(LedgerError::NotFound("no such payment"))?;
        if let Some(first) = db::find_keyed(tx, REFUND, &refund.key).await? {
            let same = first.user_id == refund.user_id && first.parent_id == Some(refund.payment_id);
            return if same {
                view(tx, refund.payment_id).await
            } else {
                Err(LedgerError::KeyReused)
            };
        }
        let payment = db::find_transaction(tx, refund.payment_id)
            .await?
            .filter(|payment| payment.user_id == refund.user_id && payment.kind == "credit.pay")
            .ok_or(LedgerError::NotFound("no such payment"))?;
        if payment.status == TxStatus::Failed {
            return Err(LedgerError::Conflict("the payment was already refunded"));
        }
        let refunds = self.system(tx, "refund").await?;
        let credit_refund = Related::new(payment.id, "credit.refund", payment.real_value, json!({}))
            .keyed(REFUND, &refund.key);
        credit_from_system(tx, &player, credit_refund, refunds).await?;
        db::touch(tx, payment.id, Some(TxStatus::Failed), None).await?;
        view(tx, payment.id).await
    }
}
