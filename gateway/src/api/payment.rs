//! The top-up area: payment methods, the card fee table, card submission, and the signed-in
//! player's latest transactions.

use axum::{Json, extract::State, http::StatusCode};
use kid_contracts::{
    payment::v1::{self as payment_pb, ListCardFeesRequest, ListMethodsRequest, SubmitCardRequest},
    wallet::v1::{self as pb, ListTransactionsRequest},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{auth::require_captcha, me::rfc3339, rate};
use crate::{
    client_address::ClientAddress,
    error::{ApiResult, ValidJson},
    session::SignedIn,
    state::AppState,
};
use kid_contracts::messages::top_up::MSG_CARD_SENT;

/// The spec's history shows the latest 10.
const HISTORY_LENGTH: i32 = 10;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(transaction_history))
        .routes(routes!(methods))
        .routes(routes!(card_fees))
        .routes(routes!(card_recharge))
}

/// How a bank or e-wallet entry is paid.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
enum MethodKind {
    BankTransfer,
    EWallet,
    Card,
}

/// A bank or e-wallet entry of the spec's payment methods (section 3).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = TransferMethod)]
struct TransferMethodBody {
    code: String,
    name: String,
    exchange_rate: f64,
    qr_code_data: String,
    payment_syntax: String,
    account_name: String,
    account_number: String,
    mobile_account_number: String,
    #[serde(rename = "type")]
    kind: MethodKind,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CardProvider)]
struct CardProviderBody {
    code: String,
    name: String,
    exchange_rate: f64,
    payable_values: Vec<i64>,
    /// False for a brand temporarily not taken ('Thẻ {provider} tạm thời chưa được hỗ trợ').
    enabled: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PaymentMethods)]
struct MethodsBody {
    bank_transfers: Vec<TransferMethodBody>,
    e_wallets: Vec<TransferMethodBody>,
    cards: Vec<CardProviderBody>,
}

fn transfer_method(method: payment_pb::TransferMethod) -> TransferMethodBody {
    let kind = match method.r#type() {
        payment_pb::MethodType::EWallet => MethodKind::EWallet,
        payment_pb::MethodType::Card => MethodKind::Card,
        _ => MethodKind::BankTransfer,
    };
    TransferMethodBody {
        exchange_rate: rate(&method.exchange_rate),
        code: method.code,
        name: method.name,
        qr_code_data: method.qr_code_data,
        payment_syntax: method.payment_syntax,
        account_name: method.account_name,
        account_number: method.account_number,
        mobile_account_number: method.mobile_account_number,
        kind,
    }
}

/// The banks, e-wallets and card brands the player can top up with.
#[utoipa::path(
    get,
    path = "/payment/methods",
    security(("session" = [])),
    responses((status = 200, description = "The payment methods.", body = MethodsBody))
)]
async fn methods(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
) -> ApiResult<Json<MethodsBody>> {
    let methods = state
        .payment()
        .list_methods(ListMethodsRequest { user_id })
        .await?
        .into_inner();
    Ok(Json(MethodsBody {
        bank_transfers: methods.bank_transfers.into_iter().map(transfer_method).collect(),
        e_wallets: methods.e_wallets.into_iter().map(transfer_method).collect(),
        cards: methods
            .cards
            .into_iter()
            .map(|card| CardProviderBody {
                exchange_rate: rate(&card.exchange_rate),
                code: card.code,
                name: card.name,
                payable_values: card.payable_values,
                enabled: card.enabled,
            })
            .collect(),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CardFee)]
struct CardFeeBody {
    provider: String,
    value: i64,
    fee_percent: f64,
}

/// The fee kept on each card brand and face value, in percent.
#[utoipa::path(
    get,
    path = "/payment/card-recharge/fees",
    security(("session" = [])),
    responses((status = 200, description = "The card fee table.", body = Vec<CardFeeBody>))
)]
async fn card_fees(State(state): State<AppState>, _signed_in: SignedIn) -> ApiResult<Json<Vec<CardFeeBody>>> {
    let fees = state
        .payment()
        .list_card_fees(ListCardFeesRequest {})
        .await?
        .into_inner()
        .fees;
    Ok(Json(
        fees.into_iter()
            .map(|fee| CardFeeBody {
                fee_percent: rate(&fee.fee_percent),
                provider: fee.provider,
                value: fee.value,
            })
            .collect(),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CardBody {
    #[serde(default)]
    provider: String,
    #[serde(default)]
    value: i64,
    #[serde(default)]
    pin: String,
    #[serde(default)]
    serial: String,
    #[serde(default)]
    g_re_captcha_token: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CardSent)]
struct CardSentBody {
    order_id: String,
    message: &'static str,
}

/// Sends a phone card to the aggregator; its result arrives later (the history shows it
/// pending until then).
#[utoipa::path(
    post,
    path = "/payment/card-recharge",
    security(("session" = [])),
    request_body = CardBody,
    responses((status = 202, description = "Sent; the result comes later.", body = CardSentBody))
)]
async fn card_recharge(
    State(state): State<AppState>,
    client: ClientAddress,
    SignedIn { user_id, .. }: SignedIn,
    ValidJson(body): ValidJson<CardBody>,
) -> ApiResult<(StatusCode, Json<CardSentBody>)> {
    require_captcha(
        &state,
        &body.g_re_captcha_token,
        "cardRechargeFormSubmit",
        &client.text(),
    )
    .await?;
    let sent = state
        .payment()
        .submit_card(SubmitCardRequest {
            user_id,
            provider: body.provider,
            value: body.value,
            pin: body.pin,
            serial: body.serial,
        })
        .await?
        .into_inner();
    Ok((
        StatusCode::ACCEPTED,
        Json(CardSentBody {
            order_id: sent.order_id,
            message: MSG_CARD_SENT,
        }),
    ))
}

