//! The smoke journey against a running portal, as its three outside parties drive it: a player
//! registers, tops up by bank transfer (the bank feed's simulator sends the signed notification),
//! and buys coin, which a game team's reference game delivers.
//!
//! ```text
//! kid-smoke --portal http://127.0.0.1:8080 [--product fsonline]
//! kid-smoke --portal <url> --players 4 --for 20 [--no-game] [--refund-zone 99]
//! ```
//!
//! The second form is traffic, for the restore drill (scripts/restore-drill): each of `--players`
//! players registers, then tops up and buys coin (an order in five on `--refund-zone`, which
//! the reference game fails, so it is refunded) until `--for` seconds have passed, waiting for
//! each top-up to be credited and each order to be delivered or refunded, and checking after
//! each that the balance is exactly what was topped up less what was delivered. It returns
//! with nothing in flight. `--no-game` when the portal
//! runs its own reference game (the development launcher does).
//!
//! It reads `KID_…` settings like the portal: the bank feed's provider and key (`KID_PAYMENT__BANK_FEED`, `KID_PAYMENT__BANK_FEED_SECRET`)
//! and the broker the game connects to, as the game team's own RabbitMQ user
//! (`KID_AMQP__URL`, `KID_AMQP__EXCHANGE`). Each step prints what it saw; the first that does
//! not hold within a minute ends the run with a non-zero status. `deploy/podman/kube-play-smoke`
//! runs it against the images.

use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use kid_launcher::{
    bank_feed::Transfer,
    player::{DEV_CAPTCHA, registration},
};
use kid_payment::domain::bank_feed::BankFeed;
use kid_platform::Settings;
use kid_recharge::reference_game::ReferenceGame;
use reqwest::{Client, Method, StatusCode, header};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

const PASSWORD: &str = "Smoke@2026";
const TOP_UP_VND: i64 = 100_000;
const COIN_KP: i64 = 20_000;
const PATIENCE: Duration = Duration::from_secs(60);

struct Player {
    http: Client,
    portal: String,
}

impl Player {
    /// A fresh XSRF token from `GET /api/auth/csrf-cookie`, as the SPA reads it.
    async fn xsrf(&self) -> anyhow::Result<String> {
        let response = self
            .http
            .get(format!("{}/api/auth/csrf-cookie", self.portal))
            .send()
            .await?;
        ensure!(
            response.status().is_success(),
            "csrf-cookie: {}",
            response.status()
        );
        response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|cookie| cookie.to_str().ok())
            .find_map(|cookie| cookie.strip_prefix("XSRF-TOKEN="))
            .and_then(|cookie| cookie.split(';').next())
            .map(str::to_owned)
            .context("no XSRF-TOKEN cookie")
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> anyhow::Result<(StatusCode, Value)> {
        let mut request = self
            .http
            .request(method, format!("{}/api{path}", self.portal))
            .header("X-XSRF-TOKEN", self.xsrf().await?)
            .json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        answer(request.send().await.with_context(|| format!("calling {path}"))?).await
    }

    async fn get(&self, path: &str) -> anyhow::Result<Value> {
        let response = self.http.get(format!("{}/api{path}", self.portal)).send().await?;
        let (status, body) = answer(response).await?;
        ensure!(status == StatusCode::OK, "GET {path}: {status} {body}");
        Ok(body)
    }

    async fn credit(&self) -> anyhow::Result<i64> {
        self.get("/me").await?["credit"]
            .as_i64()
            .context("/me has no credit")
    }

    /// Registers a new player (which signs them in).
    async fn register(portal: &str) -> anyhow::Result<(Self, String)> {
        // The player's address as the edge proxy (Envoy) appends it: a gateway configured to
        // read it (KID_GATEWAY__CLIENT_IP_SOURCE=RightmostXForwardedFor) refuses requests without
        // it, and one that reads the peer's address ignores it.
        let mut headers = header::HeaderMap::new();
        headers.insert("x-forwarded-for", header::HeaderValue::from_static("192.0.2.10"));
        let player = Self {
            http: Client::builder()
                .cookie_store(true)
                .default_headers(headers)
                .build()?,
            portal: portal.to_owned(),
        };
        let username = format!("smoke_{}", &Uuid::now_v7().simple().to_string()[16..]);
        let (status, body) = player
            .send(
                Method::POST,
                "/auth/register",
                &[],
                &registration(&username, "example.com", PASSWORD),
            )
            .await?;
        ensure!(status == StatusCode::CREATED, "register: {status} {body}");
        Ok((player, username))
    }

