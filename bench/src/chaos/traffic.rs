//! The traffic model: many players at once, as browsers and the outside parties send it.
//! Each player signs up, tops up by bank transfer (the bank's signed notification, sometimes
//! sent twice, sometimes forged by someone without the provider's key) and by phone card
//! (through the aggregator's simulator, some cards worth less than declared, some invalid),
//! buys coins on every product and zone (zone 99's game refuses them), changes their password,
//! and signs out another device. Every request that the contract gives an idempotency key
//! carries one, and a request that times out or meets a 5xx is sent again with the same key, as
//! a browser or a bank does. What each client saw is kept in the [`Journal`] for the checker.

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use kid_payment::domain::bank_feed::{BankFeed, Outgoing, now_ms};
use reqwest::{Client, RequestBuilder, StatusCode};
use serde_json::{Value, json};
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use kid_launcher::player::DEV_CAPTCHA;

/// How long a client waits for an answer before it gives up on that try.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// Tries of one request (the first and the retries) before the client shows an error.
const TRIES: u32 = 6;

/// What a client finally saw of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// 2xx.
    Succeeded,
    /// A 4xx: the portal said no, and nothing may have moved.
    Refused,
    /// Every try timed out or met a 5xx: the client cannot know.
    Unknown,
}

/// Counters of one scenario's traffic.
#[derive(Default)]
pub struct Stats {
    pub requests: AtomicU64,
    pub succeeded: AtomicU64,
    /// Actions the client finally saw fail without a refusal (gave up on timeouts or 5xx).
    pub errors: AtomicU64,
    /// Each answered request's time, for the percentiles.
    pub latencies: std::sync::Mutex<Vec<Duration>>,
    /// Players' actions begun.
    pub actions: AtomicU64,
    /// Requests answered 5xx or not at all, retried or not.
    pub failed_requests: AtomicU64,
}

impl Stats {
    /// Reads and zeroes the counters: (requests, succeeded, errors, latencies).
    pub fn take(&self) -> (u64, u64, u64, Vec<Duration>) {
        let latencies = std::mem::take(
            &mut *self
                .latencies
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        (
            self.requests.swap(0, Ordering::SeqCst),
            self.succeeded.swap(0, Ordering::SeqCst),
            self.errors.swap(0, Ordering::SeqCst),
            latencies,
        )
    }
}

/// Everything the clients saw, for the checker to hold against the databases.
#[derive(Default)]
pub struct Journal {
    /// Coin orders: the Idempotency-Key and what the browser saw.
    pub coin_orders: Mutex<Vec<(String, Seen)>>,
    /// Bank notifications: the bank's transaction id, what the bank saw, and whether it was
    /// signed by the bank (a forged one must never credit).
    pub bank_transfers: Mutex<Vec<(String, Seen, bool)>>,
    /// Phone cards: the order id the portal answered with.
    pub cards: Mutex<Vec<String>>,
    /// Devices signed out by their player that could still act afterwards.
    pub surviving_sessions: AtomicU64,
    /// Password-guess throttles a fault made the portal forget.
    pub forgotten_throttles: AtomicU64,
    pub stats: Stats,
}

/// What the players share: where the portal is, the bank's secret, what can be bought.
pub struct World {
    pub base: String,
    /// The bank feed's provider as the portal is set up for it.
    pub feed: BankFeed,
    /// The same provider with a key that is not the portal's.
    pub forger: BankFeed,
    /// (product, price in KP) of every package on sale.
    pub packages: Vec<(String, i64)>,
    pub journal: Arc<Journal>,
    /// Names this run's bank transactions, cards and players apart from other runs'.
    pub run: String,
}

/// Spaces every player's actions so that together they start at most `per_second`.
pub struct Pace {
    period: Duration,
    next: Mutex<tokio::time::Instant>,
}

impl Pace {
    pub fn new(per_second: f64) -> Self {
        Self {
            period: Duration::from_secs_f64(1.0 / per_second.max(0.1)),
            next: Mutex::new(tokio::time::Instant::now()),
        }
    }

