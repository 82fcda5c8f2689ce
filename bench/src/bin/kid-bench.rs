//! Prints figures, asserts nothing: sign-in throughput against this machine's raw argon2id
//! rate, and `/api/me` latency at a fixed concurrency, alone and during a sign-in flood.
//! Runs the whole portal in-process against the local PostgreSQL, Redis and RabbitMQ.
//!
//! `cargo run --release -p kid-bench --bin kid-bench`

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use kid_identity::domain::{Password, PasswordHasher, Strength};
use kid_launcher::Stack;
use reqwest::Client;
use serde_json::json;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

const PASSWORD: &str = "Bench@123456";
const ME_CONCURRENCY: usize = 16;
const LOGIN_CONCURRENCY: usize = 8;
const PHASE: Duration = Duration::from_secs(5);

async fn raw_hash_rate() -> anyhow::Result<f64> {
    let hasher = PasswordHasher::new()?;
    let password = Password::parse(PASSWORD, Strength::Medium).map_err(|message| anyhow::anyhow!(message))?;
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    for _ in 0..LOGIN_CONCURRENCY {
        let (hasher, password) = (hasher.clone(), password.clone());
        tasks.spawn(async move {
            let mut count = 0u32;
            while started.elapsed() < PHASE {
                let _ = hasher.hash(&password).await;
                count += 1;
            }
            count
        });
    }
    let total: u32 = tasks.join_all().await.into_iter().sum();
    Ok(f64::from(total) / started.elapsed().as_secs_f64())
}

async fn signed_in_client(base: &str, username: &str, register: bool) -> anyhow::Result<Client> {
    let http = Client::builder().cookie_store(true).build()?;
    let csrf = http.get(format!("{base}/api/auth/csrf-cookie")).send().await?;
    let token = csrf
        .cookies()
        .find(|cookie| cookie.name() == "XSRF-TOKEN")
        .map(|cookie| cookie.value().to_owned())
        .context("no XSRF-TOKEN")?;
    let (path, body) = if register {
        let body = json!({"email": format!("{username}@bench.example"), "dob": "2000-01-01", "username": username,
            "password": PASSWORD, "passwordConfirm": PASSWORD, "gReCaptchaToken": "dev-captcha"});
        ("register", body)
    } else {
        ("login", json!({"username": username, "password": PASSWORD}))
    };
    let response = http
        .post(format!("{base}/api/auth/{path}"))
        .header("X-XSRF-TOKEN", token)
        .json(&body)
        .send()
        .await?;
    anyhow::ensure!(
        response.status().is_success(),
        "{path} answered {}",
        response.status()
    );
    Ok(http)
}

/// Sign-ins per second over one phase, `LOGIN_CONCURRENCY` at a time.
async fn login_flood(base: Arc<str>, stop_after: Duration) -> f64 {
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    for worker in 0..LOGIN_CONCURRENCY {
        let base = base.clone();
        tasks.spawn(async move {
            let mut count = 0u32;
            while started.elapsed() < stop_after {
                if signed_in_client(&base, &format!("bench_{worker}"), false)
                    .await
                    .is_ok()
                {
                    count += 1;
                }
            }
            count
        });
    }
    let total: u32 = tasks.join_all().await.into_iter().sum();
    f64::from(total) / started.elapsed().as_secs_f64()
}

/// `/api/me` latencies over one phase, `ME_CONCURRENCY` clients in a loop.
async fn me_latencies(clients: &[Client], base: &str) -> Vec<Duration> {
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    for http in clients.iter().take(ME_CONCURRENCY) {
        let http = http.clone();
        let url = format!("{base}/api/me");
        tasks.spawn(async move {
            let mut samples = Vec::new();
            while started.elapsed() < PHASE {
                let sent = Instant::now();
                if http
                    .get(&url)
                    .send()
                    .await
                    .is_ok_and(|response| response.status().is_success())
                {
                    samples.push(sent.elapsed());
                }
            }
            samples
        });
    }
    let mut all: Vec<Duration> = tasks.join_all().await.into_iter().flatten().collect();
    all.sort();
    all
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

fn report(label: &str, samples: &[Duration]) {
    println!(
        "{label:<34} {:>7} requests  p50 {:>8.2?}  p99 {:>8.2?}  ({:.0}/s)",
        samples.len(),
        percentile(samples, 0.50),
        percentile(samples, 0.99),
        samples.len() as f64 / PHASE.as_secs_f64()
    );
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = kid_testing::isolated_settings().await?;
    let shutdown = CancellationToken::new();
    let stack = Stack::start(settings, shutdown.clone()).await?;
    let base: Arc<str> = format!("http://{}", stack.gateway).into();
    println!(
        "Kid sign-in benchmark, {} cores, phases of {PHASE:?}",
        std::thread::available_parallelism()?
    );

    let hash_rate = raw_hash_rate().await?;
    println!(
        "{:<34} {hash_rate:>7.1} hashes/s (argon2id m=19456 t=2 p=1)",
        "raw argon2id"
    );

    for worker in 0..LOGIN_CONCURRENCY {
        signed_in_client(&base, &format!("bench_{worker}"), true).await?;
    }
    let mut readers = Vec::new();
    for reader in 0..ME_CONCURRENCY {
        readers.push(signed_in_client(&base, &format!("reader_{reader}"), true).await?);
    }

    let logins = login_flood(base.clone(), PHASE).await;
    println!(
        "{:<34} {logins:>7.1} sign-ins/s ({:.0}% of the raw hash rate)",
        format!("sign-in flood, {LOGIN_CONCURRENCY} concurrent"),
        100.0 * logins / hash_rate
    );

    report(
        &format!("/api/me alone, {ME_CONCURRENCY} concurrent"),
        &me_latencies(&readers, &base).await,
    );

    let flood = tokio::spawn(login_flood(base.clone(), PHASE));
    let during = me_latencies(&readers, &base).await;
    let logins = flood.await?;
    report(
        &format!("/api/me during the flood, {ME_CONCURRENCY} conc."),
        &during,
    );
    println!("{:<34} {logins:>7.1} sign-ins/s", "  (flood meanwhile)");

    shutdown.cancel();
    Ok(())
}