    /// Tops up `vnd` by bank transfer: the content and account the bank-transfer page shows,
    /// in a notification the bank feed sends `times` times (a provider retrying). The KP it
    /// must credit, and the player's transfer content.
    async fn top_up(&self, feed: &BankFeed, vnd: i64, times: usize) -> anyhow::Result<(i64, String)> {
        let methods = self.get("/payment/methods").await?;
        let bank = methods["bankTransfers"]
            .get(0)
            .context("no bank transfer method")?;
        let rate = bank["exchangeRate"].as_f64().context("exchangeRate")?;
        let syntax = bank["paymentSyntax"].as_str().context("paymentSyntax")?;
        let transfer = Transfer {
            gateway: bank["name"].as_str().context("name")?.to_owned(),
            account_number: bank["accountNumber"]
                .as_str()
                .context("accountNumber")?
                .to_owned(),
            content: Transfer::content_from_app(syntax),
            amount: vnd,
            id: Uuid::now_v7().simple().to_string(),
        };
        for _ in 0..times {
            let (status, answer) = transfer.send(&self.portal, feed).await?;
            ensure!(status.is_success(), "bank feed: {status} {answer}");
        }
        #[expect(clippy::cast_possible_truncation, reason = "a rate times a small VND amount")]
        let kp = (vnd as f64 * rate).round() as i64;
        Ok((kp, syntax.to_owned()))
    }

    /// Places a coin order with a fresh Idempotency-Key: the order as the portal answered it.
    async fn buy(&self, product: &str, zone: i64, kp: i64) -> anyhow::Result<Value> {
        let key = Uuid::now_v7().to_string();
        let order = json!({ "zoneId": zone, "creditAmount": kp, "productCode": product, "gReCaptchaToken": DEV_CAPTCHA });
        let path = format!("/payment/coin-recharge/{product}");
        let (status, placed) = self
            .send(Method::POST, &path, &[("Idempotency-Key", &key)], &order)
            .await?;
        ensure!(status == StatusCode::CREATED, "coin order: {status} {placed}");
        Ok(placed)
    }

    /// The statuses of the player's payments in the transaction history, by id.
    async fn statuses(&self) -> anyhow::Result<std::collections::HashMap<String, Value>> {
        let history = self.get("/payment/transaction-history").await?;
        Ok(history
            .as_array()
            .context("the history is a list")?
            .iter()
            .filter_map(|row| Some((row["id"].as_str()?.to_owned(), row.clone())))
            .collect())
    }
}

async fn answer(response: reqwest::Response) -> anyhow::Result<(StatusCode, Value)> {
    let status = response.status();
    let text = response.text().await?;
    Ok((status, serde_json::from_str(&text).unwrap_or(Value::String(text))))
}

/// Polls `check` until it gives a value, for at most [`PATIENCE`].
async fn within<T>(
    what: &str,
    mut check: impl AsyncFnMut() -> anyhow::Result<Option<T>>,
) -> anyhow::Result<T> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(value) = check().await? {
            return Ok(value);
        }
        if Instant::now() > deadline {
            bail!("{what}: not within {PATIENCE:?}");
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

fn step(started: Instant, what: &str) {
    println!("[{:>6.1}s] {what}", started.elapsed().as_secs_f64());
}

struct Args {
    portal: String,
    product: String,
    players: usize,
    seconds: u64,
    game: bool,
    refund_zone: Option<i64>,
}

const USAGE: &str = "usage: kid-smoke --portal <url> [--product <code>] [--players <n> --for <seconds> [--no-game] [--refund-zone <zone>]]";

fn parse_args() -> anyhow::Result<Args> {
    let mut parsed = Args {
        portal: String::new(),
        product: "fsonline".to_owned(),
        players: 0,
        seconds: 0,
        game: true,
        refund_zone: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .with_context(|| format!("{flag} needs a value; {USAGE}"))
        };
        match flag.as_str() {
            "--portal" => parsed.portal = value()?.trim_end_matches('/').to_owned(),
            "--product" => parsed.product = value()?,
            "--players" => parsed.players = value()?.parse()?,
            "--for" => parsed.seconds = value()?.parse()?,
            "--refund-zone" => parsed.refund_zone = Some(value()?.parse()?),
            "--no-game" => parsed.game = false,
            other => bail!("unknown argument {other}; {USAGE}"),
        }
    }
    ensure!(!parsed.portal.is_empty(), "{USAGE}");
    Ok(parsed)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = parse_args()?;
    kid_platform::install_tls_provider();
    let settings = Settings::load().context("loading settings")?;
    let shutdown = CancellationToken::new();
    // The game team's consumer, with its own broker user; its queue is declared before any
    // order is placed.
    let game = if args.game {
        let game = ReferenceGame::for_product(&settings, &args.product).await?;
        Some(tokio::spawn(game.run(shutdown.clone())))
    } else {
        None
    };
    let outcome = if args.players == 0 {
        journey(&args, &settings).await
    } else {
        traffic(&args, &settings).await
    };
    shutdown.cancel();
    if let Some(game) = game {
        game.await?;
    }
    outcome
}

