//! The sign-in history and the new-device mail, through the real gateway and identity: what a
//! player sees of their sign-ins and refused attempts, the mail a device they never used
//! brings, and its link that ends that device's session, once.

use kid_testing::portal::{
    PASSWORD, Portal, client, field_error, get_json, mail_for, mailbox, me_status, register, send_json,
    sign_in, start, status_and_json,
};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};

const CHROME_ON_WINDOWS: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 \
                                 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const NEW_DEVICE: &str = "Đăng nhập Kid từ một thiết bị mới";

/// A browser of its own: its own cookies, so its own device cookie.
fn browser(user_agent: &str) -> Client {
    Client::builder()
        .cookie_store(true)
        .user_agent(user_agent)
        .build()
        .expect("client")
}

async fn history(http: &Client, portal: &Portal) -> Vec<Value> {
    let (status, body) = get_json(http, portal, "/me/sign-ins").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    serde_json::from_value(body).expect("a list")
}

fn new_device_mails(inbox: &[Value]) -> Vec<&Value> {
    inbox
        .iter()
        .filter(|mail| mail["subject"] == NEW_DEVICE)
        .collect()
}

async fn end_session(portal: &Portal, token: &str) -> reqwest::Response {
    send_json(
        &client(),
        portal,
        Method::POST,
        "/auth/end-session",
        &json!({ "token": token }),
    )
    .await
}

#[tokio::test]
async fn the_history_lists_sign_ins_and_wrong_passwords_newest_first() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "history_player").await;
    let laptop = browser(CHROME_ON_WINDOWS);
    let response = sign_in(&laptop, &portal, "history_player", "Wrong@123456").await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let response = sign_in(&laptop, &portal, "history_player", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    // An unknown username has no history to write to.
    let response = sign_in(&laptop, &portal, "nobody_at_all", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);

    let rows = history(&laptop, &portal).await;
    assert_eq!(rows.len(), 3, "{rows:?}");
    let (newest, refused, sign_up) = (&rows[0], &rows[1], &rows[2]);
    assert_eq!(newest["succeeded"], true);
    assert_eq!(newest["method"], "password");
    assert_eq!(newest["failure"], Value::Null);
    assert_eq!(newest["device"], "Chrome 120 trên Windows 10");
    assert_eq!(newest["ip"], "127.0.0.1");
    assert_eq!(refused["succeeded"], false);
    assert_eq!(refused["failure"], "wrongPassword");
    assert_eq!(refused["device"], "Chrome 120 trên Windows 10");
    assert_eq!(sign_up["succeeded"], true);
    assert!(newest["occurredAt"].as_str() > refused["occurredAt"].as_str());
    assert!(refused["occurredAt"].as_str() >= sign_up["occurredAt"].as_str());
    // The same list for every session of the player, and nobody else's.
    assert_eq!(history(&http, &portal).await, rows);
    let other = register(&portal, "history_other").await;
    assert_eq!(history(&other, &portal).await.len(), 1);
    assert_eq!(
        get_json(&client(), &portal, "/me/sign-ins").await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_history_keeps_the_last_fifty() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "history_long").await;
    // Past five a sign-in needs the captcha, which the development portal takes as this.
    let wrong =
        json!({ "username": "history_long", "password": "Wrong@123456", "gReCaptchaToken": "dev-captcha" });
    for _ in 0..55 {
        let response = send_json(&http, &portal, Method::POST, "/auth/login", &wrong).await;
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    }
    let right = json!({ "username": "history_long", "password": PASSWORD, "gReCaptchaToken": "dev-captcha" });
    let response = send_json(&http, &portal, Method::POST, "/auth/login", &right).await;
    assert_eq!(response.status(), StatusCode::OK);
    let rows = history(&http, &portal).await;
    assert_eq!(rows.len(), 50);
    assert_eq!(rows[0]["succeeded"], true);
    assert!(rows[1..].iter().all(|row| row["failure"] == "wrongPassword"));
}

#[tokio::test]
async fn a_new_device_brings_a_mail_whose_link_ends_that_session_once() {
    let portal = start(|_| {}).await;
    let home = register(&portal, "new_device").await;
    let address = "new_device@example.com";
    let welcome = mailbox(&portal, address).await.len();

    // The device the player signed up on is known: no mail.
    let response = sign_in(&home, &portal, "new_device", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    // So is a wrong password from anywhere.
    let stranger = browser(CHROME_ON_WINDOWS);
    let response = sign_in(&stranger, &portal, "new_device", "Wrong@123456").await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    assert!(new_device_mails(&mailbox(&portal, address).await).is_empty());

    // Another device signs in: one mail, naming it, with a link.
    let response = sign_in(&stranger, &portal, "new_device", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    let inbox = mail_for(&portal, address, welcome + 1).await;
    let mails = new_device_mails(&inbox);
    assert_eq!(mails.len(), 1, "{inbox:?}");
    let text = mails[0]["text"].as_str().expect("text");
    assert!(text.contains("Thiết bị: Chrome 120 trên Windows 10"), "{text}");
    assert!(text.contains("Địa chỉ IP: 127.0.0.1"), "{text}");
    let link = mails[0]["link"].as_str().expect("link");
    assert!(link.contains("/end-session/"), "{link}");
    let token = link.rsplit('/').next().expect("token");

    // Signing in again from that device, now known, mails nothing more.
    let response = sign_in(&stranger, &portal, "new_device", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(me_status(&stranger, &portal).await, StatusCode::OK);

    // The link ends the session the mailed sign-in opened, from a browser signed in as nobody
    // (the stranger's later sign-in replaced that session, so a second mailed sign-in shows it
    // properly below); the player's own session stays.
    let (status, body) = status_and_json(end_session(&portal, token).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "ended": false }));
    assert_eq!(me_status(&home, &portal).await, StatusCode::OK);
    // Used once.
    assert_eq!(
        field_error(end_session(&portal, token).await, "token").await,
        kid_contracts::messages::links::MSG_INVALID_END_LINK
    );
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert_eq!(new_device_mails(&mailbox(&portal, address).await).len(), 1);

    // A third device: its mail's link signs that device out.
    let phone = browser(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
    );
    let response = sign_in(&phone, &portal, "new_device", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    let inbox = kid_testing::eventually("a second new-device mail", || async {
        let inbox = mailbox(&portal, address).await;
        (new_device_mails(&inbox).len() == 2).then_some(inbox)
    })
    .await;
    let newest = new_device_mails(&inbox)[0];
    assert!(
        newest["text"]
            .as_str()
            .expect("text")
            .contains("Safari 17 trên iPhone"),
        "{newest}"
    );
    let token = newest["link"]
        .as_str()
        .expect("link")
        .rsplit('/')
        .next()
        .expect("token")
        .to_owned();
    let (status, body) = status_and_json(end_session(&portal, &token).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "ended": true }));
    assert_eq!(me_status(&phone, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me_status(&stranger, &portal).await, StatusCode::OK);
    assert_eq!(me_status(&home, &portal).await, StatusCode::OK);
}

#[tokio::test]
async fn a_guessed_end_session_token_ends_nothing() {
    let portal = start(|_| {}).await;
    let home = register(&portal, "guessed_link").await;
    for token in ["", "x", &"A".repeat(43), &"A".repeat(500)] {
        assert_eq!(
            field_error(end_session(&portal, token).await, "token").await,
            kid_contracts::messages::links::MSG_INVALID_END_LINK,
            "{token}"
        );
    }
    assert_eq!(me_status(&home, &portal).await, StatusCode::OK);
}
