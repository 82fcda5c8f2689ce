//! Events between services on the events exchange: each routing key and the body published on
//! it. The publisher writes them through its outbox; the consumer reads them through its inbox.

/// Top-ups the payment service received, for the wallet to credit (bank, e-wallet, card).
pub const TOPUP_OPENED: &str = "payment.topup.opened";
pub const TOPUP_RECEIVED: &str = "payment.topup.received";
pub const TOPUP_FAILED: &str = "payment.topup.failed";
pub const TOPUP_CORRECTED: &str = "payment.topup.corrected";

/// The kinds of top-up, as the ledger names their transactions.
pub const BANK_TRANSFER: &str = "bank-transfer";
pub const E_WALLET: &str = "e-wallet";
pub const CARD: &str = "card";

/// `payment.topup.opened`: a card was sent to the aggregator; the history shows it pending.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopupOpened {
    pub idempotency_key: String,
    pub user_id: uuid::Uuid,
    pub topup_type: String,
    pub source: String,
    /// The declared face value.
    pub amount_vnd: i64,
    pub card_serial: String,
}

/// `payment.topup.received`: money arrived; the wallet credits `kp` plus the partner bonus.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopupReceived {
    pub idempotency_key: String,
    pub user_id: uuid::Uuid,
    pub topup_type: String,
    pub source: String,
    /// VND actually received: the transfer amount or the card's real value.
    pub amount_vnd: i64,
    /// Base KP, floored by the payment service.
    pub kp: i64,
    #[serde(default)]
    pub card_serial: String,
    #[serde(default)]
    pub error_code: String,
    /// When the money reached us (the bank feed's notification or the aggregator's callback
    /// arrived): the top-up SLO measures the wallet's credit from here. Absent from events
    /// published before it existed.
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub received_at: Option<time::OffsetDateTime>,
}

/// `payment.topup.failed`: the aggregator refused a card.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopupFailed {
    pub idempotency_key: String,
    pub user_id: uuid::Uuid,
    pub error_code: String,
}

/// `payment.topup.corrected`: the aggregator lowered a credited card's value; `kp` is recalled
/// (with the bonus it earned). It may overtake its `received`: the wallet then holds it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TopupCorrected {
    /// This correction's own key.
    pub idempotency_key: String,
    /// The key the top-up was credited with.
    pub topup_key: String,
    pub user_id: uuid::Uuid,
    pub kp: i64,
    pub corrected_amount_vnd: i64,
}

/// The recharge service's instructions to the wallet about a coin payment it debited.
pub const PAYMENT_SETTLED: &str = "recharge.payment.settled";
pub const PAYMENT_REFUND: &str = "recharge.payment.refund";

/// `recharge.payment.settled`: the game delivered the coin; the payment shows success.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentSettled {
    pub order_id: uuid::Uuid,
    pub user_id: uuid::Uuid,
    /// The credit.pay transaction.
    pub transaction_id: uuid::Uuid,
}

/// `recharge.payment.refund`: the game failed or never answered; the KP goes back.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRefund {
    /// `refund:<order id>`: one refund per order, however often this is delivered.
    pub idempotency_key: String,
    pub order_id: uuid::Uuid,
    pub user_id: uuid::Uuid,
    /// The credit.pay transaction refunded.
    pub transaction_id: uuid::Uuid,
    pub reason: String,
}

/// `identity.account.erased`: a closed account's personal data was erased (30 days after its
/// owner closed it). Services that keep the player's username beside their records (recharge's
/// orders and item grants) replace it with `placeholder`; money records keep `user_id`, the
/// opaque id.
pub const ACCOUNT_ERASED: &str = "identity.account.erased";

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountErased {
    pub user_id: uuid::Uuid,
    /// What the account's username became: `xoa_` and 28 hex digits of the id.
    pub placeholder: String,
}