/// Where a transaction stands.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TransactionStatus {
    Pending,
    Success,
    Failed,
    Unknown,
}

/// The spec's Transaction (section 3).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Transaction)]
pub struct TransactionBody {
    pub id: String,
    /// `topup.bank-transfer`, `topup.e-wallet`, `topup.card`, `credit.pay`, `credit.recharge`,
    /// `credit.bonus`, `credit.recall`, `credit.refund`, or a kind added later.
    #[serde(rename = "type")]
    pub kind: String,
    pub status: TransactionStatus,
    /// VND for top-ups (amount transferred or card value), KP for credit.pay (KP spent).
    pub real_value: i64,
    pub currency: String,
    #[schema(required = true)]
    pub updated_at: Option<String>,
    /// When the transaction was made; the full history is ordered by it.
    #[schema(required = true)]
    pub created_at: Option<String>,
    pub payload: PayloadBody,
    pub related_transactions: Vec<RelatedBody>,
}

#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = TransactionPayload)]
pub struct PayloadBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serial: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<MetadataBody>,
    /// The campaign of a `giftcode` transaction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub campaign: Option<String>,
    /// An `adjustment`'s direction: `credit` or `clawback`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// Why support adjusted the KP (an `adjustment`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What a credit payment bought (credit.pay only).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = TransactionMetadata)]
pub struct MetadataBody {
    pub coin: i64,
    pub coin_bonus: i64,
    pub product_code: String,
    pub product_name: String,
    pub coin_name: String,
}

/// A ledger entry caused by a transaction, e.g. the KP a top-up credited.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RelatedTransaction)]
pub struct RelatedBody {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub real_value: i64,
}

fn present(value: String) -> Option<String> {
    (!value.is_empty()).then_some(value)
}

impl From<pb::Transaction> for TransactionBody {
    fn from(transaction: pb::Transaction) -> Self {
        let status = match transaction.status() {
            pb::TransactionStatus::Pending => TransactionStatus::Pending,
            pb::TransactionStatus::Success => TransactionStatus::Success,
            pb::TransactionStatus::Failed => TransactionStatus::Failed,
            pb::TransactionStatus::Unspecified => TransactionStatus::Unknown,
        };
        let payload = transaction.payload.unwrap_or_default();
        Self {
            id: transaction.id,
            kind: transaction.r#type,
            status,
            real_value: transaction.real_value,
            currency: transaction.currency,
            updated_at: rfc3339(transaction.updated_at),
            created_at: rfc3339(transaction.created_at),
            payload: PayloadBody {
                source: present(payload.source),
                provider: present(payload.provider),
                serial: present(payload.serial),
                error_code: present(payload.error_code),
                campaign: present(payload.campaign),
                direction: present(payload.direction),
                reason: present(payload.reason),
                metadata: payload.metadata.map(|metadata| MetadataBody {
                    coin: metadata.coin,
                    coin_bonus: metadata.coin_bonus,
                    product_code: metadata.product_code,
                    product_name: metadata.product_name,
                    coin_name: metadata.coin_name,
                }),
            },
            related_transactions: transaction
                .related_transactions
                .into_iter()
                .map(|related| RelatedBody {
                    id: related.id,
                    kind: related.r#type,
                    real_value: related.real_value,
                })
                .collect(),
        }
    }
}

/// The player's latest transactions, newest first.
#[utoipa::path(
    get,
    path = "/payment/transaction-history",
    security(("session" = [])),
    responses((status = 200, description = "The latest 10 transactions.", body = Vec<TransactionBody>))
)]
async fn transaction_history(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
) -> ApiResult<Json<Vec<TransactionBody>>> {
    let response = state
        .wallet()
        .list_transactions(ListTransactionsRequest {
            user_id,
            limit: HISTORY_LENGTH,
        })
        .await?;
    Ok(Json(
        response
            .into_inner()
            .transactions
            .into_iter()
            .map(Into::into)
            .collect(),
    ))
}
