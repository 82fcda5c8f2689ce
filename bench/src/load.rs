//! The loads that are not one request repeated ([`crate::http_load`]), because each request
//! must differ (a new idempotency key, a new signed notification) or speaks gRPC: coin
//! recharges as players' browsers send them, wallet transfers as the services call them, bank
//! notifications as the bank signs them. They run in the benchmark's process, outside the
//! portal's.

use std::{
    collections::HashMap,
    sync::Arc,
    time::{Duration, Instant},
};

use anyhow::Context;
use kid_contracts::wallet::v1::{CoinMetadata, DebitRequest};
use kid_identity::domain::{Password, PasswordHasher, Strength};
use kid_payment::domain::bank_feed::{Outgoing, now_ms};
use reqwest::{Client, StatusCode};
use serde_json::json;
use time::OffsetDateTime;
use tokio::{sync::Semaphore, task::JoinSet};
use uuid::Uuid;

use crate::{Figures, figures};

pub const PASSWORD: &str = "Bench@123456";
/// The price of the coin package every recharge buys.
pub const PRICE: i64 = 20_000;

/// A signed-in player's browser: cookie jar, XSRF token, and what the benchmark needs of them.
pub struct Player {
    pub http: Client,
    pub xsrf: String,
    pub username: String,
    /// The `Cookie` header value a separate client (the HTTP load, Lighthouse) sends as this player.
    pub cookie: String,
    /// Their bank-transfer content.
    pub transfer_content: String,
}

/// A browser's XSRF token (the `XSRF-TOKEN` cookie its jar now keeps) and the `Cookie` header
/// that carries it.
pub async fn xsrf(http: &Client, base: &str) -> anyhow::Result<(String, String)> {
    let response = http.get(format!("{base}/api/auth/csrf-cookie")).send().await?;
    let cookies: Vec<(String, String)> = response
        .cookies()
        .map(|cookie| (cookie.name().to_owned(), cookie.value().to_owned()))
        .collect();
    let token = cookies
        .iter()
        .find(|(name, _)| name == "XSRF-TOKEN")
        .map(|(_, value)| value.clone())
        .context("no XSRF-TOKEN cookie")?;
    let header = cookies
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join("; ");
    Ok((token, header))
}

/// An anonymous visitor's XSRF token and the `Cookie` header that carries it: what a sign-in
/// needs, for the HTTP load to send.
pub async fn anonymous_xsrf(base: &str) -> anyhow::Result<(String, String)> {
    xsrf(&Client::new(), base).await
}

/// Registers `username` through the gateway, as the sign-up form does, and keeps the session.
pub async fn register(base: &str, username: &str) -> anyhow::Result<Player> {
    let http = Client::builder().cookie_store(true).build()?;
    let (token, _) = xsrf(&http, base).await?;
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
        "register {username}: {}",
        response.status()
    );
    let (xsrf, cookie) = xsrf(&http, base).await?;
    let methods: serde_json::Value = http
        .get(format!("{base}/api/payment/methods"))
        .send()
        .await?
        .json()
        .await?;
    let transfer_content = transfer_content(&methods)?;
    Ok(Player {
        http,
        xsrf,
        username: username.to_owned(),
        cookie,
        transfer_content,
    })
}

/// The player's bank-transfer content, from `GET /api/payment/methods`.
pub fn transfer_content(methods: &serde_json::Value) -> anyhow::Result<String> {
    Ok(methods["bankTransfers"][0]["paymentSyntax"]
        .as_str()
        .context("no transfer content")?
        .to_owned())
}

/// The wallet, called as the operator (the benchmark funds players with it).
pub type Wallet = kid_testing::portal::OperatorWallet;

/// Credits `kp` to each player, once (the key names the player).
pub async fn fund(wallet: &Wallet, players: &[Uuid], kp: i64) -> anyhow::Result<()> {
    for player in players {
        let key = format!("bench-fund-{player}");
        wallet
            .clone()
            .credit(kid_testing::portal::funding(*player, kp, key))
            .await
            .context("funding a player")?;
    }
    Ok(())
}

/// Hashes per second of the identity service's own hasher (argon2id, production parameters,
/// one running hash per core), with nothing around it, for `length`.
pub async fn raw_hash_rate(length: Duration) -> anyhow::Result<f64> {
    let hasher = PasswordHasher::new()?;
    let password = Password::parse(PASSWORD, Strength::Medium).map_err(|message| anyhow::anyhow!(message))?;
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    let started = Instant::now();
    let mut tasks = JoinSet::new();
    for _ in 0..cores * 2 {
        let (hasher, password) = (hasher.clone(), password.clone());
        tasks.spawn(async move {
            let mut count = 0u32;
            while started.elapsed() < length {
                hasher.hash(&password).await?;
                count += 1;
            }
            anyhow::Ok(count)
        });
    }
    let mut total = 0;
    for count in tasks.join_all().await {
        total += count?;
    }
    Ok(f64::from(total) / started.elapsed().as_secs_f64())
}

