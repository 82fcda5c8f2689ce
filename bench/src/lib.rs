//! The performance harness (`./scripts/bench`): the release portal as separate processes,
//! loads from outside it, and this machine's ceilings measured in the same run (pgbench
//! driving one raw ledger transfer against the wallet's schema, raw argon2id, the harness's
//! HTTP client on `/healthz`), each figure printed beside its ceiling.

pub mod chaos;
pub mod history;
pub mod http_load;
pub mod load;
pub mod portal;
pub mod report;

use std::{path::Path, process::Command, time::Duration};

use anyhow::Context;
use secrecy::ExposeSecret;
use sqlx::{PgPool, postgres::PgConnectOptions};

use kid_platform::Settings;

/// One transfer as the ledger makes it: lock the player, look the key up, write the
/// transaction and its two postings (the database moves the balance and checks the sum).
/// Each client pays from its own players (`players` of them, numbered by [`number_players`]),
/// as the service's workers do.
pub const TRANSFER_SQL: &str = r"\set n :client_id + 1 + :clients * random(0, :players / :clients - 1)
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

#[derive(Clone, Debug)]
pub struct Figures {
    pub tps: f64,
    pub p50: Duration,
    pub p99: Duration,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

pub fn figures(mut samples: Vec<Duration>, elapsed: Duration) -> Figures {
    samples.sort();
    Figures {
        tps: samples.len() as f64 / elapsed.as_secs_f64(),
        p50: percentile(&samples, 0.50),
        p99: percentile(&samples, 0.99),
    }
}

/// Numbers the wallet's players for the transfer script (`bench_player.n` from 1).
pub async fn number_players(wallet: &PgPool) -> anyhow::Result<()> {
    sqlx::query(
        "create table bench_player as
         select row_number() over (order by user_id) as n, user_id, kp_account_id from player",
    )
    .execute(wallet)
    .await?;
    sqlx::query("alter table bench_player add primary key (n)")
        .execute(wallet)
        .await?;
    sqlx::query("create unique index on bench_player (user_id)")
        .execute(wallet)
        .await?;
    Ok(())
}

/// libpq's own URL of the wallet schema: sqlx's carries parameters libpq refuses. A password
/// comes from PGPASSWORD.
pub fn wallet_url(settings: &Settings) -> anyhow::Result<String> {
    let options: PgConnectOptions = settings.database.url.expose_secret().parse()?;
    Ok(format!(
        "postgresql://{}@{}:{}/{}?options=-csearch_path%3Dwallet",
        options.get_username(),
        options.get_host(),
        options.get_port(),
        options.get_database().unwrap_or("postgres"),
    ))
}

/// Runs pgbench with the transfer script for `phase` and reads its per-transaction log for percentiles.
pub fn pgbench_phase(
    url: &str,
    concurrency: usize,
    players: usize,
    dir: &Path,
    phase: Duration,
) -> anyhow::Result<Figures> {
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
            "-D",
            &format!("players={players}"),
            "-f",
        ])
        .arg(&script)
        .args([
            "-c",
            &concurrency.to_string(),
            "-j",
            &concurrency.min(2).to_string(),
        ])
        .args(["-T", &phase.as_secs().to_string(), "-l", "--log-prefix"])
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
    let mut measured = figures(samples, phase);
    measured.tps = tps;
    Ok(measured)
}

/// The ledger's invariants, each as a query counting its violations: what the harness checks
/// after the load (the restore drill checks the same).
pub const LEDGER_INVARIANTS: [(&str, &str); 4] = [
    (
        "every account's balance is the sum of its postings",
        "select count(*) from account a
           left join (select account_id, sum(amount) as total from posting group by account_id) p
             on p.account_id = a.id
         where a.balance is not null and a.balance <> coalesce(p.total, 0)",
    ),
    (
        "every transaction's postings sum to zero",
        "select count(*) from (select transaction_id from posting group by transaction_id
           having sum(amount) <> 0) t",
    ),
    (
        "no balance is negative, no debt positive",
        "select count(*) from account where (purpose = 'kp' and balance < 0) or (purpose = 'debt' and balance > 0)",
    ),
    (
        "no payment refunded unless failed",
        "select count(*) from ledger_transaction r join ledger_transaction p on p.id = r.parent_id
         where r.type = 'credit.refund' and p.status <> 'failed'",
    ),
];

/// Gives every table of the run's database its statistics, as autovacuum keeps them on a
/// database in service. The run's tables grow from empty within seconds, before autovacuum's
/// first round, and the services' prepared statements keep the plans made while the tables
/// were nearly empty: auto_explain showed the wallet's related-transactions lookup scanning
/// the whole ledger (12.6 ms at the median) instead of using its index. ANALYZE invalidates
/// those plans.
pub async fn analyze(pool: &PgPool) -> anyhow::Result<()> {
    sqlx::query("analyze").execute(pool).await?;
    Ok(())
}

/// Waits until the portal has no work left over from earlier phases: every coin order closed
/// (delivered or failed) and the wallet has settled or refunded each closed order's payment.
/// Until then the services are still consuming the last phase's events, and a phase measured
/// meanwhile (or pgbench's ceiling) would measure that drain too. Returns false when `limit`
/// passes first.
pub async fn quiesce(recharge: &PgPool, wallet: &PgPool, limit: Duration) -> anyhow::Result<bool> {
    let started = std::time::Instant::now();
    loop {
        let (open, closed): (i64, i64) = sqlx::query_as(
            "select count(*) filter (where status in ('paying', 'awaiting_delivery')),
                    count(*) filter (where status in ('delivered', 'failed') and transaction_id is not null)
             from recharge_order",
        )
        .fetch_one(recharge)
        .await?;
        let answered: i64 = sqlx::query_scalar(
            "select count(*) from ledger_transaction where type = 'credit.pay' and status <> 'pending'",
        )
        .fetch_one(wallet)
        .await?;
        if open == 0 && answered >= closed {
            return Ok(true);
        }
        if started.elapsed() > limit {
            return Ok(false);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Each invariant with its count of violations (all zero when the ledger is sound).
pub async fn ledger_violations(wallet: &PgPool) -> anyhow::Result<Vec<(&'static str, i64)>> {
    let mut found = Vec::new();
    for (name, query) in LEDGER_INVARIANTS {
        let count: i64 = sqlx::query_scalar(query).fetch_one(wallet).await?;
        found.push((name, count));
    }
    Ok(found)
}
