//! Every error shape of the REST API, asked of the gateway's router in process
//! (`tower::ServiceExt::oneshot`) with the real Redis and no service behind it: each answer is
//! the one JSON body `{message, errors}` with a Vietnamese message, under the status the
//! OpenAPI document gives it. (A 409 needs a service's refusal: services/recharge/tests/it/recharge.rs
//! meets it with a short balance.)

use std::net::SocketAddr;

use axum::{
    Extension, Router,
    body::Body,
    extract::ConnectInfo,
    http::{Request, StatusCode, header},
};
use kid_gateway::{
    router,
    session::Client,
    state::{AppState, Readiness},
};
use serde_json::{Value, json};
use tower::ServiceExt;

struct Gateway {
    router: Router,
    state: AppState,
}

/// The gateway's router on isolated settings (its own Redis prefix), with no service behind it.
async fn gateway() -> Gateway {
    let mut settings = kid_testing::isolated_settings().await.expect("settings");
    // A port nothing listens on: each gRPC call is refused as by a service that is down.
    for endpoint in [
        &mut settings.services.identity,
        &mut settings.services.wallet,
        &mut settings.services.payment,
        &mut settings.services.recharge,
    ] {
        *endpoint = "http://127.0.0.1:1".to_owned();
    }
    let state = AppState::new(&settings, Readiness::Edge).await.expect("state");
    // What `into_make_service_with_connect_info` gives each request of a served router.
    let peer = ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40_000)));
    let router = router(state.clone(), &settings, Default::default()).layer(Extension(peer));
    Gateway { router, state }
}

impl Gateway {
    async fn send(&self, request: Request<Body>) -> (StatusCode, Value) {
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("the router answers");
        let status = response.status();
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        assert_eq!(content_type, "application/json", "{status}: {body:?}");
        (status, serde_json::from_slice(&body).expect("a JSON body"))
    }

    /// Sends `request` and asserts it is refused under `status` with the one error body; the body.
    async fn refuses(&self, request: Request<Body>, status: StatusCode) -> Value {
        let (answered, body) = self.send(request).await;
        assert_eq!(answered, status, "{body}");
        assert_error(&body);
        body
    }

    /// An anonymous caller's XSRF cookie, as `GET /api/auth/csrf-cookie` sets it.
    async fn anonymous_token(&self) -> String {
        let response = self
            .router
            .clone()
            .oneshot(get("/api/auth/csrf-cookie"))
            .await
            .expect("csrf-cookie");
        let cookie = response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .find_map(|value| value.strip_prefix("XSRF-TOKEN="))
            .expect("an XSRF-TOKEN cookie")
            .to_owned();
        cookie.split(';').next().unwrap_or_default().to_owned()
    }

    /// A signed-in session for a player the identity service (down here) never has to know.
    async fn signed_in(&self) -> (String, String) {
        let client = Client {
            user_agent: "router test".to_owned(),
            ip: "127.0.0.1".to_owned(),
        };
        let session = self
            .state
            .sessions
            .sign_in(
                None,
                kid_gateway::session::random_token(),
                &uuid::Uuid::new_v4().to_string(),
                false,
                client,
            )
            .await
            .expect("session");
        (session.id, session.data.xsrf_token)
    }
}

fn get(path: &str) -> Request<Body> {
    Request::get(path).body(Body::empty()).expect("request")
}

fn post_json(path: &str, token: &str, body: &str) -> Request<Body> {
    Request::post(path)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::COOKIE, format!("XSRF-TOKEN={token}"))
        .header("x-xsrf-token", token)
        .body(Body::from(body.to_owned()))
        .expect("request")
}

fn assert_error(body: &Value) {
    let message = body["message"].as_str().expect("a message");
    assert!(
        !message.is_empty() && !message.is_ascii(),
        "a Vietnamese message: {body}"
    );
}

#[tokio::test]
async fn an_unknown_api_path_is_a_json_404() {
    let gateway = gateway().await;
    gateway
        .refuses(get("/api/no-such-route"), StatusCode::NOT_FOUND)
        .await;
}

#[tokio::test]
async fn a_signed_out_caller_asking_for_the_player_gets_401() {
    let gateway = gateway().await;
    gateway.refuses(get("/api/me"), StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn a_post_without_the_xsrf_header_gets_419_and_one_from_another_site_403() {
    let gateway = gateway().await;
    let bare = Request::post("/api/auth/login")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{}"))
        .expect("request");
    let csrf_mismatch = StatusCode::from_u16(419).expect("419");
    gateway.refuses(bare, csrf_mismatch).await;

    let token = gateway.anonymous_token().await;
    let mut foreign = post_json("/api/auth/login", &token, "{}");
    foreign
        .headers_mut()
        .insert(header::ORIGIN, "https://evil.example".parse().expect("origin"));
    gateway.refuses(foreign, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn malformed_json_gets_400_and_an_invalid_field_422_naming_it() {
    let gateway = gateway().await;
    let token = gateway.anonymous_token().await;
    let malformed = post_json("/api/auth/login", &token, "{\"username\": ");
    gateway.refuses(malformed, StatusCode::BAD_REQUEST).await;

    let empty = json!({ "username": "", "password": "x" }).to_string();
    let invalid = post_json("/api/auth/login", &token, &empty);
    let body = gateway.refuses(invalid, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["errors"]["username"][0], body["message"]);
}

#[tokio::test]
async fn a_service_that_is_down_gets_503_not_500() {
    let gateway = gateway().await;
    let token = gateway.anonymous_token().await;
    let login = json!({ "username": "someone", "password": "a password" }).to_string();
    let request = post_json("/api/auth/login", &token, &login);
    let body = gateway.refuses(request, StatusCode::SERVICE_UNAVAILABLE).await;
    assert!(body.get("errors").is_none(), "no field errors: {body}");
}

#[tokio::test]
async fn asking_again_within_the_cooldown_gets_429_with_retry_after() {
    let gateway = gateway().await;
    let (session, token) = gateway.signed_in().await;
    let ask = || {
        Request::post("/api/me/security-code/")
            .header(header::CONTENT_TYPE, "application/json")
            .header(
                header::COOKIE,
                format!("kid_session={session}; XSRF-TOKEN={token}"),
            )
            .header("x-xsrf-token", &token)
            .body(Body::from(
                json!({ "action": "confirm.change_email" }).to_string(),
            ))
            .expect("request")
    };
    // The first is let through (and fails at the identity service, which is down).
    let (status, _) = gateway.send(ask()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);

    let response = gateway
        .router
        .clone()
        .oneshot(ask())
        .await
        .expect("the router answers");
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after = kid_testing::portal::retry_after(response.headers());
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    assert_error(&serde_json::from_slice(&body).expect("json"));
}
