//! The card aggregator's simulator, for development, the chaos suite and the bench: it speaks
//! the charging API aggregators share (`domain::charging`) over loopback, as an aggregator
//! whose dashboard holds our callback URL. A card is taken with status 99 and called back after
//! a delay, as JSON by POST with its `callback_sign`, with the result chosen by the last four
//! digits of its PIN:
//!
//! | PIN ends in | callback |
//! |---|---|
//! | `0001` | status 3, "Thẻ không tồn tại" (no such card) |
//! | `0002` | status 3, "Thẻ sai" (a bad card) |
//! | `0003` | status 2, worth half the declared value |
//! | `0008` | none: status 1 at the declared value, but the callback is lost (`check` finds it) |
//! | `0009` | none: the card stays at 99 until `correct` answers it |
//! | anything else | status 1 at the declared value |
//!
//! A request whose `sign` is wrong is answered status 100, as the aggregators do. `getfee`
//! answers a price list a few points under the development portal's own fees. `command=check`
//! answers a card's current result. `POST /cards/{request_id}/correct` with `{"value": n}`
//! answers a card it took, again or for the first time: status 1 at the declared value, 2 at a
//! smaller `n`, and 3 at 0, as an aggregator does when it finds a card worth less after all.

use std::{collections::HashMap, net::SocketAddr, sync::Arc, time::Duration};

use axum::{
    Form, Json, Router,
    extract::{Path, Query, State},
    http::StatusCode,
    routing::{get, post},
};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::{net::TcpListener, sync::Mutex};
use tokio_util::sync::CancellationToken;

use crate::domain::charging::{self, Command, SignScheme, Signed};

pub const DEFAULT_DELAY: Duration = Duration::from_secs(2);

/// The status, message and value the simulator gives a PIN by itself; none for a card it holds.
pub fn outcome_for(pin: &str, declared: i64) -> Option<(i64, &'static str, i64)> {
    match pin.get(pin.len().saturating_sub(4)..).unwrap_or_default() {
        "0001" => Some((3, "Thẻ không tồn tại", 0)),
        "0002" => Some((3, "Thẻ sai", 0)),
        "0003" => Some((2, "Sai mệnh giá", declared / 2)),
        "0008" | "0009" => None,
        _ => Some((1, "Thành công", declared)),
    }
}

/// The result the simulator reaches for a PIN but never calls back: only `check` tells it.
fn lost_callback(pin: &str, declared: i64) -> Option<(i64, &'static str, i64)> {
    pin.ends_with("0008").then_some((1, "Thành công", declared))
}

/// The status and message of an answer at `value` for a card declared at `declared`.
fn answer_status(value: i64, declared: i64) -> (i64, &'static str) {
    if value <= 0 {
        (3, "Thẻ sai")
    } else if value >= declared {
        (1, "Thành công")
    } else {
        (2, "Sai mệnh giá")
    }
}