/// Coin recharges through the gateway for `length`, `concurrency` players at a time, each
/// paying from its own balance with a new key per order. Returns the figures of the orders
/// accepted and how many were refused.
pub async fn recharges(
    base: &str,
    players: &[Arc<Player>],
    concurrency: usize,
    length: Duration,
) -> anyhow::Result<(Figures, usize)> {
    anyhow::ensure!(players.len() >= concurrency, "fewer players than {concurrency}");
    let started = Instant::now();
    let mut workers = JoinSet::new();
    for player in players.iter().take(concurrency).cloned() {
        let url = format!("{base}/api/payment/coin-recharge/fsonline");
        workers.spawn(async move {
            let mut samples = Vec::new();
            let mut refused = 0;
            while started.elapsed() < length {
                let sent = Instant::now();
                let response = player
                    .http
                    .post(&url)
                    .header("X-XSRF-TOKEN", &player.xsrf)
                    .header("Idempotency-Key", Uuid::now_v7().to_string())
                    .json(
                        &json!({ "zoneId": 1, "creditAmount": PRICE, "productCode": "fsonline",
                        "gReCaptchaToken": kid_launcher::player::DEV_CAPTCHA }),
                    )
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
    Ok((figures(samples, started.elapsed()), refused))
}

/// Payments of 1 KP straight to the wallet over gRPC for `length`, `concurrency` at a time;
/// each worker pays from its own players, so workers never wait on each other's row locks.
pub async fn transfers(
    wallet: &Wallet,
    players: &Arc<Vec<Uuid>>,
    concurrency: usize,
    length: Duration,
) -> anyhow::Result<Figures> {
    let started = Instant::now();
    let mut workers = JoinSet::new();
    for worker in 0..concurrency {
        let (wallet, players) = (wallet.clone(), players.clone());
        workers.spawn(async move {
            let mut samples = Vec::new();
            let mut n = worker;
            while started.elapsed() < length {
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
                wallet.clone().debit(request).await?;
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

/// How a batch of bank notifications is sent: all at once `concurrency` at a time, or one
/// every `pace`.
#[derive(Clone, Copy)]
pub enum Sending {
    Concurrent(usize),
    Paced(Duration),
}

/// Bank notifications, from the webhook call to the ledger's credit.
pub struct Credits {
    /// Sent time to the ledger transaction's commit time.
    pub latency: Figures,
    /// Credited top-ups per second, from the first notification sent to the last credit.
    pub credited_per_second: f64,
    pub refused: usize,
}

/// The bank's side: signed notifications to the gateway's webhook for the players' transfer
/// contents, and the wallet's database to see them credited.
pub struct BankFeed<'a> {
    pub base: &'a str,
    /// The provider the portal is set up for, and its key.
    pub feed: &'a kid_payment::domain::bank_feed::BankFeed,
    pub contents: &'a [String],
    pub wallet_db: &'a sqlx::PgPool,
}

impl BankFeed<'_> {
    /// Sends `transfers` signed bank notifications (10,000 VND each) to the players' transfer
    /// contents, then waits until the ledger holds every credit. Ids start with `round`.
    pub async fn transfers(
        &self,
        round: &str,
        transfers: usize,
        sending: Sending,
    ) -> anyhow::Result<Credits> {
        let Self {
            base,
            feed,
            contents,
            wallet_db,
        } = *self;
        let http = Client::new();
        let url = format!("{base}/api/webhooks/bank-transfer");
        let permits = Arc::new(Semaphore::new(match sending {
            Sending::Concurrent(concurrency) => concurrency,
            Sending::Paced(_) => transfers,
        }));
        let mut tasks = JoinSet::new();
        let started = Instant::now();
        for n in 0..transfers {
            if let Sending::Paced(pace) = sending {
                tokio::time::sleep(pace).await;
            }
            let permit = permits.clone().acquire_owned().await?;
            let id = format!("bench-{round}-{n}");
            let content = format!("IBFT {}", contents[n % contents.len()]);
            let body = feed.body(&Outgoing {
                id: &id,
                gateway: "Vietcombank",
                account_number: "1023456789",
                sub_account: None,
                content: &content,
                amount_vnd: 10_000,
                transaction_date: "2026-11-22 10:00:00",
            });
            let headers = feed.headers(&body, now_ms());
            let (http, url) = (http.clone(), url.clone());
            tasks.spawn(async move {
                let sent_at = OffsetDateTime::now_utc();
                let mut request = http.post(url).header("content-type", "application/json");
                for (name, value) in headers {
                    request = request.header(name, value);
                }
                let answer = request.body(body).send().await;
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

        let pattern = format!("bank-feed:bench-{round}-%");
        let deadline = Instant::now() + Duration::from_secs(120);
        let credited: Vec<(String, OffsetDateTime)> = loop {
            let rows: Vec<(String, OffsetDateTime)> = sqlx::query_as(
                "select idempotency_key, created_at from ledger_transaction
                 where operation = 'topup' and idempotency_key like $1",
            )
            .bind(&pattern)
            .fetch_all(wallet_db)
            .await?;
            if rows.len() >= transfers - refused || Instant::now() > deadline {
                break rows;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        anyhow::ensure!(
            credited.len() == transfers - refused,
            "round {round}: {} of {} accepted notifications credited after 120 s",
            credited.len(),
            transfers - refused
        );
        let last = credited.iter().map(|(_, at)| *at).max();
        let first = sent_at.values().min().copied();
        let span = match (first, last) {
            (Some(first), Some(last)) => Duration::try_from(last - first).unwrap_or(Duration::ZERO),
            _ => started.elapsed(),
        };
        let latencies: Vec<Duration> = credited
            .iter()
            .filter_map(|(key, at)| Duration::try_from(*at - *sent_at.get(key)?).ok())
            .collect();
        Ok(Credits {
            latency: figures(latencies, span),
            credited_per_second: credited.len() as f64 / span.as_secs_f64().max(1e-3),
            refused,
        })
    }
}
