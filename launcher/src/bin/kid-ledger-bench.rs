//! Prints figures, asserts nothing: player-to-system transfers (payments for game coin)
//! through the wallet service over gRPC at several concurrencies, beside pgbench driving the
//! raw SQL of one equivalent transfer against the same PostgreSQL and schema.
//!
//! `cargo run -p kid-launcher --bin kid-ledger-bench` (needs `pgbench` on the PATH)

use std::{
    path::Path,
    process::Command,
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use kid_platform::{
    auth::{AttachInternalJwt, InternalJwt},
    db, grpc,
    service::Application,
    testing,
};
use kid_proto::wallet::v1::{
    CoinMetadata, CreditRequest, DebitRequest, TopupType, wallet_service_client::WalletServiceClient,
};
use secrecy::ExposeSecret;
use sqlx::postgres::PgConnectOptions;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

const PLAYERS: usize = 256;
const CONCURRENCIES: [usize; 4] = [1, 4, 16, 64];
const PHASE: Duration = Duration::from_secs(4);
const POOL_SIZE: u32 = 16;

/// One transfer as the ledger makes it: lock the player, look the key up, write the
/// transaction and its two postings (the database moves the balance and checks the sum).
/// Each client pays from its own players, as the gRPC workers do.
const TRANSFER_SQL: &str = r"\set n :client_id + 1 + :clients * random(0, 256 / :clients - 1)
\set k random(1, 1000000000000)
BEGIN;
SELECT p.user_id, kp.balance FROM player p JOIN account kp ON kp.id = p.kp_account_id
  JOIN bench_player b ON b.user_id = p.user_id WHERE b.n = :n FOR UPDATE;
SELECT id FROM ledger_transaction WHERE operation = 'pay' AND idempotency_key = 'bench-' || :k;
WITH t AS (
  INSERT INTO ledger_transaction (id, user_id, type, status, real_value, currency, payload, operation, idempotency_key)
  SELECT gen_random_uuid(), b.user_id, 'credit.pay', 'success', 1, 'KP', '{}', 'pay', gen_random_uuid()::text
  FROM bench_player b WHERE b.n = :n RETURNING id, user_id
)
INSERT INTO posting (transaction_id, account_id, amount)
SELECT t.id, v.account_id, v.amount FROM t JOIN bench_player b ON b.user_id = t.user_id
  CROSS JOIN LATERAL (VALUES (b.kp_account_id, -1::bigint),
    ((SELECT id FROM account WHERE user_id IS NULL AND purpose = 'game-sales'), 1::bigint)) v (account_id, amount);
COMMIT;
";

type Client = WalletServiceClient<
    tonic::service::interceptor::InterceptedService<tonic::transport::Channel, AttachInternalJwt>,
>;

struct Figures {
    tps: f64,
    p50: Duration,
    p99: Duration,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn figures(mut samples: Vec<Duration>, elapsed: Duration) -> Figures {
    samples.sort();
    Figures {
        tps: samples.len() as f64 / elapsed.as_secs_f64(),
        p50: percentile(&samples, 0.50),
        p99: percentile(&samples, 0.99),
    }
}

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
) -> anyhow::Result<Figures> {
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
    Ok(figures(samples, started.elapsed()))
}

/// Runs pgbench with the transfer script and reads its per-transaction log for percentiles.
fn pgbench_phase(url: &str, concurrency: usize, dir: &Path) -> anyhow::Result<Figures> {
    let script = dir.join("transfer.sql");
    std::fs::write(&script, TRANSFER_SQL)?;
    let prefix = dir.join(format!("c{concurrency}"));
    let output = Command::new("pgbench")
        .args([
            "-n",
            "-M",
            "prepared",
            "-D",
            &format!("clients={concurrency}"),
            "-f",
        ])
        .arg(&script)
        .args([
            "-c",
            &concurrency.to_string(),
            "-j",
            &concurrency.min(2).to_string(),
        ])
        .args(["-T", &PHASE.as_secs().to_string(), "-l", "--log-prefix"])
        .arg(&prefix)
        .arg(url)
        .output()
        .context("running pgbench (install PostgreSQL's client tools)")?;
    anyhow::ensure!(
        output.status.success(),
        "pgbench failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut samples = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if !name.starts_with(&format!("c{concurrency}.")) {
            continue;
        }
        // Each line: client, transaction, latency in microseconds, script, epoch, microseconds.
        for line in std::fs::read_to_string(&path)?.lines() {
            if let Some(micros) = line.split_whitespace().nth(2).and_then(|v| v.parse::<u64>().ok()) {
                samples.push(Duration::from_micros(micros));
            }
        }
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let tps = stdout
        .lines()
        .find_map(|line| line.strip_prefix("tps = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|value| value.parse::<f64>().ok())
        .context("no tps in pgbench's output")?;
    let mut measured = figures(samples, PHASE);
    measured.tps = tps;
    Ok(measured)
}

fn millis(duration: Duration) -> String {
    format!("{:.2} ms", duration.as_secs_f64() * 1000.0)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut settings = testing::isolated_settings().await?;
    settings.database.max_connections = POOL_SIZE;
    let shutdown = CancellationToken::new();
    let application = Application::build(&kid_wallet::SERVICE, settings.clone(), shutdown.clone()).await?;
    let endpoint = format!("http://{}", application.address());
    tokio::spawn(application.run_until_stopped());
    let jwt = AttachInternalJwt::new(Arc::new(InternalJwt::new(&settings.jwt)), "bench");
    let client = WalletServiceClient::with_interceptor(grpc::lazy_channel(&endpoint)?, jwt);

    let players: Arc<Vec<Uuid>> = Arc::new((0..PLAYERS).map(|_| Uuid::new_v4()).collect());
    seed(&client, &players).await?;
    let pool = db::connect(&settings.database, "wallet").await?;
    sqlx::query(
        "create table bench_player as
         select row_number() over (order by user_id) as n, user_id, kp_account_id from player",
    )
    .execute(&pool)
    .await?;
    sqlx::query("alter table bench_player add primary key (n)")
        .execute(&pool)
        .await?;
    sqlx::query("create unique index on bench_player (user_id)")
        .execute(&pool)
        .await?;

    // libpq's own URL: sqlx's carries parameters libpq refuses. A password comes from PGPASSWORD.
    let options: PgConnectOptions = settings.database.url.expose_secret().parse()?;
    let url = format!(
        "postgresql://{}@{}:{}/{}?options=-csearch_path%3Dwallet",
        options.get_username(),
        options.get_host(),
        options.get_port(),
        options.get_database().unwrap_or("postgres"),
    );
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
        let raw = pgbench_phase(&url, concurrency, &dir)?;
        println!(
            "{:>11} | {:>10.0} {:>10} {:>10} | {:>11.0} {:>10} {:>10} | {:>8.0}%",
            concurrency,
            ours.tps,
            millis(ours.p50),
            millis(ours.p99),
            raw.tps,
            millis(raw.p50),
            millis(raw.p99),
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
