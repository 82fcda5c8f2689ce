//! Changing the account's email: a security code mailed to the current address is required
//! while that address is verified, the current password while it is not; codes are single use, expire, and allow five wrong
//! tries an hour, however many are asked for.

use kid_testing::portal::{
    PASSWORD, Portal, ask_password_reset, clear_cooldowns, client, execute, mail_for, mail_titled,
    mark_verified, me_status, register, reset_password, reset_token, send_json, sign_in, start,
    status_and_json,
};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};

/// Asks for the change with the player's password (which a verified account does not need).
async fn change(http: &Client, portal: &Portal, email: &str, code: &str) -> (StatusCode, Value) {
    change_as(http, portal, email, code, PASSWORD).await
}

async fn change_as(
    http: &Client,
    portal: &Portal,
    email: &str,
    code: &str,
    password: &str,
) -> (StatusCode, Value) {
    let body = json!({
        "email": email,
        "securityCode": code,
        "currentPassword": password,
        "gReCaptchaToken": "dev-captcha",
    });
    status_and_json(send_json(http, portal, Method::POST, "/me/change-email", &body).await).await
}

async fn ask_code(http: &Client, portal: &Portal) -> (StatusCode, Value) {
    let body = json!({ "action": "confirm.change_email" });
    status_and_json(send_json(http, portal, Method::POST, "/me/security-code/", &body).await).await
}

/// The code in the newest mail to `to` once it holds `count` messages.
async fn code_for(portal: &Portal, to: &str, count: usize) -> String {
    let inbox = mail_for(portal, to, count).await;
    assert_eq!(inbox[0]["subject"], "Mã bảo mật tài khoản Kid");
    inbox[0]["code"].as_str().expect("a code").to_owned()
}

#[tokio::test]
async fn an_unverified_address_changes_with_the_password_and_the_new_one_starts_unverified() {
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

/// Someone holding only a player's session (a shared computer left signed in) tries to move
/// an unverified account to their own address: the current password is asked; once the owner
/// moves it, every other session is signed out and a reset link sent to the old address is dead.
#[tokio::test]
async fn a_stolen_session_cannot_move_an_unverified_account_or_keep_a_reset_link_alive() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "session_thief").await;
    let (status, body) = change_as(&http, &portal, "thief@example.com", "", "").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["errors"]["currentPassword"][0],
        "Hãy nhập mật khẩu hiện tại của bạn."
    );
    let (status, body) = change_as(&http, &portal, "thief@example.com", "", "Guess@1234").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["errors"]["currentPassword"][0],
        "Mật khẩu hiện tại không chính xác."
    );

    // The owner is signed in elsewhere too, and has a reset link in the old mailbox.
    let elsewhere = client();
    let signed_in = sign_in(&elsewhere, &portal, "session_thief", PASSWORD).await;
    assert_eq!(signed_in.status(), StatusCode::OK);
    let asked = ask_password_reset(&portal, "session_thief").await;
    assert_eq!(asked.status(), StatusCode::OK);
    // By its subject: the sign-in from a second browser brings a new-device mail too.
    let reset_mail = mail_titled(
        &portal,
        "session_thief@example.com",
        "Đặt lại mật khẩu tài khoản Kid",
    )
    .await;
    let token = reset_token(&reset_mail);

    let (status, user) = change(&http, &portal, "moved_owner@example.com", "").await;
    assert_eq!(status, StatusCode::OK, "{user}");
    assert_eq!(user["email"], "moved_owner@example.com");
    assert_eq!(me_status(&elsewhere, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        me_status(&http, &portal).await,
        StatusCode::OK,
        "this session stays"
    );
    let reset = reset_password(&portal, &token, "Taken#Over2026", "Taken#Over2026").await;
    assert!(reset.status().is_client_error(), "{}", reset.status());
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

/// The guesser's next code, asked as soon as the cooldown allows: its mail is the `count`th.
async fn new_code(http: &Client, portal: &Portal, count: usize) -> String {
    clear_cooldowns(portal).await;
    ask_code(http, portal).await;
    code_for(portal, "guesser@example.com", count).await
}

#[tokio::test]
async fn asking_for_a_new_code_after_five_wrong_ones_buys_no_more_guesses() {
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

    // A new code keeps the tries spent within the hour: even the right one is refused.
    let fresh = new_code(&http, &portal, 2).await;
    assert_eq!(
        change(&http, &portal, "elsewhere@example.com", &fresh).await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );

    // An hour after the first wrong try, a new code has five tries again.
    execute(
        &portal,
        "identity",
        "update security_code set tries_since = now() - interval '61 minutes'",
    )
    .await;
    let later = new_code(&http, &portal, 3).await;
    assert_eq!(
        change(&http, &portal, "elsewhere@example.com", &later).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_new_address_must_be_valid_and_different() {
    let portal = start(|_| {}).await;
    register(&portal, "first_owner").await;
    let http = register(&portal, "second_owner").await;
    for (email, message) in [
        ("not-an-email", "Địa chỉ email bạn nhập không hợp lệ"),
        (
            "SECOND_OWNER@example.com",
            "Địa chỉ email mới phải khác địa chỉ hiện tại.",
        ),
    ] {
        let (status, body) = change(&http, &portal, email, "").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{email}");
        assert_eq!(body["errors"]["email"][0], message, "{email}");
    }
    // An address another account names is not refused (that would tell whose it is): the
    // change is made, unverified, and the address's owner is mailed.
    let (status, user) = change(&http, &portal, "first_owner@example.com", "").await;
    assert_eq!(status, StatusCode::OK, "{user}");
    assert_eq!(user["verifiedAt"], Value::Null);
    let owner = mail_for(&portal, "first_owner@example.com", 1).await;
    assert_eq!(
        owner[0]["subject"],
        "Địa chỉ email của bạn vừa được dùng cho tài khoản Kid"
    );
    let body = json!({ "action": "confirm.nothing" });
    let response = send_json(&http, &portal, Method::POST, "/me/security-code/", &body).await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = json!({ "email": "x@example.com", "securityCode": "", "gReCaptchaToken": "wrong" });
    let refused = send_json(&http, &portal, Method::POST, "/me/change-email", &body).await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let anonymous = send_json(&client(), &portal, Method::POST, "/me/change-email", &body).await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
}
