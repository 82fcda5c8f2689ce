//! The whole portal in one process against the real PostgreSQL, Redis and RabbitMQ: health,
//! readiness, the SPA with its history fallback, the locale file, and the CSRF defence.

use kid_testing::portal::{client, start, xsrf_token};
use reqwest::{StatusCode, header};
use secrecy::SecretString;
use serde_json::Value;

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
async fn the_openapi_document_is_served_to_anyone_as_the_gateway_describes_it() {
    let portal = start(|_| {}).await;
    let response = client()
        .get(format!("{}/api/openapi.json", portal.base))
        .send()
        .await
        .expect("openapi.json");
    assert_eq!(response.status(), StatusCode::OK);
    let served: Value = response.json().await.expect("json");
    let described = serde_json::to_value(kid_gateway::api::openapi()).expect("document");
    assert_eq!(served, described);
    assert_eq!(served["openapi"], "3.1.0");
    // The development mailbox is routed here, but it is no part of the contract.
    assert!(served["paths"].get("/dev/mailbox").is_none());
}

/// Mail holds reset links and security codes: once real mail is configured, the development
/// mailbox's listing is not served, whatever address a stranger asks for.
#[tokio::test]
async fn a_stranger_cannot_list_mail_once_smtp_is_configured() {
    let portal = start(|settings| settings.mail.smtp_url = "smtp://127.0.0.1:2525".to_owned().into()).await;
    let response = client()
        .get(format!("{}/api/dev/mailbox?to=demo@kid.example", portal.base))
        .send()
        .await
        .expect("mailbox");
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let body: Value = response.json().await.expect("a JSON error");
    assert!(body["message"].is_string(), "{body}");
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

#[tokio::test]
async fn no_api_answer_may_be_cached_and_pages_refuse_framing_and_sniffing() {
    let portal = start(|_| {}).await;
    let http = client();
    let token = xsrf_token(&http, &portal.base).await;
    let answers = [
        http.get(format!("{}/api/auth/csrf-cookie", portal.base))
            .send()
            .await,
        http.get(format!("{}/api/me", portal.base)).send().await,
        http.get(format!("{}/api/no-such-route", portal.base))
            .send()
            .await,
        http.post(format!("{}/api/auth/logout", portal.base))
            .header("X-XSRF-TOKEN", &token)
            .send()
            .await,
        http.post(format!("{}/api/webhooks/bank-transfer", portal.base))
            .body("{}")
            .send()
            .await,
    ];
    for answer in answers {
        let answer = answer.expect("answer");
        assert_eq!(
            answer
                .headers()
                .get("cache-control")
                .map(|value| value.to_str().expect("ascii")),
            Some("no-store"),
            "{} {}",
            answer.url(),
            answer.status()
        );
    }
    for page in ["/", "/reset-password/some-token", "/login"] {
        let answer = http
            .get(format!("{}{page}", portal.base))
            .send()
            .await
            .expect("page");
        let header = |name: &str| {
            answer
                .headers()
                .get(name)
                .map(|value| value.to_str().expect("ascii").to_owned())
                .unwrap_or_default()
        };
        assert_eq!(header("x-content-type-options"), "nosniff", "{page}");
        assert_eq!(header("referrer-policy"), "no-referrer", "{page}");
        assert_eq!(header("x-frame-options"), "DENY", "{page}");
        assert!(
            header("content-security-policy").contains("frame-ancestors 'none'"),
            "{page}"
        );
    }
}