/// The smoke journey: one player, each step checked.
async fn journey(args: &Args, settings: &Settings) -> anyhow::Result<()> {
    let started = Instant::now();
    let (player, username) = Player::register(&args.portal).await?;
    ensure!(player.credit().await? == 0, "a new player starts with 0 KP");
    step(started, &format!("registered {username}, signed in, 0 KP"));

    // The provider retries a notification it is not sure arrived: the same transfer twice.
    let feed = BankFeed::from_settings(&settings.payment);
    let (kp, syntax) = player.top_up(&feed, TOP_UP_VND, 2).await?;
    within("the top-up credited", async || {
        Ok((player.credit().await? == kp).then_some(()))
    })
    .await?;
    step(
        started,
        &format!("bank transfer of {TOP_UP_VND} VND ({syntax}) sent twice, credited once: {kp} KP"),
    );

    let placed = player.buy(&args.product, 1, COIN_KP).await?;
    let transaction = placed["transactionId"]
        .as_str()
        .context("transactionId")?
        .to_owned();
    ensure!(
        player.credit().await? == kp - COIN_KP,
        "the order's KP taken at once"
    );
    let row = within("the order delivered", async || {
        Ok(player
            .statuses()
            .await?
            .remove(&transaction)
            .filter(|row| row["status"] == "success"))
    })
    .await?;
    ensure!(
        player.credit().await? == kp - COIN_KP,
        "delivered: {COIN_KP} KP spent, no more"
    );
    step(
        started,
        &format!(
            "bought {} coins on {} for {COIN_KP} KP: delivered by the game ({})",
            placed["coins"], args.product, row["type"]
        ),
    );
    println!("smoke journey passed");
    Ok(())
}

/// What one player of the traffic did.
#[derive(Default)]
struct Tally {
    top_ups: usize,
    credited: i64,
    orders: usize,
    delivered: usize,
    refunded: usize,
}

/// `args.players` players topping up and buying until `args.seconds` have passed, each step
/// settled and checked.
async fn traffic(args: &Args, settings: &Settings) -> anyhow::Result<()> {
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.seconds);
    let feed = BankFeed::from_settings(&settings.payment);
    // Concurrently on this task: the players' futures borrow what they share. Each player
    // waits for each step to settle (the history shows only the last ten payments), and its
    // balance must be exact after every one.
    let players = (0..args.players).map(|_| async {
        let (player, _) = Player::register(&args.portal).await?;
        let mut tally = Tally::default();
        let mut balance = 0_i64;
        let mut round = 0_i64;
        while Instant::now() < deadline {
            round += 1;
            let (kp, _) = player.top_up(&feed, 100_000 + 50_000 * (round % 4), 1).await?;
            tally.top_ups += 1;
            tally.credited += kp;
            balance += kp;
            within("the top-up credited", async || {
                Ok((player.credit().await? == balance).then_some(()))
            })
            .await?;

            let zone = args.refund_zone.filter(|_| round % 5 == 0).unwrap_or(1);
            let placed = player.buy(&args.product, zone, COIN_KP).await?;
            let id = placed["transactionId"]
                .as_str()
                .context("transactionId")?
                .to_owned();
            balance -= COIN_KP;
            ensure!(player.credit().await? == balance, "the order's KP taken at once");
            let status = within("the order delivered or refunded", async || {
                let status = player
                    .statuses()
                    .await?
                    .get(&id)
                    .and_then(|row| row["status"].as_str().map(str::to_owned));
                Ok(status.filter(|status| status == "success" || status == "failed"))
            })
            .await?;
            if status == "failed" {
                tally.refunded += 1;
                balance += COIN_KP;
            } else {
                tally.delivered += 1;
            }
            tally.orders += 1;
            within("the balance after the order", async || {
                Ok((player.credit().await? == balance).then_some(()))
            })
            .await?;
        }
        anyhow::Ok(tally)
    });
    let mut total = Tally::default();
    for tally in futures::future::try_join_all(players).await? {
        total.top_ups += tally.top_ups;
        total.credited += tally.credited;
        total.delivered += tally.delivered;
        total.refunded += tally.refunded;
        total.orders += tally.orders;
    }
    step(
        started,
        &format!(
            "{} players: {} top-ups ({} KP credited), {} coin orders ({} delivered, {} refunded); every balance exact",
            args.players, total.top_ups, total.credited, total.orders, total.delivered, total.refunded
        ),
    );
    Ok(())
}
