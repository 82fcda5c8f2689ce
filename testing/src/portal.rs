//! The whole portal on free ports, against a fresh database, exchange and Redis prefix: for the
//! tests that drive it as a player, a game or an outside party does (REST, webhooks, events),
//! next to the crate each one tests. Behind the `portal` feature: it links every service.

use std::{path::PathBuf, sync::Arc};

use kid_contracts::wallet::v1::{CreditRequest, TopupType, wallet_service_client::WalletServiceClient};
use kid_launcher::Stack;
use kid_platform::{
    Settings,
    auth::{AttachInternalJwt, InternalJwt},
    grpc,
};
use reqwest::{Client, StatusCode, header};
use secrecy::ExposeSecret;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

pub struct Portal {
    pub base: String,
    /// The settings the portal runs with (its own database, exchange and Redis prefix).
    pub settings: Settings,
    /// Where the wallet service answers gRPC.
    pub wallet: String,
    /// The running stack, so a test can stop and start one service.
    pub stack: Stack,
    shutdown: CancellationToken,
    _dist: TempDist,
}

impl Drop for Portal {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// A stand-in for `web/dist`, so these tests do not depend on the web build.
pub struct TempDist(PathBuf);

impl TempDist {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("kid-dist-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).expect("dist dir");
        std::fs::write(
            dir.join("index.html"),
            "<!doctype html><div id=\"root\">kid-spa</div>",
        )
        .expect("index");
        std::fs::write(dir.join("favicon.svg"), r#"<svg id="kid-icon"/>"#).expect("icon");
        Self(dir)
    }
}

impl Drop for TempDist {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub async fn start(adjust: impl FnOnce(&mut Settings)) -> Portal {
    let mut settings = crate::isolated_settings().await.expect("settings");
    let dist = TempDist::new();
    settings.gateway.web_dist = dist.0.display().to_string();
    adjust(&mut settings);
    let shutdown = CancellationToken::new();
    let stack = Stack::start(settings.clone(), shutdown.clone())
        .await
        .expect("stack starts");
    let base = format!("http://{}", stack.gateway);
    let wallet = stack
        .services
        .iter()
        .find(|(name, _)| *name == "wallet")
        .map(|(_, address)| format!("http://{address}"))
        .expect("the wallet runs");
    Portal {
        base,
        settings,
        wallet,
        stack,
        shutdown,
        _dist: dist,
    }
}

pub fn client() -> Client {
    Client::builder().cookie_store(true).build().expect("client")
}

/// A client (with cookies) whose every request reaches the gateway through the proxy from
/// `address`, for a portal started with `gateway.client_ip_source = "RightmostXForwardedFor"`.
pub fn client_at(address: &str) -> Client {
    let mut headers = header::HeaderMap::new();
    headers.insert(
        "x-forwarded-for",
        header::HeaderValue::from_str(address).expect("address"),
    );
    Client::builder()
        .cookie_store(true)
        .default_headers(headers)
        .build()
        .expect("client")
}

pub async fn xsrf_token(http: &Client, base: &str) -> String {
    let response = http
        .get(format!("{base}/api/auth/csrf-cookie"))
        .send()
        .await
        .expect("csrf-cookie");
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let cookies: Vec<String> = response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .map(|value| value.to_str().expect("ascii").to_owned())
        .collect();
    // An anonymous caller gets no session (nothing is kept for it); a signed-in one's is
    // renewed.
    if let Some(session) = cookies.iter().find(|c| c.starts_with("kid_session=")) {
        assert!(
            session.contains("HttpOnly") && session.contains("SameSite=Lax"),
            "{session}"
        );
    }
    let xsrf = cookies
        .iter()
        .find(|c| c.starts_with("XSRF-TOKEN="))
        .expect("XSRF-TOKEN cookie");
    assert!(!xsrf.contains("HttpOnly"), "the SPA must be able to read {xsrf}");
    xsrf.trim_start_matches("XSRF-TOKEN=")
        .split(';')
        .next()
        .expect("value")
        .to_owned()
}

pub const PASSWORD: &str = "Secret@123";

/// Registers `username` (email `<username>@example.com`, password [`PASSWORD`]) and returns
/// the signed-in client.
pub async fn register(portal: &Portal, username: &str) -> Client {
    let http = client();
    let response = sign_up(&http, portal, username, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    http
}

/// Asks to register `username` (email `<username>@example.com`) with `password` from `http`,
/// as the sign-up form does, and gives the answer whatever it is.
pub async fn sign_up(http: &Client, portal: &Portal, username: &str, password: &str) -> reqwest::Response {
    let token = xsrf_token(http, &portal.base).await;
    http.post(format!("{}/api/auth/register", portal.base))
        .header("X-XSRF-TOKEN", token)
        .json(&kid_launcher::player::registration(
            username,
            "example.com",
            password,
        ))
        .send()
        .await
        .expect("register")
}

/// Sends a state-changing request with a fresh XSRF token.
pub async fn send_json(
    http: &Client,
    portal: &Portal,
    method: reqwest::Method,
    path: &str,
    body: &serde_json::Value,
) -> reqwest::Response {
    let token = xsrf_token(http, &portal.base).await;
    http.request(method, format!("{}/api{path}", portal.base))
        .header("X-XSRF-TOKEN", token)
        .json(body)
        .send()
        .await
        .expect("request")
}

/// The development mailbox's messages to `to`, newest first.
pub async fn mailbox(portal: &Portal, to: &str) -> Vec<serde_json::Value> {
    let response = get(&client(), portal, &format!("/api/dev/mailbox?to={to}")).await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.expect("json")
}

pub use crate::eventually;

/// Waits until `to` has `count` messages, and returns them, newest first.
pub async fn mail_for(portal: &Portal, to: &str, count: usize) -> Vec<serde_json::Value> {
    eventually(&format!("{to} receives {count} messages"), || async {
        let inbox = mailbox(portal, to).await;
        (inbox.len() >= count).then_some(inbox)
    })
    .await
}

/// Waits until `to` has a message titled `subject`, and returns the newest such. Other mail may
/// come and go around it (a sign-in from a new client brings a new-device mail).
pub async fn mail_titled(portal: &Portal, to: &str, subject: &str) -> serde_json::Value {
    eventually(&format!("{to} receives \"{subject}\""), || async {
        mailbox(portal, to)
            .await
            .into_iter()
            .find(|mail| mail["subject"] == subject)
    })
    .await
}

/// The link a message of the development mailbox carries (a verification or reset link).
pub fn link_in(mail: &Value) -> Option<&str> {
    mail["link"].as_str()
}

/// The token of the password-reset link `mail` carries.
pub fn reset_token(mail: &Value) -> String {
    let link = link_in(mail).expect("a link");
    assert!(link.contains("/recovery/forgot-password/"), "{link}");
    link.rsplit('/').next().expect("token").to_owned()
}

/// Lets players ask again at once, as if every cooldown (one mail a minute…) had passed.
pub async fn clear_cooldowns(portal: &Portal) {
    let redis = redis::Client::open("redis://127.0.0.1:6379").expect("redis");
    let mut redis = redis.get_multiplexed_async_connection().await.expect("redis");
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{}:cooldown:*", portal.settings.redis.key_prefix))
        .query_async(&mut redis)
        .await
        .expect("keys");
    if !keys.is_empty() {
        let _: () = redis::cmd("DEL")
            .arg(keys)
            .query_async(&mut redis)
            .await
            .expect("del");
    }
}

/// The status `GET /api/me` answers `http`: whether its session is still signed in.
pub async fn me_status(http: &Client, portal: &Portal) -> StatusCode {
    get(http, portal, "/api/me").await.status()
}

/// Registers `username` and returns the signed-in client with the player's id.
pub async fn registered(portal: &Portal, username: &str) -> (Client, uuid::Uuid) {
    let http = register(portal, username).await;
    let identity = database(portal, "identity").await;
    let id: uuid::Uuid = sqlx::query_scalar("select id from user_account where username = $1")
        .bind(username)
        .fetch_one(&identity)
        .await
        .expect("player id");
    (http, id)
}

/// GET `/api{path}`: the status and JSON body.
pub async fn get_json(http: &Client, portal: &Portal, path: &str) -> (StatusCode, serde_json::Value) {
    status_and_json(get(http, portal, &format!("/api{path}")).await).await
}

/// GET `path` from the portal's root (`/readyz`, `/api/me`, a page of the SPA).
pub async fn get(http: &Client, portal: &Portal, path: &str) -> reqwest::Response {
    http.get(format!("{}{path}", portal.base))
        .send()
        .await
        .unwrap_or_else(|error| panic!("GET {path}: {error}"))
}

/// A response's status and JSON body.
pub async fn status_and_json(response: reqwest::Response) -> (StatusCode, serde_json::Value) {
    let status = response.status();
    (status, response.json().await.expect("json"))
}

/// The message of a 422 for `field` (its first), asserting the status and that there is one.
pub async fn field_error(response: reqwest::Response, field: &str) -> String {
    let (status, body) = status_and_json(response).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    body["errors"][field][0]
        .as_str()
        .unwrap_or_else(|| panic!("no error for {field} in {body}"))
        .to_owned()
}

/// The seconds a 429 (or 503) asks to wait, in its `Retry-After` header.
pub fn retry_after(headers: &header::HeaderMap) -> u64 {
    headers
        .get(header::RETRY_AFTER)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse().ok())
        .expect("Retry-After seconds")
}

/// Signs `http` in as `username` (a session for the browser only, without remember-me).
pub async fn sign_in(http: &Client, portal: &Portal, username: &str, password: &str) -> reqwest::Response {
    let body = serde_json::json!({ "username": username, "password": password });
    send_json(http, portal, reqwest::Method::POST, "/auth/login", &body).await
}

/// Asks for a reset link for `username`'s account, as the forgotten-password form does.
pub async fn ask_password_reset(portal: &Portal, username: &str) -> reqwest::Response {
    let body = serde_json::json!({ "username": username, "gReCaptchaToken": "dev-captcha" });
    send_json(
        &client(),
        portal,
        reqwest::Method::POST,
        "/auth/reset-password/send-email",
        &body,
    )
    .await
}

/// Sets a new password through the reset link's `token`, as the reset form does.
pub async fn reset_password(
    portal: &Portal,
    token: &str,
    password: &str,
    confirm: &str,
) -> reqwest::Response {
    let body = serde_json::json!({ "token": token, "password": password, "passwordConfirm": confirm });
    send_json(
        &client(),
        portal,
        reqwest::Method::POST,
        "/auth/reset-password",
        &body,
    )
    .await
}

/// A pool on the database of `service` (`identity`, `wallet`...), to look behind the API.
pub async fn database(portal: &Portal, service: &str) -> sqlx::PgPool {
    kid_platform::db::connect(&portal.settings.database, service)
        .await
        .expect("pool")
}

/// Marks `username`'s address verified, as its verification link would.
pub async fn mark_verified(portal: &Portal, username: &str) {
    sqlx::query("update user_account set verified_at = now() where username = $1")
        .bind(username)
        .execute(&database(portal, "identity").await)
        .await
        .expect("verify");
}

/// Runs `statement` on the database of `service`: to set up what no API call can (an address
/// verified, a token expired, an hour passed).
pub async fn execute(portal: &Portal, service: &str, statement: &'static str) {
    sqlx::query(statement)
        .execute(&database(portal, service).await)
        .await
        .unwrap_or_else(|error| panic!("{statement}: {error}"));
}

/// Credits `kp` to the player as a bank transfer, straight through the wallet's gRPC.
pub async fn fund(portal: &Portal, player: Uuid, kp: i64) {
    fund_at(portal, &portal.wallet, player, kp).await;
}

/// [`fund`] through the wallet at `wallet` (a second replica, say).
pub async fn fund_at(portal: &Portal, wallet: &str, player: Uuid, kp: i64) {
    fund_with(&portal.settings, wallet, player, kp).await;
}

/// [`fund`] without borrowing the portal, for a spawned task.
pub async fn fund_with(settings: &Settings, wallet: &str, player: Uuid, kp: i64) {
    operator_wallet(settings, wallet)
        .expect("channel")
        .credit(funding(player, kp, format!("fund-{}", Uuid::new_v4())))
        .await
        .expect("credit");
}

/// The wallet's gRPC client calling as the operator, which may credit players directly.
pub type OperatorWallet = WalletServiceClient<
    tonic::service::interceptor::InterceptedService<tonic::transport::Channel, AttachInternalJwt>,
>;

/// The wallet at `endpoint`, called as the operator.
pub fn operator_wallet(
    settings: &Settings,
    endpoint: &str,
) -> Result<OperatorWallet, tonic::transport::Error> {
    let jwt = AttachInternalJwt::new(
        Arc::new(InternalJwt::new(&settings.jwt).expect("keys")),
        kid_platform::auth::OPERATOR,
    );
    Ok(WalletServiceClient::with_interceptor(
        grpc::lazy_channel(endpoint)?,
        jwt,
    ))
}

/// A bank-transfer top-up of `kp` KP (for as many VND) to `player`, under `key`.
pub fn funding(player: Uuid, kp: i64, key: String) -> CreditRequest {
    CreditRequest {
        idempotency_key: key,
        user_id: player.to_string(),
        topup_type: TopupType::BankTransfer.into(),
        source: "vietcombank".into(),
        amount_vnd: kp,
        kp,
        card_serial: String::new(),
        error_code: String::new(),
    }
}

/// POST /api/payment/coin-recharge/{product} with an Idempotency-Key.
pub async fn buy(
    http: &Client,
    portal: &Portal,
    product: &str,
    key: &str,
    body: &Value,
) -> (StatusCode, Value) {
    let token = xsrf_token(http, &portal.base).await;
    let response = http
        .post(format!("{}/api/payment/coin-recharge/{product}", portal.base))
        .header("X-XSRF-TOKEN", token)
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
        .expect("coin recharge");
    let status = response.status();
    (status, response.json().await.expect("json"))
}

/// POST /api/giftcode/redeem with an Idempotency-Key; `zone` for a code of items.
pub async fn redeem_giftcode(
    http: &Client,
    portal: &Portal,
    code: &str,
    zone: Option<i64>,
    key: &str,
) -> (StatusCode, Value) {
    let mut body = serde_json::json!({ "code": code, "gReCaptchaToken": "dev-captcha" });
    if let Some(zone) = zone {
        body["zoneId"] = serde_json::json!(zone);
    }
    let token = xsrf_token(http, &portal.base).await;
    let response = http
        .post(format!("{}/api/giftcode/redeem", portal.base))
        .header("X-XSRF-TOKEN", token)
        .header("Idempotency-Key", key)
        .json(&body)
        .send()
        .await
        .expect("redeem");
    status_and_json(response).await
}

/// A private queue bound to the events exchange with `pattern`, as a game team's consumer or a
/// test's spy binds one: its channel and its deliveries (acknowledged by hand unless `no_ack`).
pub async fn listen(settings: &Settings, pattern: &str, no_ack: bool) -> (lapin::Channel, lapin::Consumer) {
    let connection = kid_platform::amqp::connect(settings.amqp.url.expose_secret(), "test-listener")
        .await
        .expect("broker");
    let channel = connection.create_channel().await.expect("channel");
    kid_platform::amqp::declare_exchanges(&channel, &settings.amqp.exchange)
        .await
        .expect("exchange");
    let deliveries = kid_platform::amqp::consume_private(&channel, &settings.amqp.exchange, pattern, no_ack)
        .await
        .expect("a private queue");
    (channel, deliveries)
}

/// The game contract's JSON Schema `name` (docs/game-contract/schemas), checking formats too:
/// what a game team validates our messages against.
pub fn contract_schema(name: &str) -> jsonschema::Validator {
    let path = format!(
        "{}/../docs/game-contract/schemas/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    jsonschema::options()
        .should_validate_formats(true)
        .build(&serde_json::from_str(&text).expect("schema JSON"))
        .expect("a valid schema")
}

/// The development staff's password.
pub const STAFF_PASSWORD: &str = "Staff@123456";

/// Creates the development staff (`staff-admin`, `staff-finance`, `staff-finance2`,
/// `staff-support`, `staff-viewer`) in the portal's database.
pub async fn seed_staff(portal: &Portal) {
    kid_identity::seed_staff(&portal.settings)
        .await
        .expect("staff seeded");
}

/// The development staff's app code `steps` 30-second steps from now (identity accepts one step
/// either way, each step once per member: a second sign-in within a step uses `steps = 1`).
pub fn staff_code(steps: i64) -> String {
    let secret = totp_rs::Secret::try_from_base32(kid_identity::app::staff::DEVELOPMENT_TOTP_SECRET)
        .expect("base32")
        .as_bytes()
        .to_vec();
    let totp = totp_rs::Builder::new().with_secret(secret).build_noncompliant();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    totp.generate(now.saturating_add_signed(steps * 30)).to_string()
}

/// The console's XSRF token for `http` (its own cookie, not the player's).
pub async fn staff_xsrf_token(http: &Client, base: &str) -> String {
    let response = http
        .get(format!("{base}/api/staff/auth/csrf-cookie"))
        .send()
        .await
        .expect("staff csrf-cookie");
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|cookie| cookie.strip_prefix("STAFF-XSRF-TOKEN="))
        .and_then(|rest| rest.split(';').next())
        .expect("STAFF-XSRF-TOKEN cookie")
        .to_owned()
}

/// A console call with the console's XSRF token.
pub async fn staff_send(
    http: &Client,
    portal: &Portal,
    method: reqwest::Method,
    path: &str,
    body: &serde_json::Value,
) -> reqwest::Response {
    let token = staff_xsrf_token(http, &portal.base).await;
    http.request(method, format!("{}/api{path}", portal.base))
        .header("X-XSRF-TOKEN", token)
        .json(body)
        .send()
        .await
        .expect("request")
}

/// Signs `username` (a development staff member) in to the console with the app code
/// `steps` steps from now; the answer whatever it is.
pub async fn staff_sign_in_at(
    http: &Client,
    portal: &Portal,
    username: &str,
    steps: i64,
) -> reqwest::Response {
    let body =
        serde_json::json!({ "username": username, "password": STAFF_PASSWORD, "code": staff_code(steps) });
    staff_send(http, portal, reqwest::Method::POST, "/staff/auth/sign-in", &body).await
}

/// A client signed in to the console as `username`.
pub async fn staff(portal: &Portal, username: &str) -> Client {
    let http = client();
    let response = staff_sign_in_at(&http, portal, username, 0).await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "{username} signs in to the console"
    );
    http
}
