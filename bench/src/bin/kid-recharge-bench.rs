//! Prints figures, asserts nothing: coin recharges (`POST /api/payment/coin-recharge/...`)
//! through the whole portal (gateway, identity, recharge, wallet over gRPC, the outbox to
//! RabbitMQ and the reference game answering) at several concurrencies, beside pgbench
//! driving the raw SQL of one equivalent ledger transfer on the same PostgreSQL, in one run.
//!
//! `cargo run --release -p kid-bench --bin kid-recharge-bench` (needs `pgbench` on the PATH)

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use kid_bench as bench;
use kid_contracts::wallet::v1::{CreditRequest, TopupType, wallet_service_client::WalletServiceClient};
use kid_launcher::Stack;
use kid_platform::{
    auth::{AttachInternalJwt, InternalJwt},
    db, grpc,
};
use reqwest::{Client, StatusCode};
use serde_json::json;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

const CONCURRENCIES: [usize; 4] = [1, 4, 16, 32];
const PHASE: Duration = Duration::from_secs(4);
const PRICE: i64 = 20_000;
const PASSWORD: &str = "Bench@123456";

/// A signed-in player's browser: cookie jar and XSRF token.
struct Player {
    http: Client,
    xsrf: String,
}

async fn xsrf(http: &Client, base: &str) -> anyhow::Result<String> {
    let response = http.get(format!("{base}/api/auth/csrf-cookie")).send().await?;
    response
        .cookies()
        .find(|cookie| cookie.name() == "XSRF-TOKEN")
        .map(|cookie| cookie.value().to_owned())
        .context("no XSRF-TOKEN cookie")
}

async fn register(base: &str, username: &str) -> anyhow::Result<Player> {
    let http = Client::builder().cookie_store(true).build()?;
    let token = xsrf(&http, base).await?;
    let response = http
        .post(format!("{base}/api/auth/register"))
        .header("X-XSRF-TOKEN", &token)
        .json(&kid_launcher::player::registration(
            username,
            "bench.example",
            PASSWORD,
        ))
        .send()
        .await?;
    anyhow::ensure!(
        response.status() == StatusCode::CREATED,
        "register: {}",
        response.status()
    );
    let xsrf = xsrf(&http, base).await?;
    Ok(Player { http, xsrf })
}

