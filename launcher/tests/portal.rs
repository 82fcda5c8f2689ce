//! The whole portal in one process against the real PostgreSQL, Redis and RabbitMQ: health,
//! readiness, the SPA with its history fallback, the locale file, and the CSRF defence.

use std::path::PathBuf;

use kid_launcher::Stack;
use kid_platform::{Settings, testing};
use reqwest::{Client, StatusCode, header};
use secrecy::SecretString;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

struct Portal {
    base: String,
    shutdown: CancellationToken,
    _dist: TempDist,
}

impl Drop for Portal {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// A stand-in for `web/dist`, so these tests do not depend on the web build.
struct TempDist(PathBuf);

impl TempDist {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("kid-dist-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(dir.join("locales")).expect("dist dir");
        std::fs::write(
            dir.join("index.html"),
            "<!doctype html><div id=\"root\">kid-spa</div>",
        )
        .expect("index");
        std::fs::write(
            dir.join("locales/vi-VN.json"),
            r#"{"notFound":"Trang bạn truy cập không tồn tại."}"#,
        )
        .expect("locale");
        Self(dir)
    }
}

impl Drop for TempDist {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn start(adjust: impl FnOnce(&mut Settings)) -> Portal {
    let mut settings = testing::isolated_settings().await.expect("settings");
    for endpoint in [
        &mut settings.services.identity,
        &mut settings.services.wallet,
        &mut settings.services.payment,
        &mut settings.services.recharge,
    ] {
        *endpoint = "http://127.0.0.1:0".to_owned();
    }
    let dist = TempDist::new();
    settings.gateway.web_dist = dist.0.display().to_string();
    adjust(&mut settings);
    let shutdown = CancellationToken::new();
    let stack = Stack::start(settings, shutdown.clone())
        .await
        .expect("stack starts");
    let base = format!("http://{}", stack.gateway);
    tokio::spawn(stack.wait());
    Portal {
        base,
        shutdown,
        _dist: dist,
    }
}

fn client() -> Client {
    Client::builder().cookie_store(true).build().expect("client")
}

#[tokio::test]
async fn healthz_answers_and_readyz_is_ready_with_every_dependency_up() {
    let portal = start(|_| {}).await;
    let http = client();
    let health = http
        .get(format!("{}/healthz", portal.base))
        .send()
        .await
        .expect("healthz");
    assert_eq!(health.status(), StatusCode::OK);

    let ready = http
        .get(format!("{}/readyz", portal.base))
        .send()
        .await
        .expect("readyz");
    assert_eq!(ready.status(), StatusCode::OK);
    let body: Value = ready.json().await.expect("json");
    for dependency in [
        "postgres", "redis", "rabbitmq", "identity", "wallet", "payment", "recharge",
    ] {
        assert_eq!(body["checks"][dependency], "ok", "{dependency} in {body}");
    }
}

#[tokio::test]
async fn readyz_names_rabbitmq_when_the_broker_cannot_be_reached() {
    let portal = start(|settings| {
        settings.amqp.url = SecretString::from("amqp://guest:guest@127.0.0.1:1/%2f");
    })
    .await;
    let ready = client()
        .get(format!("{}/readyz", portal.base))
        .send()
        .await
        .expect("readyz");
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = ready.json().await.expect("json");
    assert!(
        body["message"].as_str().expect("message").contains("rabbitmq"),
        "{body}"
    );
    assert_ne!(body["checks"]["rabbitmq"], "ok");
    assert_eq!(body["checks"]["postgres"], "ok");
    assert_eq!(body["checks"]["redis"], "ok");
}

#[tokio::test]
async fn the_spa_is_served_with_history_fallback_and_the_locale_file() {
    let portal = start(|_| {}).await;
    let http = client();
    for path in ["/", "/transactions", "/recharge/jxsj2", "/no/such/page"] {
        let page = http
            .get(format!("{}{path}", portal.base))
            .send()
            .await
            .expect("page");
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        assert!(page.headers().contains_key(header::CONTENT_SECURITY_POLICY));
        assert!(page.text().await.expect("body").contains("kid-spa"), "{path}");
    }
    let locale = http
        .get(format!("{}/locales/vi-VN.json", portal.base))
        .send()
        .await
        .expect("locale");
    assert_eq!(locale.status(), StatusCode::OK);
    let locale: Value = locale.json().await.expect("json");
    assert_eq!(locale["notFound"], "Trang bạn truy cập không tồn tại.");
}

#[tokio::test]
async fn unknown_api_paths_get_a_json_404_not_the_spa() {
    let portal = start(|_| {}).await;
    let response = client()
        .get(format!("{}/api/no-such-thing", portal.base))
        .send()
        .await
        .expect("api");
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let body: Value = response.json().await.expect("json");
    assert!(body["message"].is_string());
}

#[tokio::test]
async fn me_is_401_with_a_json_error_when_signed_out() {
    let portal = start(|_| {}).await;
    let response = client()
        .get(format!("{}/api/me", portal.base))
        .send()
        .await
        .expect("me");
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let body: Value = response.json().await.expect("json");
    assert!(body["message"].is_string());
}

async fn xsrf_token(http: &Client, base: &str) -> String {
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
    let session = cookies
        .iter()
        .find(|c| c.starts_with("kid_session="))
        .expect("session cookie");
    assert!(
        session.contains("HttpOnly") && session.contains("SameSite=Lax"),
        "{session}"
    );
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

#[tokio::test]
async fn a_post_without_the_xsrf_header_is_refused_with_a_json_error() {
    let portal = start(|_| {}).await;
    let http = client();
    let _token = xsrf_token(&http, &portal.base).await;
    let response = http
        .post(format!("{}/api/auth/logout", portal.base))
        .send()
        .await
        .expect("post");
    assert_eq!(response.status().as_u16(), 419);
    let body: Value = response.json().await.expect("a JSON body, not a 500 page");
    assert!(!body["message"].as_str().expect("message").is_empty());
}

#[tokio::test]
async fn a_post_with_a_wrong_token_or_a_foreign_origin_is_refused() {
    let portal = start(|_| {}).await;
    let http = client();
    let token = xsrf_token(&http, &portal.base).await;
    let wrong = http
        .post(format!("{}/api/auth/logout", portal.base))
        .header("X-XSRF-TOKEN", "not-the-token")
        .send()
        .await
        .expect("post");
    assert_eq!(wrong.status().as_u16(), 419);

    let foreign = http
        .post(format!("{}/api/auth/logout", portal.base))
        .header("X-XSRF-TOKEN", &token)
        .header("Origin", "https://evil.example")
        .send()
        .await
        .expect("post");
    assert_eq!(foreign.status(), StatusCode::FORBIDDEN);
    let body: Value = foreign.json().await.expect("json");
    assert!(body["message"].is_string());
}

#[tokio::test]
async fn a_post_with_the_sessions_token_passes_the_csrf_check() {
    let portal = start(|_| {}).await;
    let http = client();
    let token = xsrf_token(&http, &portal.base).await;
    let response = http
        .post(format!("{}/api/no-such-action", portal.base))
        .header("X-XSRF-TOKEN", &token)
        .send()
        .await
        .expect("post");
    // Past the CSRF check, the router answers: this path does not exist.
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_token_from_another_session_does_not_pass() {
    let portal = start(|_| {}).await;
    let theirs = xsrf_token(&client(), &portal.base).await;
    let http = client();
    let _ours = xsrf_token(&http, &portal.base).await;
    let response = http
        .post(format!("{}/api/no-such-action", portal.base))
        .header("X-XSRF-TOKEN", &theirs)
        .send()
        .await
        .expect("post");
    assert_eq!(response.status().as_u16(), 419);
}
