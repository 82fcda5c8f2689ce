//! Prints figures, asserts nothing: bank-feed webhook to credited balance. Signed transfer
//! notifications go to the gateway's webhook at several concurrencies; each is timed from the
//! moment it is sent to the moment the wallet's ledger holds its credit (the ledger's own
//! commit time), through the payment service, its outbox, RabbitMQ and the wallet's consumer.
//! Runs the whole portal in-process against the local PostgreSQL, Redis and RabbitMQ.
//!
//! `cargo run --release -p kid-bench --bin kid-topup-bench`
//!
//! The concurrent runs send faster than the pipeline credits, so their latencies include the
//! queue that builds up; the paced run shows the path's own latency.

use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use kid_launcher::Stack;
use kid_payment::domain::signature;
use kid_platform::db;
use reqwest::Client;
use secrecy::ExposeSecret;
use serde_json::json;
use time::OffsetDateTime;
use tokio::{sync::Semaphore, task::JoinSet};
use tokio_util::sync::CancellationToken;

const PLAYERS: usize = 16;
const TRANSFERS: usize = 1_000;
const CONCURRENCIES: [usize; 3] = [1, 8, 32];
/// The light-load run: one transfer every 20 ms (50/s), below what the pipeline can credit, so
/// its latencies are the path's own rather than a queue's.
const PACED: (usize, Duration) = (300, Duration::from_millis(20));
const PASSWORD: &str = "Bench@123456";

async fn player(base: &str, username: &str) -> anyhow::Result<String> {
    let http = Client::builder().cookie_store(true).build()?;
    let csrf = http.get(format!("{base}/api/auth/csrf-cookie")).send().await?;
    let token = csrf
        .cookies()
        .find(|cookie| cookie.name() == "XSRF-TOKEN")
        .map(|cookie| cookie.value().to_owned())
        .context("no XSRF-TOKEN")?;
    let body = json!({"email": format!("{username}@bench.example"), "dob": "2000-01-01", "username": username,
        "password": PASSWORD, "passwordConfirm": PASSWORD, "gReCaptchaToken": "dev-captcha"});
    let registered = http
        .post(format!("{base}/api/auth/register"))
        .header("X-XSRF-TOKEN", token)
        .json(&body)
        .send()
        .await?;
    anyhow::ensure!(
        registered.status().is_success(),
        "register answered {}",
        registered.status()
    );
    let methods: serde_json::Value = http
        .get(format!("{base}/api/payment/methods"))
        .send()
        .await?
        .json()
        .await?;
    methods["bankTransfers"][0]["paymentSyntax"]
        .as_str()
        .map(str::to_owned)
        .context("no transfer content")
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

/// Sends `transfers` notifications, `concurrency` at a time (or one per `pace`), then waits
/// until the ledger holds their credits and prints the latencies and the credit rate.
async fn run(
    base: &str,
    secret: &[u8],
    contents: &[String],
    round: usize,
    (transfers, concurrency, pace): (usize, usize, Option<Duration>),
    wallet: &sqlx::PgPool,
) -> anyhow::Result<()> {
    let http = Client::new();
    let url = format!("{base}/api/webhooks/bank-transfer");
    let permits = Arc::new(Semaphore::new(concurrency));
    let mut tasks = JoinSet::new();
    let started = Instant::now();
    for n in 0..transfers {
        if let Some(pace) = pace {
            tokio::time::sleep(pace).await;
        }
        let permit = permits.clone().acquire_owned().await?;
        let id = format!("bench-{round}-{n}");
        let body = serde_json::to_vec(&json!({
            "id": id, "gateway": "Vietcombank", "transactionDate": "2026-11-22 10:00:00",
            "accountNumber": "1023456789", "code": null, "content": format!("IBFT {}", contents[n % contents.len()]),
            "transferType": "in", "transferAmount": 10_000, "referenceCode": id,
        }))?;
        let signature = signature::sign_now(secret, &body);
        let (http, url) = (http.clone(), url.clone());
        tasks.spawn(async move {
            let sent_at = OffsetDateTime::now_utc();
            let answer = http
                .post(url)
                .header("content-type", "application/json")
                .header("x-signature", signature)
                .body(body)
                .send()
                .await;
            drop(permit);
            let ok = answer.is_ok_and(|response| response.status().is_success());
            (id, sent_at, ok)
        });
    }
    let sent: Vec<(String, OffsetDateTime, bool)> = tasks.join_all().await;
    let refused = sent.iter().filter(|(_, _, ok)| !ok).count();
    let sent_at: HashMap<String, OffsetDateTime> = sent
        .into_iter()
        .map(|(id, at, _)| (format!("bank-feed:{id}"), at))
        .collect();

    // Wait until the ledger holds every credit of this round.
    let pattern = format!("bank-feed:bench-{round}-%");
    let deadline = Instant::now() + Duration::from_secs(300);
    let credited: Vec<(String, OffsetDateTime)> = loop {
        let rows: Vec<(String, OffsetDateTime)> = sqlx::query_as(
            "select idempotency_key, created_at from ledger_transaction
             where operation = 'topup' and idempotency_key like $1",
        )
        .bind(&pattern)
        .fetch_all(wallet)
        .await?;
        if rows.len() >= transfers - refused || Instant::now() > deadline {
            break rows;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let elapsed = started.elapsed();
    let mut latencies: Vec<Duration> = credited
        .iter()
        .filter_map(|(key, at)| {
            let sent = sent_at.get(key)?;
            Duration::try_from(*at - *sent).ok()
        })
        .collect();
    latencies.sort();
    println!(
        "{:<28} {:>5} credited ({refused} refused)  p50 {:>9.2?}  p99 {:>9.2?}  {:>7.1} credited top-ups/s",
        match pace {
            Some(pace) => format!("paced, one per {pace:?}"),
            None => format!("{concurrency} concurrent webhooks"),
        },
        credited.len(),
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        credited.len() as f64 / elapsed.as_secs_f64(),
    );
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = kid_testing::isolated_settings().await?;
    let shutdown = CancellationToken::new();
    let stack = Stack::start(settings.clone(), shutdown.clone()).await?;
    let base = format!("http://{}", stack.gateway);
    let wallet = db::connect(&settings.database, "wallet").await?;
    println!(
        "Kid top-up benchmark: bank-feed webhook → credited in the ledger, {} cores, {TRANSFERS} transfers per run to {PLAYERS} players",
        std::thread::available_parallelism()?
    );
    let mut contents = Vec::new();
    for n in 0..PLAYERS {
        contents.push(player(&base, &format!("topup_bench_{n}")).await?);
    }
    let secret = settings
        .payment
        .bank_feed_secret
        .expose_secret()
        .as_bytes()
        .to_vec();
    run(&base, &secret, &contents, 0, (PACED.0, 1, Some(PACED.1)), &wallet).await?;
    for (round, concurrency) in CONCURRENCIES.into_iter().enumerate() {
        run(
            &base,
            &secret,
            &contents,
            round + 1,
            (TRANSFERS, concurrency, None),
            &wallet,
        )
        .await?;
    }
    shutdown.cancel();
    Ok(())
}
