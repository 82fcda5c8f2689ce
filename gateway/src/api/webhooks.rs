//! Webhooks of outside parties: the bank feed's incoming transfers and the card aggregator's
//! results. The body is passed to the payment service unread, with its `X-Signature`: the
//! service verifies it before reading anything. They answer machines, so in plain JSON:
//! `{"success": true, ...}`, or `{"success": false, "message": "..."}` with 400 (malformed),
//! 401 (signature), 404 (unknown card order) or 503.

use axum::{
    Json,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use kid_proto::payment::v1::{ReceiveBankTransferRequest, ReceiveCardCallbackRequest};
use serde::Serialize;
use tower_http::limit::RequestBodyLimitLayer;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::state::AppState;

/// A transfer notification or card callback is a few hundred bytes.
const MAX_BODY: usize = 64 * 1024;
/// The payment service refuses a signature header over 1 KiB (each `v1=` costs an HMAC of
/// the body); a longer one is not even forwarded.
const MAX_SIGNATURE_HEADER: usize = 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(bank_transfer))
        .routes(routes!(card))
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
}

/// A webhook's answer to the outside party.
#[derive(Debug, Default, Serialize, ToSchema)]
struct WebhookAnswer {
    success: bool,
    /// Why it was refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// The notification was received before (and changed nothing now).
    #[serde(skip_serializing_if = "Option::is_none")]
    duplicate: Option<bool>,
    /// A transfer whose content named a player (else kept for support to match).
    #[serde(skip_serializing_if = "Option::is_none")]
    matched: Option<bool>,
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
    let answer = WebhookAnswer {
        message: Some(message),
        ..WebhookAnswer::default()
    };
    (code, Json(answer)).into_response()
}

/// The bank feed's incoming transfer, signed with `X-Signature`.
#[utoipa::path(
    post,
    path = "/webhooks/bank-transfer",
    tag = "webhooks",
    params(("X-Signature" = String, Header, description = "Up to 4 `v1=<hex HMAC-SHA256>` entries in at most 1 KiB.")),
    request_body(content = Object, content_type = "application/json", description = "The bank feed's notification, read only once its signature is verified."),
    responses(
        (status = 200, description = "Received.", body = WebhookAnswer),
        (status = 400, description = "Malformed, or a signature header over its bounds.", body = WebhookAnswer),
        (status = 401, description = "The signature is wrong.", body = WebhookAnswer),
        (status = 413, description = "The body is over 64 KiB."),
        (status = 503, description = "Retry later.", body = WebhookAnswer)
    )
)]
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
            Json(WebhookAnswer {
                success: true,
                duplicate: Some(response.duplicate),
                matched: Some(response.matched),
                ..WebhookAnswer::default()
            })
            .into_response()
        }
        Err(status) => refusal(status),
    }
}

/// The card aggregator's result for a card order, signed with `X-Signature`.
#[utoipa::path(
    post,
    path = "/webhooks/card",
    tag = "webhooks",
    params(("X-Signature" = String, Header, description = "Up to 4 `v1=<hex HMAC-SHA256>` entries in at most 1 KiB.")),
    request_body(content = Object, content_type = "application/json", description = "The aggregator's callback, read only once its signature is verified."),
    responses(
        (status = 200, description = "Received.", body = WebhookAnswer),
        (status = 400, description = "Malformed, or a signature header over its bounds.", body = WebhookAnswer),
        (status = 401, description = "The signature is wrong.", body = WebhookAnswer),
        (status = 404, description = "No such card order.", body = WebhookAnswer),
        (status = 413, description = "The body is over 64 KiB."),
        (status = 503, description = "Retry later.", body = WebhookAnswer)
    )
)]
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
        Ok(response) => Json(WebhookAnswer {
            success: true,
            duplicate: Some(response.into_inner().duplicate),
            ..WebhookAnswer::default()
        })
        .into_response(),
        Err(status) => refusal(status),
    }
}