/// A card the simulator took.
#[derive(Clone)]
struct Taken {
    telco: String,
    code: String,
    serial: String,
    declared: i64,
    trans_id: u64,
    /// The last result called back: status, message, value.
    result: Option<(i64, &'static str, i64)>,
}

#[derive(Clone)]
struct Sim {
    partner_id: String,
    key: Arc<SecretString>,
    scheme: SignScheme,
    callback_url: String,
    delay: Duration,
    client: reqwest::Client,
    cards: Arc<Mutex<(u64, HashMap<String, Taken>)>>,
}

/// The charging API's request.
#[derive(Deserialize)]
struct Request {
    #[serde(default)]
    telco: String,
    #[serde(default)]
    code: String,
    #[serde(default)]
    serial: String,
    #[serde(default)]
    amount: String,
    #[serde(default)]
    request_id: String,
    #[serde(default)]
    partner_id: String,
    #[serde(default)]
    command: String,
    #[serde(default)]
    sign: String,
}

fn report(request_id: &str, card: &Taken, status: i64, message: &str, value: Option<i64>) -> Value {
    json!({
        "status": status,
        "message": message,
        "request_id": request_id,
        "declared_value": card.declared,
        "value": value,
        "amount": value.map(|value| value - value / 5),
        "code": card.code,
        "serial": card.serial,
        "telco": card.telco,
        "trans_id": card.trans_id,
    })
}

impl Sim {
    async fn call_back(&self, request_id: &str, card: &Taken, result: (i64, &'static str, i64)) {
        let (status, message, value) = result;
        let mut body = report(request_id, card, status, message, Some(value));
        body["callback_sign"] = json!(charging::callback_sign(
            self.key.expose_secret(),
            &card.code,
            &card.serial
        ));
        if let Some(taken) = self.cards.lock().await.1.get_mut(request_id) {
            taken.result = Some(result);
        }
        for attempt in 0..5u32 {
            let sent = self.client.post(&self.callback_url).json(&body).send().await;
            match sent {
                Ok(response) if response.status().is_success() || response.status().is_client_error() => {
                    return;
                }
                _ => tokio::time::sleep(Duration::from_millis(200 * 2u64.pow(attempt))).await,
            }
        }
        tracing::warn!(%request_id, "card simulator gave up calling back");
    }
}

fn refused(message: &str) -> Json<Value> {
    Json(json!({ "status": 100, "message": message }))
}

async fn charging(State(sim): State<Sim>, Form(request): Form<Request>) -> Json<Value> {
    let command = match request.command.as_str() {
        "charging" => Command::Charging,
        "check" => Command::Check,
        _ => return refused("command không hợp lệ"),
    };
    let expected = charging::sign(
        sim.key.expose_secret(),
        sim.scheme,
        &Signed {
            telco: &request.telco,
            code: &request.code,
            serial: &request.serial,
            request_id: &request.request_id,
            partner_id: &request.partner_id,
            command,
        },
    );
    if request.partner_id != sim.partner_id || expected != request.sign.to_ascii_lowercase() {
        return refused("Sai chữ ký");
    }
    let mut cards = sim.cards.lock().await;
    if command == Command::Check {
        let Some(card) = cards.1.get(&request.request_id) else {
            return refused("Không tìm thấy thẻ");
        };
        let answer = match card.result {
            Some((status, message, value)) => report(&request.request_id, card, status, message, Some(value)),
            None => report(&request.request_id, card, 99, "PENDING", None),
        };
        return Json(answer);
    }
    let Ok(declared) = request.amount.parse::<i64>() else {
        return refused("amount không hợp lệ");
    };
    if cards.1.contains_key(&request.request_id) {
        return refused("request_id đã tồn tại");
    }
    cards.0 += 1;
    let result = lost_callback(&request.code, declared);
    let taken = Taken {
        telco: request.telco,
        code: request.code,
        serial: request.serial,
        declared,
        trans_id: cards.0,
        result,
    };
    cards.1.insert(request.request_id.clone(), taken.clone());
    drop(cards);
    if let Some(result) = outcome_for(&taken.code, declared) {
        let later = sim.clone();
        let request_id = request.request_id.clone();
        let card = taken.clone();
        tokio::spawn(async move {
            tokio::time::sleep(later.delay).await;
            later.call_back(&request_id, &card, result).await;
        });
    }
    Json(report(&request.request_id, &taken, 99, "PENDING", None))
}

/// The simulator's price list: a few points under the development portal's own fees, grouped
/// by telco as the Postman collection shows it.
async fn fees(State(sim): State<Sim>, Query(query): Query<HashMap<String, String>>) -> Json<Value> {
    if query.get("partner_id") != Some(&sim.partner_id) {
        return refused("partner_id không hợp lệ");
    }
    let values = [
        10_000, 20_000, 50_000, 100_000, 200_000, 300_000, 500_000, 1_000_000, 2_000_000, 5_000_000,
    ];
    let telcos = [
        ("VIETTEL", 12),
        ("VINAPHONE", 11),
        ("MOBIFONE", 12),
        ("VNMOBI", 13),
        ("ZING", 10),
        ("GATE", 10),
        ("VTC", 10),
        ("GARENA", 10),
    ];
    let list: serde_json::Map<String, Value> = telcos
        .into_iter()
        .map(|(telco, fee)| {
            let rows = values
                .iter()
                .map(|value| json!({ "telco": telco, "value": value, "fees": fee, "penalty": 50 }))
                .collect();
            (telco.to_owned(), Value::Array(rows))
        })
        .collect();
    Json(Value::Object(list))
}

#[derive(Deserialize)]
struct Correction {
    value: i64,
}

async fn correct(
    State(sim): State<Sim>,
    Path(request_id): Path<String>,
    Json(correction): Json<Correction>,
) -> StatusCode {
    let Some(card) = sim.cards.lock().await.1.get(&request_id).cloned() else {
        return StatusCode::NOT_FOUND;
    };
    let (status, message) = answer_status(correction.value, card.declared);
    let value = correction.value.clamp(0, card.declared);
    sim.call_back(&request_id, &card, (status, message, value)).await;
    StatusCode::NO_CONTENT
}

/// Where the simulator calls back, and with what it signs.
pub struct Partner {
    pub partner_id: String,
    pub key: SecretString,
    pub scheme: SignScheme,
    pub callback_url: String,
}

/// Serves the simulator on `listener` until `shutdown`.
pub async fn serve(
    listener: TcpListener,
    partner: Partner,
    delay: Duration,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let sim = Sim {
        partner_id: partner.partner_id,
        key: Arc::new(partner.key),
        scheme: partner.scheme,
        callback_url: partner.callback_url,
        delay,
        client: reqwest::Client::new(),
        cards: Arc::default(),
    };
    let app = Router::new()
        .route("/chargingws/v2", post(charging))
        .route("/chargingws/v2/getfee", get(fees))
        .route("/cards/{request_id}/correct", post(correct))
        .with_state(sim);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}

/// Binds `address` and serves the simulator in the background; returns the bound address.
pub async fn spawn(
    address: &str,
    partner: Partner,
    delay: Duration,
    shutdown: CancellationToken,
) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    tokio::spawn(async move {
        if let Err(error) = serve(listener, partner, delay, shutdown).await {
            tracing::error!(%error, "card simulator stopped");
        }
    });
    Ok(bound)
}