/// Coin recharges for `PHASE`, `concurrency` players at a time, each paying from its own
/// balance with a new key per order.
async fn gateway_phase(
    base: &str,
    players: &[Arc<Player>],
    concurrency: usize,
) -> anyhow::Result<(bench::Figures, usize)> {
    let started = Instant::now();
    let mut workers = JoinSet::new();
    for player in players.iter().take(concurrency).cloned() {
        let url = format!("{base}/api/payment/coin-recharge/fsonline");
        workers.spawn(async move {
            let mut samples = Vec::new();
            let mut refused = 0;
            while started.elapsed() < PHASE {
                let sent = Instant::now();
                let response = player
                    .http
                    .post(&url)
                    .header("X-XSRF-TOKEN", &player.xsrf)
                    .header("Idempotency-Key", Uuid::now_v7().to_string())
                    .json(&json!({ "zoneId": 1, "creditAmount": PRICE, "productCode": "fsonline", "gReCaptchaToken": "dev-captcha" }))
                    .send()
                    .await?;
                if response.status() == StatusCode::CREATED {
                    samples.push(sent.elapsed());
                } else {
                    refused += 1;
                }
            }
            anyhow::Ok((samples, refused))
        });
    }
    let mut samples = Vec::new();
    let mut refused = 0;
    for joined in workers.join_all().await {
        let (worker_samples, worker_refused) = joined?;
        samples.extend(worker_samples);
        refused += worker_refused;
    }
    Ok((bench::figures(samples, started.elapsed()), refused))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut settings = kid_testing::isolated_settings().await?;
    settings.database.max_connections = 16;
    let shutdown = CancellationToken::new();
    let stack = Stack::start(settings.clone(), shutdown.clone()).await?;
    let base = format!("http://{}", stack.gateway);
    let wallet = stack
        .services
        .iter()
        .find(|(name, _)| *name == "wallet")
        .map(|(_, address)| format!("http://{address}"))
        .context("the wallet runs")?;
    let jwt = AttachInternalJwt::new(
        Arc::new(InternalJwt::new(&settings.jwt)),
        kid_platform::auth::OPERATOR,
    );
    let mut wallet = WalletServiceClient::with_interceptor(grpc::lazy_channel(&wallet)?, jwt);
    let most = CONCURRENCIES.iter().copied().max().unwrap_or(1);
    let mut players = Vec::with_capacity(most);
    for n in 0..most {
        players.push(Arc::new(register(&base, &format!("bench_{n:03}")).await?));
    }
    let identity = db::connect(&settings.database, "identity").await?;
    let ids: Vec<Uuid> = sqlx::query_scalar("select id from user_account")
        .fetch_all(&identity)
        .await?;
    for id in &ids {
        wallet
            .credit(CreditRequest {
                idempotency_key: format!("bench-fund-{id}"),
                user_id: id.to_string(),
                topup_type: TopupType::BankTransfer.into(),
                source: "vietcombank".into(),
                amount_vnd: 1_000_000_000,
                kp: 1_000_000_000,
                card_serial: String::new(),
                error_code: String::new(),
            })
            .await?;
    }
    let wallet_pool = db::connect(&settings.database, "wallet").await?;
    bench::number_players(&wallet_pool).await?;
    let url = bench::wallet_url(&settings)?;
    let dir = std::env::temp_dir().join(format!("kid-recharge-bench-{}", Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir)?;

    println!(
        "coin recharges of {PRICE} KP through the gateway, {most} players, {}s per run; the reference game answers every order",
        PHASE.as_secs()
    );
    println!(
        "pgbench: the ledger transfer alone (lock, key lookup, transaction, two postings) on the wallet schema"
    );
    println!(
        "{:>11} | {:>10} {:>10} {:>10} {:>8} | {:>11} {:>10} {:>10}",
        "concurrency", "orders/s", "p50", "p99", "refused", "pgbench tps", "p50", "p99"
    );
    for concurrency in CONCURRENCIES {
        let (ours, refused) = gateway_phase(&base, &players, concurrency).await?;
        let raw = bench::pgbench_phase(&url, concurrency, ids.len(), &dir, PHASE)?;
        println!(
            "{:>11} | {:>10.0} {:>10} {:>10} {:>8} | {:>11.0} {:>10} {:>10}",
            concurrency,
            ours.tps,
            bench::millis(ours.p50),
            bench::millis(ours.p99),
            refused,
            raw.tps,
            bench::millis(raw.p50),
            bench::millis(raw.p99),
        );
    }

    // Every order should end delivered: wait for the game's answers to drain.
    let recharge = db::connect(&settings.database, "recharge").await?;
    let drained = Instant::now();
    loop {
        let open: i64 = sqlx::query_scalar(
            "select count(*) from recharge_order where status in ('paying', 'awaiting_delivery')",
        )
        .fetch_one(&recharge)
        .await?;
        if open == 0 || drained.elapsed() > Duration::from_secs(60) {
            let (orders, delivered): (i64, i64) = sqlx::query_as(
                "select count(*), count(*) filter (where status = 'delivered') from recharge_order",
            )
            .fetch_one(&recharge)
            .await?;
            println!(
                "orders: {orders}, delivered: {delivered}, still open: {open} ({:.1}s after the last run)",
                drained.elapsed().as_secs_f64()
            );
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let unbalanced: i64 = sqlx::query_scalar(
        "select count(*) from (select 1 from posting group by transaction_id having sum(amount) <> 0) u",
    )
    .fetch_one(&wallet_pool)
    .await?;
    println!("unbalanced ledger transactions: {unbalanced}");
    let _ = std::fs::remove_dir_all(&dir);
    shutdown.cancel();
    Ok(())
}
