//! `GET /api/payment/transaction-history`: the signed-in player's latest transactions.

use axum::{Json, Router, extract::State, routing::get};
use kid_proto::wallet::v1::{self as pb, ListTransactionsRequest};
use serde::Serialize;

use super::me::rfc3339;
use crate::{error::ApiResult, session::SignedIn, state::AppState};

/// The spec's history shows the latest 10.
const HISTORY_LENGTH: i32 = 10;

pub fn router() -> Router<AppState> {
    Router::new().route("/payment/transaction-history", get(transaction_history))
}

/// The spec's Transaction (section 3).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionBody {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub status: &'static str,
    pub real_value: i64,
    pub currency: String,
    pub updated_at: Option<String>,
    pub payload: PayloadBody,
    pub related_transactions: Vec<RelatedBody>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
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
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MetadataBody {
    pub coin: i64,
    pub coin_bonus: i64,
    pub product_code: String,
    pub product_name: String,
    pub coin_name: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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
            pb::TransactionStatus::Pending => "pending",
            pb::TransactionStatus::Success => "success",
            pb::TransactionStatus::Failed => "failed",
            pb::TransactionStatus::Unspecified => "unknown",
        };
        let payload = transaction.payload.unwrap_or_default();
        Self {
            id: transaction.id,
            kind: transaction.r#type,
            status,
            real_value: transaction.real_value,
            currency: transaction.currency,
            updated_at: rfc3339(transaction.updated_at),
            payload: PayloadBody {
                source: present(payload.source),
                provider: present(payload.provider),
                serial: present(payload.serial),
                error_code: present(payload.error_code),
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

async fn transaction_history(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
) -> ApiResult<Json<Vec<TransactionBody>>> {
    let response = state
        .clients
        .wallet
        .clone()
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
