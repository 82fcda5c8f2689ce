//! Email verification through the gateway, the identity service, the mail courier and the
//! development mailbox: the link works once, within 24 hours, for the address it was sent to.

use kid_testing::portal::{
    PASSWORD, Portal, clear_cooldowns, client, execute, field_error, get_json, link_in, mail_for, mailbox,
    register, retry_after, send_json, start, xsrf_token,
};
use reqwest::{Client, Method, Response, StatusCode};
use serde_json::{Value, json};

async fn send(http: &Client, portal: &Portal) -> Response {
    let token = xsrf_token(http, &portal.base).await;
    http.post(format!("{}/api/auth/email-verification/send", portal.base))
        .header("X-XSRF-TOKEN", token)
        .send()
        .await
        .expect("send")
}

async fn verify(portal: &Portal, token: &str) -> Response {
    let body = json!({ "token": token });
    send_json(&client(), portal, Method::PUT, "/auth/email-verification", &body).await
}

/// The newest verification link mailed to `to`, waiting for the courier to deliver it.
async fn link_for(portal: &Portal, to: &str, messages: usize) -> String {
    let inbox = mail_for(portal, to, messages).await;
    let newest = &inbox[0];
    assert_eq!(newest["subject"], "Xác minh địa chỉ email tài khoản Kid");
    let link = link_in(newest).expect("a link").to_owned();
    assert!(newest["text"].as_str().is_some_and(|text| text.contains(&link)));
    link
}

fn token_of(link: &str) -> &str {
    link.rsplit('/').next().expect("token")
}

async fn verified_at(http: &Client, portal: &Portal) -> Value {
    let (_, me) = get_json(http, portal, "/me").await;
    me["verifiedAt"].clone()
}

async fn token_error(response: Response) -> String {
    field_error(response, "token").await
}

#[tokio::test]
async fn the_mailed_link_verifies_the_address_once() {
    let portal = start(|settings| settings.gateway.public_url = "https://portal.kid.example".into()).await;
    let http = register(&portal, "verify_me").await;
    assert_eq!(verified_at(&http, &portal).await, Value::Null);

    assert_eq!(send(&http, &portal).await.status(), StatusCode::NO_CONTENT);
    let link = link_for(&portal, "VERIFY_ME@example.com", 1).await;
    assert!(
        link.starts_with("https://portal.kid.example/email-verification/"),
        "links come from configuration, not the request: {link}"
    );
    assert_eq!(
        verify(&portal, token_of(&link)).await.status(),
        StatusCode::NO_CONTENT
    );
    assert!(verified_at(&http, &portal).await.is_string());

    let again = token_error(verify(&portal, token_of(&link)).await).await;
    assert_eq!(again, "Đường dẫn xác minh không hợp lệ hoặc đã hết hiệu lực.");
    clear_cooldowns(&portal).await;
    let already = send(&http, &portal).await;
    assert_eq!(already.status(), StatusCode::CONFLICT);
}

#[tokio::test]
async fn forged_expired_and_superseded_links_are_refused() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "link_checks").await;
    assert!(
        !token_error(verify(&portal, "forged-token-0123456789").await)
            .await
            .is_empty()
    );
    assert!(!token_error(verify(&portal, "").await).await.is_empty());
    assert!(
        !token_error(verify(&portal, &"x".repeat(5_000)).await)
            .await
            .is_empty()
    );

    send(&http, &portal).await;
    let first = link_for(&portal, "link_checks@example.com", 1).await;
    execute(
        &portal,
        "identity",
        "update email_token set expires_at = now() - interval '1 second'",
    )
    .await;
    token_error(verify(&portal, token_of(&first)).await).await;

    clear_cooldowns(&portal).await;
    send(&http, &portal).await;
    let older = link_for(&portal, "link_checks@example.com", 2).await;
    clear_cooldowns(&portal).await;
    send(&http, &portal).await;
    let newer = link_for(&portal, "link_checks@example.com", 3).await;
    token_error(verify(&portal, token_of(&older)).await).await;
    assert_eq!(
        verify(&portal, token_of(&newer)).await.status(),
        StatusCode::NO_CONTENT
    );
    assert!(verified_at(&http, &portal).await.is_string());
}

#[tokio::test]
async fn asking_again_within_a_minute_is_refused_with_retry_after() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "eager_player").await;
    assert_eq!(send(&http, &portal).await.status(), StatusCode::NO_CONTENT);
    let again = send(&http, &portal).await;
    assert_eq!(again.status(), StatusCode::TOO_MANY_REQUESTS);
    let wait = retry_after(again.headers());
    assert!((1..=60).contains(&wait), "{wait}");
    link_for(&portal, "eager_player@example.com", 1).await;
    assert_eq!(mailbox(&portal, "eager_player@example.com").await.len(), 1);
}

#[tokio::test]
async fn sending_needs_a_signed_in_player() {
    let portal = start(|_| {}).await;
    let response = send(&client(), &portal).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

/// Someone registers with an address another player verified, then clicks (or gets the owner
/// to click) the verification link: the address stays the first player's.
#[tokio::test]
async fn an_address_another_account_verified_cannot_be_verified_again() {
    let portal = start(|_| {}).await;
    let owner = register(&portal, "first_holder").await;
    assert_eq!(send(&owner, &portal).await.status(), StatusCode::NO_CONTENT);
    let link = link_for(&portal, "first_holder@example.com", 1).await;
    assert_eq!(
        verify(&portal, token_of(&link)).await.status(),
        StatusCode::NO_CONTENT
    );

    let squatter = client();
    let body = json!({
        "email": "FIRST_HOLDER@example.com", "receiveNewsletter": false, "dob": "2000-01-01",
        "username": "squatter", "password": PASSWORD, "passwordConfirm": PASSWORD,
        "gReCaptchaToken": "dev-captcha",
    });
    let registered = send_json(&squatter, &portal, Method::POST, "/auth/register", &body).await;
    assert_eq!(registered.status(), StatusCode::CREATED);
    assert_eq!(send(&squatter, &portal).await.status(), StatusCode::NO_CONTENT);
    let inbox = mail_for(&portal, "first_holder@example.com", 3).await;
    let link = inbox
        .iter()
        .find(|mail| mail["subject"] == "Xác minh địa chỉ email tài khoản Kid")
        .and_then(link_in)
        .expect("the squatter's verification link")
        .to_owned();
    assert!(verify(&portal, token_of(&link)).await.status().is_client_error());
    assert_eq!(verified_at(&squatter, &portal).await, Value::Null);
    assert_ne!(verified_at(&owner, &portal).await, Value::Null);
}
