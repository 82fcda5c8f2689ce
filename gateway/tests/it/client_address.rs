//! Behind the Ingress every request comes from the proxy's address. With
//! `gateway.client_ip_source = RightmostXForwardedFor` the per-IP throttle counts the address
//! the proxy appended, so one player's failures do not lock out everyone behind the proxy, and
//! a player cannot escape the throttle by writing their own X-Forwarded-For entries.

use kid_testing::portal::{client, start, xsrf_token};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A failed sign-in (unknown account) as forwarded by the proxy with `forwarded_for`.
async fn sign_in(
    portal: &kid_testing::portal::Portal,
    attempt: usize,
    forwarded_for: Option<&str>,
) -> (StatusCode, Value) {
    let http = client();
    let token = xsrf_token(&http, &portal.base).await;
    let mut request = http
        .post(format!("{}/api/auth/login", portal.base))
        .header("X-XSRF-TOKEN", token)
        .json(&json!({ "username": format!("nobody{attempt}"), "password": "Wrong@123", "remember": false }));
    if let Some(forwarded_for) = forwarded_for {
        request = request.header("X-Forwarded-For", forwarded_for);
    }
    let response = request.send().await.expect("login");
    let status = response.status();
    (status, response.json().await.expect("JSON"))
}

#[tokio::test]
async fn the_per_ip_throttle_counts_the_address_the_proxy_saw() {
    let portal = start(|settings| {
        settings.gateway.client_ip_source = "RightmostXForwardedFor".to_owned();
    })
    .await;
    // Twenty free failures from one address (each for another account, so no account locks).
    for attempt in 0..20 {
        let (status, body) = sign_in(&portal, attempt, Some("203.0.113.7")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    }
    let (status, _) = sign_in(&portal, 20, Some("203.0.113.7")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // A leftmost entry the player wrote themselves changes nothing: the proxy appended .7.
    let (status, _) = sign_in(&portal, 21, Some("198.51.100.1, 203.0.113.7")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Another player behind the same proxy is not locked out.
    let (status, body) = sign_in(&portal, 22, Some("203.0.113.8")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    // A proxy that forgot the header: a JSON error, not an anonymous shared bucket.
    let (status, body) = sign_in(&portal, 23, None).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(body["message"].is_string(), "{body}");
}