    async fn wait(&self) {
        let slot = {
            let mut next = self.next.lock().await;
            let slot = (*next).max(tokio::time::Instant::now());
            *next = slot + self.period;
            slot
        };
        tokio::time::sleep_until(slot).await;
    }
}

/// One player's browser.
pub struct Player {
    http: Client,
    xsrf: String,
    pub username: String,
    password: String,
    transfer_content: String,
    /// Numbers this player's bank transactions and cards.
    sent: u64,
}

enum Answer {
    Status(StatusCode, Value),
    GaveUp,
}

impl World {
    /// Sends what `build` makes until it gets an answer that is not a 5xx, at most [`TRIES`]
    /// times, waiting longer after each failure.
    async fn send(&self, build: impl Fn() -> RequestBuilder) -> Answer {
        let stats = &self.journal.stats;
        let mut wait = Duration::from_millis(200);
        for _ in 0..TRIES {
            stats.requests.fetch_add(1, Ordering::Relaxed);
            let sent = std::time::Instant::now();
            if let Ok(Ok(response)) = tokio::time::timeout(REQUEST_TIMEOUT, build().send()).await {
                stats
                    .latencies
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(sent.elapsed());
                let status = response.status();
                if !status.is_server_error() {
                    let body = response.json().await.unwrap_or(Value::Null);
                    if status.is_success() {
                        stats.succeeded.fetch_add(1, Ordering::Relaxed);
                    }
                    return Answer::Status(status, body);
                }
            }
            stats.failed_requests.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(3));
        }
        stats.errors.fetch_add(1, Ordering::Relaxed);
        Answer::GaveUp
    }

