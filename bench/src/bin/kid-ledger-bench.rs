//! Prints figures, asserts nothing: player-to-system transfers (payments for game coin)
//! through the wallet service over gRPC at several concurrencies, beside pgbench driving the
//! raw SQL of one equivalent transfer against the same PostgreSQL and schema.
//!
//! `cargo run --release -p kid-bench --bin kid-ledger-bench` (needs `pgbench` on the PATH)

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use kid_bench as bench;
use kid_contracts::wallet::v1::{
    CoinMetadata, CreditRequest, DebitRequest, TopupType, wallet_service_client::WalletServiceClient,
};
use kid_platform::{
    auth::{AttachInternalJwt, InternalJwt},
    db, grpc,
    service::Application,
};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

const PLAYERS: usize = 256;
const CONCURRENCIES: [usize; 4] = [1, 4, 16, 64];
const PHASE: Duration = Duration::from_secs(4);
const POOL_SIZE: u32 = 16;

type Client = WalletServiceClient<
    tonic::service::interceptor::InterceptedService<tonic::transport::Channel, AttachInternalJwt>,
>;

async fn seed(client: &Client, players: &[Uuid]) -> anyhow::Result<()> {
    for player in players {
        client
            .clone()
            .credit(CreditRequest {
                idempotency_key: format!("bench-seed-{player}"),
                user_id: player.to_string(),
                topup_type: TopupType::BankTransfer.into(),
                source: "vietcombank".into(),
                amount_vnd: 10_000_000,
                kp: 10_000_000,
                card_serial: String::new(),
                error_code: String::new(),
            })
            .await
            .context("seeding a player")?;
    }
    Ok(())
}

/// Payments of 1 KP for `PHASE`, `concurrency` at a time; each worker pays from its own
/// players, so workers never wait on each other's row locks.
async fn grpc_phase(
    client: &Client,
    players: &Arc<Vec<Uuid>>,
    concurrency: usize,
) -> anyhow::Result<bench::Figures> {
    let started = Instant::now();
    let mut workers = JoinSet::new();
    for worker in 0..concurrency {
        let (client, players) = (client.clone(), players.clone());
        workers.spawn(async move {
            let mut samples = Vec::new();
            let mut n = worker;
            while started.elapsed() < PHASE {
                let player = players[n % players.len()];
                n += concurrency;
                let request = DebitRequest {
                    idempotency_key: Uuid::now_v7().to_string(),
                    user_id: player.to_string(),
                    kp: 1,
                    metadata: Some(CoinMetadata {
                        coin: 1,
                        product_code: "fsonline".into(),
                        ..CoinMetadata::default()
                    }),
                };
                let sent = Instant::now();
                client.clone().debit(request).await?;
                samples.push(sent.elapsed());
            }
            anyhow::Ok(samples)
        });
    }
    let mut samples = Vec::new();
    for joined in workers.join_all().await {
        samples.extend(joined?);
    }
    Ok(bench::figures(samples, started.elapsed()))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut settings = kid_testing::isolated_settings().await?;
    settings.database.max_connections = POOL_SIZE;
    let shutdown = CancellationToken::new();
    let application = Application::build(&kid_wallet::SERVICE, settings.clone(), shutdown.clone()).await?;
    let endpoint = format!("http://{}", application.address());
    tokio::spawn(application.run_until_stopped());
    let jwt = AttachInternalJwt::new(
        Arc::new(InternalJwt::new(&settings.jwt)),
        kid_platform::auth::OPERATOR,
    );
    let client = WalletServiceClient::with_interceptor(grpc::lazy_channel(&endpoint)?, jwt);

    let players: Arc<Vec<Uuid>> = Arc::new((0..PLAYERS).map(|_| Uuid::new_v4()).collect());
    seed(&client, &players).await?;
    let pool = db::connect(&settings.database, "wallet").await?;
    bench::number_players(&pool).await?;
    let url = bench::wallet_url(&settings)?;
    let dir = std::env::temp_dir().join(format!("kid-ledger-bench-{}", Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir)?;

    println!(
        "player-to-system transfers (1 KP payments), {PLAYERS} players, {}s per run",
        PHASE.as_secs()
    );
    println!(
        "wallet service: gRPC + internal JWT + sqlx pool of {POOL_SIZE}; pgbench: one connection per client"
    );
    println!(
        "{:>11} | {:>10} {:>10} {:>10} | {:>10} {:>10} {:>10} | {:>9}",
        "concurrency", "grpc tps", "p50", "p99", "pgbench tps", "p50", "p99", "tps ratio"
    );
    for concurrency in CONCURRENCIES {
        let ours = grpc_phase(&client, &players, concurrency).await?;
        let raw = bench::pgbench_phase(&url, concurrency, PLAYERS, &dir, PHASE)?;
        println!(
            "{:>11} | {:>10.0} {:>10} {:>10} | {:>11.0} {:>10} {:>10} | {:>8.0}%",
            concurrency,
            ours.tps,
            bench::millis(ours.p50),
            bench::millis(ours.p99),
            raw.tps,
            bench::millis(raw.p50),
            bench::millis(raw.p99),
            100.0 * ours.tps / raw.tps
        );
    }
    let (postings, unbalanced): (i64, i64) = sqlx::query_as(
        "select (select count(*) from posting),
                (select count(*) from (select 1 from posting group by transaction_id having sum(amount) <> 0) u)",
    )
    .fetch_one(&pool)
    .await?;
    println!("postings written: {postings}; unbalanced transactions: {unbalanced}");
    let _ = std::fs::remove_dir_all(&dir);
    shutdown.cancel();
    Ok(())
}
