//! Webhooks of outside parties: the bank feed's incoming transfers and the card aggregator's
//! results. The body is passed to the payment service unread, with its `X-Signature`: the
//! service verifies it before reading anything. They answer machines, so in plain JSON:
//! `{"success": true, ...}`, or `{"success": false, "message": "..."}` with 400 (malformed),
//! 401 (signature), 404 (unknown card order) or 503.

use axum::{
    Json, Router,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
    routing::post,
};
use kid_proto::payment::v1::{ReceiveBankTransferRequest, ReceiveCardCallbackRequest};
use serde_json::json;
use tower_http::limit::RequestBodyLimitLayer;

use crate::state::AppState;

/// A transfer notification or card callback is a few hundred bytes.
const MAX_BODY: usize = 64 * 1024;
/// The payment service refuses a signature header over 1 KiB (each `v1=` costs an HMAC of
/// the body); a longer one is not even forwarded.
const MAX_SIGNATURE_HEADER: usize = 1024;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/webhooks/bank-transfer", post(bank_transfer))
        .route("/webhooks/card", post(card))
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
}

/// The `X-Signature` header, or the 400 for one too long to be a signature.
fn signature(headers: &HeaderMap) -> Result<String, tonic::Status> {
    let value = headers
        .get("x-signature")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    if value.len() > MAX_SIGNATURE_HEADER {
        return Err(tonic::Status::invalid_argument(format!(
            "the X-Signature header is longer than {MAX_SIGNATURE_HEADER} bytes"
        )));
    }
    Ok(value.to_owned())
}

fn refusal(status: tonic::Status) -> Response {
    use tonic::Code;
    let (code, message) = match status.code() {
        Code::Unauthenticated => (
            StatusCode::UNAUTHORIZED,
            format!("signature refused: {}", status.message()),
        ),
        Code::InvalidArgument => (StatusCode::BAD_REQUEST, status.message().to_owned()),
        Code::NotFound => (StatusCode::NOT_FOUND, status.message().to_owned()),
        Code::Unavailable | Code::DeadlineExceeded => (
            StatusCode::SERVICE_UNAVAILABLE,
            "temporarily unavailable, retry later".to_owned(),
        ),
        _ => {
            tracing::error!(code = ?status.code(), message = status.message(), "webhook failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error, retry later".to_owned(),
            )
        }
    };
    (code, Json(json!({ "success": false, "message": message }))).into_response()
}

async fn bank_transfer(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let signature = match signature(&headers) {
        Ok(signature) => signature,
        Err(refused) => return refusal(refused),
    };
    let request = ReceiveBankTransferRequest {
        body: body.to_vec(),
        signature,
    };
    match state.clients.payment.clone().receive_bank_transfer(request).await {
        Ok(response) => {
            let response = response.into_inner();
            Json(json!({ "success": true, "duplicate": response.duplicate, "matched": response.matched }))
                .into_response()
        }
        Err(status) => refusal(status),
    }
}

async fn card(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let signature = match signature(&headers) {
        Ok(signature) => signature,
        Err(refused) => return refusal(refused),
    };
    let request = ReceiveCardCallbackRequest {
        body: body.to_vec(),
        signature,
    };
    match state.clients.payment.clone().receive_card_callback(request).await {
        Ok(response) => {
            Json(json!({ "success": true, "duplicate": response.into_inner().duplicate })).into_response()
        }
        Err(status) => refusal(status),
    }
}