    /// The browser's XSRF token ([`crate::load::xsrf`]), asked for again as [`Self::send`]
    /// retries.
    async fn xsrf(&self, http: &Client) -> anyhow::Result<String> {
        let stats = &self.journal.stats;
        for _ in 0..TRIES {
            stats.requests.fetch_add(1, Ordering::Relaxed);
            if let Ok(Ok((token, _))) =
                tokio::time::timeout(REQUEST_TIMEOUT, crate::load::xsrf(http, &self.base)).await
            {
                stats.succeeded.fetch_add(1, Ordering::Relaxed);
                return Ok(token);
            }
            stats.failed_requests.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        stats.errors.fetch_add(1, Ordering::Relaxed);
        anyhow::bail!("no XSRF cookie")
    }

    /// Signs a new player up and keeps their session.
    pub async fn sign_up(&self, username: &str) -> anyhow::Result<Player> {
        let http = Client::builder().cookie_store(true).build()?;
        let xsrf = self.xsrf(&http).await?;
        let password = crate::load::PASSWORD.to_owned();
        let body = kid_launcher::player::registration(username, "chaos.example", &password);
        let answer = self
            .send(|| {
                http.post(format!("{}/api/auth/register", self.base))
                    .header("X-XSRF-TOKEN", &xsrf)
                    .json(&body)
            })
            .await;
        anyhow::ensure!(
            matches!(answer, Answer::Status(StatusCode::CREATED, _)),
            "signing {username} up failed"
        );
        let xsrf = self.xsrf(&http).await?;
        let methods = match self
            .send(|| http.get(format!("{}/api/payment/methods", self.base)))
            .await
        {
            Answer::Status(_, body) => body,
            Answer::GaveUp => anyhow::bail!("no payment methods"),
        };
        let transfer_content = crate::load::transfer_content(&methods)?;
        Ok(Player {
            http,
            xsrf,
            username: username.to_owned(),
            password,
            transfer_content,
            sent: 0,
        })
    }

    /// Signs `player` in again, as they do when their session is gone.
    async fn sign_in(&self, player: &mut Player) -> anyhow::Result<()> {
        player.http = Client::builder().cookie_store(true).build()?;
        let xsrf = self.xsrf(&player.http).await?;
        let body =
            json!({"username": player.username, "password": player.password, "gReCaptchaToken": DEV_CAPTCHA});
        let answer = self
            .send(|| {
                player
                    .http
                    .post(format!("{}/api/auth/login", self.base))
                    .header("X-XSRF-TOKEN", &xsrf)
                    .json(&body)
            })
            .await;
        anyhow::ensure!(
            matches!(answer, Answer::Status(status, _) if status.is_success()),
            "{} could not sign in again",
            player.username
        );
        player.xsrf = self.xsrf(&player.http).await?;
        Ok(())
    }

    /// A signed-in request; when the session is gone (as after a Redis restart: 401, or 419
    /// for the XSRF token that went with it) the player signs in again and sends it once more,
    /// as the SPA sends them to the sign-in page.
    async fn as_player(
        &self,
        player: &mut Player,
        build: impl Fn(&Client, &str) -> RequestBuilder,
    ) -> Answer {
        let answer = self.send(|| build(&player.http, &player.xsrf)).await;
        if matches!(
            answer,
            Answer::Status(StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN, _)
        ) && self.sign_in(player).await.is_ok()
        {
            return self.send(|| build(&player.http, &player.xsrf)).await;
        }
        answer
    }

    /// Plays `player` until `stop`, one action after another, each when `pace` allows it.
    pub async fn play(&self, player: Arc<Mutex<Player>>, stop: CancellationToken, pace: Option<Arc<Pace>>) {
        let mut player = player.lock().await;
        while !stop.is_cancelled() {
            if let Some(pace) = &pace {
                pace.wait().await;
            }
            self.journal.stats.actions.fetch_add(1, Ordering::Relaxed);
            let roll = rand::random_range(0..100);
            match roll {
                0..40 => self.buy_coins(&mut player).await,
                40..65 => self.bank_transfer(&mut player).await,
                65..80 => self.card(&mut player).await,
                80..84 => self.change_password(&mut player).await,
                84..88 => self.sign_out_other_device(&mut player).await,
                _ => {
                    let _ = self
                        .as_player(&mut player, |http, _| http.get(format!("{}/api/me", self.base)))
                        .await;
                }
            }
        }
    }

    /// One wrong password for `username`, as a guesser sends it (without a captcha, which
    /// would let them on past the free attempts): the status, or `None` when no answer came.
    pub async fn guess(&self, username: &str) -> Option<StatusCode> {
        let http = Client::builder().cookie_store(true).build().ok()?;
        let xsrf = self.xsrf(&http).await.ok()?;
        let body = json!({"username": username, "password": "Wrong@123456"});
        let sent = http
            .post(format!("{}/api/auth/login", self.base))
            .header("X-XSRF-TOKEN", xsrf)
            .json(&body)
            .send();
        match tokio::time::timeout(REQUEST_TIMEOUT, sent).await {
            Ok(Ok(response)) => Some(response.status()),
            _ => None,
        }
    }

    /// Guesses `username`'s password until the portal stops checking (429); false when it
    /// never did within twenty guesses.
    pub async fn guess_until_throttled(&self, username: &str) -> bool {
        for _ in 0..20 {
            if self.guess(username).await == Some(StatusCode::TOO_MANY_REQUESTS) {
                return true;
            }
        }
        false
    }

    /// One try at buying the cheapest package, for the recovery probe: the status, or `None`
    /// when no answer came. A lost session is signed in again for the next try.
    pub async fn probe_purchase(&self, player: &mut Player) -> Option<StatusCode> {
        let (product, credit) = self.packages.first()?.clone();
        let key = Uuid::now_v7().to_string();
        let body = json!({"zoneId": 1, "creditAmount": credit, "productCode": product, "gReCaptchaToken": DEV_CAPTCHA});
        let sent = player
            .http
            .post(format!("{}/api/payment/coin-recharge/{product}", self.base))
            .header("X-XSRF-TOKEN", &player.xsrf)
            .header("Idempotency-Key", &key)
            .json(&body)
            .send();
        let status = match tokio::time::timeout(REQUEST_TIMEOUT, sent).await {
            Ok(Ok(response)) => Some(response.status()),
            _ => None,
        };
        let seen = match status {
            Some(status) if status.is_success() => Seen::Succeeded,
            Some(status) if status.is_client_error() => Seen::Refused,
            _ => Seen::Unknown,
        };
        self.journal.coin_orders.lock().await.push((key, seen));
        if status.is_some_and(session_gone) {
            let _ = self.sign_in(player).await;
        }
        status
    }

    async fn buy_coins(&self, player: &mut Player) {
        let (product, credit) = self.packages[rand::random_range(0..self.packages.len())].clone();
        let zone = match rand::random_range(0..10) {
            0 => kid_recharge::domain::catalogue::FAILING_ZONE,
            1..5 => 2,
            _ => 1,
        };
        let key = Uuid::now_v7().to_string();
        let body = json!({"zoneId": zone, "creditAmount": credit, "productCode": product, "gReCaptchaToken": DEV_CAPTCHA});
        let url = format!("{}/api/payment/coin-recharge/{product}", self.base);
        let answer = self
            .as_player(player, |http, xsrf| {
                http.post(&url)
                    .header("X-XSRF-TOKEN", xsrf)
                    .header("Idempotency-Key", &key)
                    .json(&body)
            })
            .await;
        self.journal.coin_orders.lock().await.push((key, seen(&answer)));
    }

    async fn bank_transfer(&self, player: &mut Player) {
        player.sent += 1;
        let id = format!("chaos-{}-{}-{}", self.run, player.username, player.sent);
        let amount = 10_000 * rand::random_range(1..20);
        let content = format!("IBFT {}", player.transfer_content);
        let body = |id: &str, amount: i64| {
            self.feed.body(&Outgoing {
                id,
                gateway: "Vietcombank",
                account_number: "1023456789",
                sub_account: None,
                content: &content,
                amount_vnd: amount,
                transaction_date: "2026-11-26 10:00:00",
            })
        };
        let url = format!("{}/api/webhooks/bank-transfer", self.base);
        let genuine = body(&id, amount);
        // The provider proves each try anew (a signature carries the time).
        let post = |payload: &[u8], feed: &BankFeed| {
            let mut request = Client::new()
                .post(&url)
                .header("content-type", "application/json");
            for (name, value) in feed.headers(payload, now_ms()) {
                request = request.header(name, value);
            }
            request.body(payload.to_vec())
        };
        let answer = self.send(|| post(&genuine, &self.feed)).await;
        self.journal
            .bank_transfers
            .lock()
            .await
            .push((id.clone(), seen(&answer), true));
        match rand::random_range(0..20) {
            // The bank sends the same notification again.
            0..3 => {
                let again = self.send(|| post(&genuine, &self.feed)).await;
                self.journal
                    .bank_transfers
                    .lock()
                    .await
                    .push((id, seen(&again), true));
            }
            // Someone without the provider's key sends a notification of ten times as much.
            3 => {
                let forged_id = format!("{id}-forged");
                let forged = body(&forged_id, amount * 10);
                let answer = self.send(|| post(&forged, &self.forger)).await;
                self.journal
                    .bank_transfers
                    .lock()
                    .await
                    .push((forged_id, seen(&answer), false));
            }
            _ => {}
        }
    }

    async fn card(&self, player: &mut Player) {
        player.sent += 1;
        // Viettel: 15-digit PIN, 14-digit serial. The PIN's last four digits choose the
        // simulator's answer: 0003 is worth half, 0002 invalid, others good.
        let ending = match rand::random_range(0..10) {
            0 => "0003",
            1 => "0002",
            _ => "1234",
        };
        let pin = format!("{:011}{ending}", rand::random_range(0..100_000_000_000u64));
        let serial = format!("{:014}", rand::random_range(0..100_000_000_000_000u64));
        let value = [10_000, 20_000, 50_000][rand::random_range(0..3)];
        let body = json!({"provider": "viettel", "value": value, "pin": pin, "serial": serial, "gReCaptchaToken": DEV_CAPTCHA});
        let url = format!("{}/api/payment/card-recharge", self.base);
        let answer = self
            .as_player(player, |http, xsrf| {
                http.post(&url).header("X-XSRF-TOKEN", xsrf).json(&body)
            })
            .await;
        if let Answer::Status(StatusCode::ACCEPTED, body) = answer
            && let Some(order) = body["orderId"].as_str()
        {
            self.journal.cards.lock().await.push(order.to_owned());
        }
    }

    async fn change_password(&self, player: &mut Player) {
        let new = format!("Chaos@{}", rand::random_range(100_000..999_999));
        let body = json!({"currentPassword": player.password, "password": new, "passwordConfirm": new, "gReCaptchaToken": DEV_CAPTCHA});
        let url = format!("{}/api/me/change-password", self.base);
        let answer = self
            .as_player(player, |http, xsrf| {
                http.post(&url).header("X-XSRF-TOKEN", xsrf).json(&body)
            })
            .await;
        if matches!(answer, Answer::Status(status, _) if status.is_success()) {
            player.password = new;
        } else if matches!(answer, Answer::GaveUp) {
            // It may have changed: the player tries both until one signs in.
            let old = std::mem::replace(&mut player.password, new);
            if self.sign_in(player).await.is_err() {
                player.password = old;
            }
        }
    }

    /// Signs in on a second device, then signs that device out from the first: the second
    /// device must not act any more.
    async fn sign_out_other_device(&self, player: &mut Player) {
        let Ok(other) = self.second_device(player).await else {
            return;
        };
        let sessions = self
            .as_player(player, |http, _| {
                http.get(format!("{}/api/me/sessions", self.base))
            })
            .await;
        let Answer::Status(StatusCode::OK, Value::Array(sessions)) = sessions else {
            return;
        };
        let mut signed_out = false;
        for session in sessions.iter().filter(|session| session["current"] == false) {
            let Some(handle) = session["id"].as_str() else {
                continue;
            };
            let url = format!("{}/api/me/sessions/{handle}", self.base);
            let answer = self
                .as_player(player, |http, xsrf| {
                    http.delete(&url).header("X-XSRF-TOKEN", xsrf)
                })
                .await;
            signed_out |= matches!(answer, Answer::Status(status, _) if status.is_success());
        }
        if signed_out {
            let me = self
                .send(|| other.http.get(format!("{}/api/me", self.base)))
                .await;
            if matches!(me, Answer::Status(StatusCode::OK, _)) {
                self.journal.surviving_sessions.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    async fn second_device(&self, player: &Player) -> anyhow::Result<Player> {
        let mut other = Player {
            http: Client::new(),
            xsrf: String::new(),
            username: player.username.clone(),
            password: player.password.clone(),
            transfer_content: player.transfer_content.clone(),
            sent: 0,
        };
        self.sign_in(&mut other).await?;
        Ok(other)
    }
}

/// 401, or 419: the XSRF token of a session that is no more.
fn session_gone(status: StatusCode) -> bool {
    status == StatusCode::UNAUTHORIZED || status.as_u16() == 419
}

fn seen(answer: &Answer) -> Seen {
    match answer {
        Answer::Status(status, _) if status.is_success() => Seen::Succeeded,
        Answer::Status(..) => Seen::Refused,
        Answer::GaveUp => Seen::Unknown,
    }
}
