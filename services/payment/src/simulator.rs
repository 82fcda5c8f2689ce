//! The card aggregator's simulator, for development and tests: it speaks the aggregator's
//! protocol (see `aggregator`) over loopback. A card is taken at once and called back after a
//! delay, with the outcome chosen by the last four digits of its PIN:
//!
//! | PIN ends in | callback |
//! |---|---|
//! | `0001` | NOT_FOUND |
//! | `0002` | INVALID |
//! | `0003` | WRONG_AMOUNT, real value half the declared one |
//! | `0009` | none: the card stays pending until `correct` answers it |
//! | anything else | SUCCESS at the declared value |
//!
//! `POST /cards/{requestId}/correct` with `{"value": n}` answers a card it took, again or for
//! the first time: SUCCESS when `n` is the declared value, WRONG_AMOUNT at a smaller `n`, and
//! INVALID at 0, as the aggregator does when it finds a card worth less after all.

use std::{collections::HashMap, net::SocketAddr, sync::Arc, time::Duration};

use axum::{
    Json, Router,
    body::Bytes,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    routing::post,
};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde_json::json;
use tokio::{net::TcpListener, sync::Mutex};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{
    aggregator::{CardCallback, CardRequest},
    domain::signature,
};

pub const DEFAULT_DELAY: Duration = Duration::from_secs(2);

/// The outcome the simulator gives a PIN by itself; none for a card it holds.
pub fn outcome_for(pin: &str, declared: i64) -> Option<(&'static str, i64)> {
    match pin.get(pin.len().saturating_sub(4)..).unwrap_or_default() {
        "0001" => Some(("NOT_FOUND", 0)),
        "0002" => Some(("INVALID", 0)),
        "0003" => Some(("WRONG_AMOUNT", declared / 2)),
        "0009" => None,
        _ => Some(("SUCCESS", declared)),
    }
}

/// The status of an answer at `value` for a card declared at `declared`.
fn answer_status(value: i64, declared: i64) -> &'static str {
    if value <= 0 {
        "INVALID"
    } else if value >= declared {
        "SUCCESS"
    } else {
        "WRONG_AMOUNT"
    }
}

/// A card the simulator took, for a later correction.
#[derive(Clone)]
struct Taken {
    callback_url: String,
    declared: i64,
    transaction_id: String,
}

#[derive(Clone)]
struct Sim {
    secret: Arc<SecretString>,
    delay: Duration,
    client: reqwest::Client,
    cards: Arc<Mutex<HashMap<Uuid, Taken>>>,
}

impl Sim {
    async fn call_back(&self, callback: CardCallback, url: &str) {
        let Ok(body) = serde_json::to_vec(&callback) else {
            return;
        };
        let signature = signature::sign_now(self.secret.expose_secret().as_bytes(), &body);
        for attempt in 0..5u32 {
            let sent = self
                .client
                .post(url)
                .header("content-type", "application/json")
                .header("x-signature", &signature)
                .body(body.clone())
                .send()
                .await;
            match sent {
                Ok(response) if response.status().is_success() || response.status().is_client_error() => {
                    return;
                }
                _ => tokio::time::sleep(Duration::from_millis(200 * 2u64.pow(attempt))).await,
            }
        }
        tracing::warn!(request_id = %callback.request_id, "card simulator gave up calling back");
    }
}

async fn take(
    State(sim): State<Sim>,
    headers: HeaderMap,
    body: Bytes,
) -> (StatusCode, Json<serde_json::Value>) {
    let header = headers
        .get("x-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    if signature::verify(sim.secret.expose_secret().as_bytes(), header, &body, now).is_err() {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({ "message": "bad signature" })),
        );
    }
    let Ok(card) = serde_json::from_slice::<CardRequest>(&body) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({ "message": "malformed card" })),
        );
    };
    let transaction_id = format!("SIM-{}", Uuid::new_v4().simple());
    let taken = Taken {
        callback_url: card.callback_url.clone(),
        declared: card.value,
        transaction_id: transaction_id.clone(),
    };
    sim.cards.lock().await.insert(card.request_id, taken);
    if let Some((status, value)) = outcome_for(&card.pin, card.value) {
        let callback = CardCallback {
            request_id: card.request_id,
            transaction_id: transaction_id.clone(),
            status: status.to_owned(),
            declared_value: card.value,
            value,
        };
        let later = sim.clone();
        tokio::spawn(async move {
            tokio::time::sleep(later.delay).await;
            later.call_back(callback, &card.callback_url).await;
        });
    }
    (
        StatusCode::ACCEPTED,
        Json(json!({ "transactionId": transaction_id })),
    )
}

#[derive(Deserialize)]
struct Correction {
    value: i64,
}

async fn correct(
    State(sim): State<Sim>,
    Path(request_id): Path<Uuid>,
    Json(correction): Json<Correction>,
) -> StatusCode {
    let Some(taken) = sim.cards.lock().await.get(&request_id).cloned() else {
        return StatusCode::NOT_FOUND;
    };
    let callback = CardCallback {
        request_id,
        transaction_id: taken.transaction_id,
        status: answer_status(correction.value, taken.declared).to_owned(),
        declared_value: taken.declared,
        value: correction.value.clamp(0, taken.declared),
    };
    sim.call_back(callback, &taken.callback_url).await;
    StatusCode::NO_CONTENT
}

/// Serves the simulator on `listener` until `shutdown`.
pub async fn serve(
    listener: TcpListener,
    secret: SecretString,
    delay: Duration,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let sim = Sim {
        secret: Arc::new(secret),
        delay,
        client: reqwest::Client::new(),
        cards: Arc::default(),
    };
    let app = Router::new()
        .route("/cards", post(take))
        .route("/cards/{request_id}/correct", post(correct))
        .with_state(sim);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}

/// Binds `address` and serves the simulator in the background; returns the bound address.
pub async fn spawn(
    address: &str,
    secret: SecretString,
    delay: Duration,
    shutdown: CancellationToken,
) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    tokio::spawn(async move {
        if let Err(error) = serve(listener, secret, delay, shutdown).await {
            tracing::error!(%error, "card simulator stopped");
        }
    });
    Ok(bound)
}
