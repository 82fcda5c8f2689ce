//! The card aggregator: we send it each card with our signature, and it calls our webhook back
//! with the card's result, signed the same way. The protocol, which the simulator speaks too:
//!
//! - `POST {aggregator_url}/cards`, header `X-Signature`, JSON body [`CardRequest`]; 2xx with
//!   `{"transactionId": "..."}` when taken, 4xx with `{"message": "..."}` when refused.
//! - Later, `POST {callbackUrl}`, header `X-Signature`, JSON body [`CardCallback`]. A later
//!   callback for the same `requestId` with a lower `value` (or a failed status) corrects it.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::domain::signature;

#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardRequest {
    pub partner_id: String,
    /// Our order id; the callback names it.
    pub request_id: Uuid,
    pub provider: String,
    pub value: i64,
    pub pin: String,
    pub serial: String,
    pub callback_url: String,
}

/// The PIN is a bearer secret: never in a log line, whatever formats the request.
impl std::fmt::Debug for CardRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardRequest")
            .field("request_id", &self.request_id)
            .field("provider", &self.provider)
            .field("value", &self.value)
            .field("pin", &"<redacted>")
            .field("serial", &self.serial)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CardCallback {
    pub request_id: Uuid,
    #[serde(default)]
    pub transaction_id: String,
    /// SUCCESS, WRONG_AMOUNT, NOT_FOUND or INVALID.
    pub status: String,
    pub declared_value: i64,
    /// The card's real value (0 when it is not good).
    pub value: i64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Accepted {
    transaction_id: String,
}

#[derive(Debug, Deserialize)]
struct Refusal {
    #[serde(default)]
    message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum AggregatorError {
    /// The aggregator answered and will not take the card.
    #[error("refused: {0}")]
    Refused(String),
    /// No clear answer: the aggregator may or may not have the card; its callback decides.
    #[error("no answer: {0}")]
    Unavailable(String),
}

/// Sends cards to the aggregator.
#[tonic::async_trait]
pub trait Aggregator: Send + Sync + 'static {
    /// The aggregator's reference for the card.
    async fn submit(&self, card: &CardRequest) -> Result<String, AggregatorError>;
}

/// The real adapter: signed HTTPS requests.
pub struct HttpAggregator {
    client: reqwest::Client,
    url: String,
    secret: SecretString,
}

impl HttpAggregator {
    pub fn new(url: &str, secret: SecretString, timeout: Duration) -> Result<Self, reqwest::Error> {
        Ok(Self {
            client: reqwest::Client::builder().timeout(timeout).build()?,
            url: format!("{}/cards", url.trim_end_matches('/')),
            secret,
        })
    }
}

#[tonic::async_trait]
impl Aggregator for HttpAggregator {
    async fn submit(&self, card: &CardRequest) -> Result<String, AggregatorError> {
        let body =
            serde_json::to_vec(card).map_err(|error| AggregatorError::Unavailable(error.to_string()))?;
        let signature = signature::sign_now(self.secret.expose_secret().as_bytes(), &body);
        let response = self
            .client
            .post(&self.url)
            .header("content-type", "application/json")
            .header("x-signature", signature)
            .body(body)
            .send()
            .await
            // Never the request itself in the message: it holds the PIN.
            .map_err(|error| AggregatorError::Unavailable(error.without_url().to_string()))?;
        let status = response.status();
        if status.is_success() {
            let accepted: Accepted = response
                .json()
                .await
                .map_err(|error| AggregatorError::Unavailable(error.to_string()))?;
            Ok(accepted.transaction_id)
        } else if status.is_client_error() {
            let refusal: Refusal = response.json().await.unwrap_or(Refusal {
                message: status.to_string(),
            });
            Err(AggregatorError::Refused(refusal.message))
        } else {
            Err(AggregatorError::Unavailable(status.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_request_never_shows_its_pin() {
        let request = CardRequest {
            partner_id: "kid".into(),
            request_id: Uuid::nil(),
            provider: "viettel".into(),
            value: 100_000,
            pin: "123456789015678".into(),
            serial: "20000000000001".into(),
            callback_url: "http://127.0.0.1/api/webhooks/card".into(),
        };
        let shown = format!("{request:?}");
        assert!(!shown.contains("123456789015678"), "{shown}");
        assert!(shown.contains("20000000000001"), "{shown}");
    }
}
