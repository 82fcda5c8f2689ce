//! Changing the account's email: a security code mailed to the current address is required
//! only while that address is verified; codes are single use, expire, and die after five
//! wrong tries.

mod common;

use common::{Portal, clear_cooldowns, client, mail_for, register, send_json, start};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};

async fn change(http: &Client, portal: &Portal, email: &str, code: &str) -> (StatusCode, Value) {
    let body = json!({ "email": email, "securityCode": code, "gReCaptchaToken": "dev-captcha" });
    let response = send_json(http, portal, Method::POST, "/me/change-email", &body).await;
    let status = response.status();
    (status, response.json().await.expect("json"))
}

async fn ask_code(http: &Client, portal: &Portal) -> (StatusCode, Value) {
    let body = json!({ "action": "confirm.change_email" });
    let response = send_json(http, portal, Method::POST, "/me/security-code/", &body).await;
    let status = response.status();
    (status, response.json().await.expect("json"))
}

async fn mark_verified(portal: &Portal, username: &str) {
    let identity = kid_platform::db::connect(&portal.settings.database, "identity")
        .await
        .expect("pool");
    sqlx::query("update user_account set verified_at = now() where username = $1")
        .bind(username)
        .execute(&identity)
        .await
        .expect("verify");
}

/// The code in the newest mail to `to` once it holds `count` messages.
async fn code_for(portal: &Portal, to: &str, count: usize) -> String {
    let inbox = mail_for(portal, to, count).await;
    assert_eq!(inbox[0]["subject"], "Mã bảo mật tài khoản Kid");
    inbox[0]["code"].as_str().expect("a code").to_owned()
}

#[tokio::test]
async fn an_unverified_address_changes_without_a_code_and_the_new_one_starts_unverified() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "unverified_mover").await;
    let (status, user) = change(&http, &portal, "moved@example.com", "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(user["email"], "moved@example.com");
    assert_eq!(user["verifiedAt"], Value::Null);
    let notice = mail_for(&portal, "unverified_mover@example.com", 1).await;
    assert_eq!(
        notice[0]["subject"],
        "Địa chỉ email tài khoản Kid đã được thay đổi"
    );
}

#[tokio::test]
async fn a_verified_address_needs_the_mailed_code_once() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "verified_mover").await;
    mark_verified(&portal, "verified_mover").await;

    let (status, body) = change(&http, &portal, "next@example.com", "").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["errors"]["securityCode"][0],
        "Mã bảo mật không được bỏ trống"
    );
    let (_, body) = change(&http, &portal, "next@example.com", "123").await;
    assert_eq!(body["errors"]["securityCode"][0], "Mã bảo mật phải có 6 ký tự");

    let (status, body) = ask_code(&http, &portal).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["message"], "Mã bảo mật đã được gửi đến email của bạn!");
    assert_eq!(ask_code(&http, &portal).await.0, StatusCode::TOO_MANY_REQUESTS);
    let code = code_for(&portal, "verified_mover@example.com", 1).await;
    assert_eq!(code.len(), 6);
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let (_, body) = change(&http, &portal, "next@example.com", wrong).await;
    assert_eq!(
        body["errors"]["securityCode"][0],
        "Mã bảo mật không chính xác hoặc đã hết hạn."
    );

    let (status, user) = change(&http, &portal, "next@example.com", &code).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (user["email"].clone(), user["verifiedAt"].clone()),
        (json!("next@example.com"), Value::Null)
    );

    mark_verified(&portal, "verified_mover").await;
    let (status, body) = change(&http, &portal, "third@example.com", &code).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "a code works once");
    assert_eq!(
        body["errors"]["securityCode"][0],
        "Mã bảo mật không chính xác hoặc đã hết hạn."
    );
}

#[tokio::test]
async fn five_wrong_codes_kill_the_code() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "guesser").await;
    mark_verified(&portal, "guesser").await;
    ask_code(&http, &portal).await;
    let code = code_for(&portal, "guesser@example.com", 1).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        change(&http, &portal, "elsewhere@example.com", wrong).await;
    }
    let (status, _) = change(&http, &portal, "elsewhere@example.com", &code).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    clear_cooldowns(&portal).await;
    ask_code(&http, &portal).await;
    let fresh = code_for(&portal, "guesser@example.com", 2).await;
    assert_eq!(
        change(&http, &portal, "elsewhere@example.com", &fresh).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_new_address_must_be_valid_different_and_free() {
    let portal = start(|_| {}).await;
    register(&portal, "first_owner").await;
    let http = register(&portal, "second_owner").await;
    for (email, message) in [
        ("not-an-email", "Địa chỉ email bạn nhập không hợp lệ"),
        (
            "SECOND_OWNER@example.com",
            "Địa chỉ email mới phải khác địa chỉ hiện tại.",
        ),
        (
            "first_owner@example.com",
            "Địa chỉ email này đã được sử dụng cho một tài khoản khác.",
        ),
    ] {
        let (status, body) = change(&http, &portal, email, "").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{email}");
        assert_eq!(body["errors"]["email"][0], message, "{email}");
    }
    let body = json!({ "action": "confirm.nothing" });
    let response = send_json(&http, &portal, Method::POST, "/me/security-code/", &body).await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = json!({ "email": "x@example.com", "securityCode": "", "gReCaptchaToken": "wrong" });
    let refused = send_json(&http, &portal, Method::POST, "/me/change-email", &body).await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let anonymous = send_json(&client(), &portal, Method::POST, "/me/change-email", &body).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}
