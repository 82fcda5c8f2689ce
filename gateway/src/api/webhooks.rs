//! Webhooks of outside parties: the bank feed's incoming transfers (SePay's or Casso's webhook)
//! and the card aggregator's results (the charging API's callback). The body is passed to the
//! payment service unread, with the headers that may carry the provider's credential: the
//! service verifies it before reading anything. They answer machines, so in plain JSON:
//! `{"success": true, ...}`, or `{"success": false, "message": "..."}` with 400 (malformed),
//! 401 (signature), 404 (unknown card order) or 503.

use std::collections::HashMap;

use axum::{
    Json,
    body::Bytes,
    extract::State,
    http::{HeaderMap, StatusCode, header::CONTENT_TYPE},
    response::{IntoResponse, Response},
};
use kid_contracts::payment::v1::{ReceiveBankTransferRequest, ReceiveCardCallbackRequest};
use kid_platform::webhook::{CREDENTIAL_HEADERS, MAX_HEADER_LENGTH};
use serde::Serialize;
use tower_http::limit::RequestBodyLimitLayer;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::state::AppState;

/// A transfer notification or card callback is a few hundred bytes. (A credential header over
/// `MAX_HEADER_LENGTH` is not even forwarded: the payment service would refuse it.)
const MAX_BODY: usize = 64 * 1024;

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

impl WebhookAnswer {
    /// Received; a `duplicate` was received before (and changed nothing now).
    fn received(duplicate: bool) -> Self {
        Self {
            success: true,
            duplicate: Some(duplicate),
            ..Self::default()
        }
    }
}

/// The headers that may carry the provider's credential, or the 400 for one too long to be one.
fn credentials(headers: &HeaderMap) -> Result<HashMap<String, String>, tonic::Status> {
    let mut forwarded = HashMap::new();
    for name in CREDENTIAL_HEADERS {
        let Some(value) = headers.get(name) else {
            continue;
        };
        if value.len() > MAX_HEADER_LENGTH {
            return Err(tonic::Status::invalid_argument(format!(
                "the {name} header is longer than {MAX_HEADER_LENGTH} bytes"
            )));
        }
        forwarded.insert(
            name.to_owned(),
            String::from_utf8_lossy(value.as_bytes()).into_owned(),
        );
    }
    Ok(forwarded)
}

fn refusal(status: tonic::Status) -> Response {
    use tonic::Code;
    let (code, message) = match status.code() {
        Code::Unauthenticated => (
            StatusCode::UNAUTHORIZED,
            format!("credential refused: {}", status.message()),
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

fn answer(answer: Result<WebhookAnswer, tonic::Status>) -> Response {
    match answer {
        Ok(answer) => Json(answer).into_response(),
        Err(status) => refusal(status),
    }
}

/// The bank feed's incoming transfer.
#[utoipa::path(
    post,
    path = "/webhooks/bank-transfer",
    request_body(content = Object, description = "The bank feed's notification."),
    responses((status = 200, description = "Received.", body = WebhookAnswer))
)]
async fn bank_transfer(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    answer(
        async {
            let headers = credentials(&headers)?;
            let request = ReceiveBankTransferRequest {
                body: body.to_vec(),
                headers,
            };
            let response = state.payment().receive_bank_transfer(request).await?.into_inner();
            Ok(WebhookAnswer {
                matched: Some(response.matched),
                ..WebhookAnswer::received(response.duplicate)
            })
        }
        .await,
    )
}

/// The card aggregator's result for a card order, in the charging API's fields (JSON or a
/// form), signed by its `callback_sign`.
#[utoipa::path(
    post,
    path = "/webhooks/card",
    request_body(content = Object, description = "The aggregator's callback."),
    responses(
        (status = 200, description = "Received.", body = WebhookAnswer),
        (status = 404, description = "No such card order.", body = WebhookAnswer)
    )
)]
async fn card(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    answer(
        async {
            let content_type = headers
                .get(CONTENT_TYPE)
                .and_then(|value| value.to_str().ok())
                .unwrap_or_default()
                .to_owned();
            let request = ReceiveCardCallbackRequest {
                body: body.to_vec(),
                content_type,
            };
            let response = state.payment().receive_card_callback(request).await?.into_inner();
            Ok(WebhookAnswer::received(response.duplicate))
        }
        .await,
    )
}
