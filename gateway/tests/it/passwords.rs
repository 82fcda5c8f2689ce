//! The passwords a player may choose, through the real gateway and identity: the most common
//! and leaked ones and those holding their own username or address refused on every form that
//! sets one, and a password that is the same however the keyboard typed it.

use kid_contracts::messages::password::{MSG_COMMON, MSG_PERSONAL};
use kid_testing::portal::{
    PASSWORD, ask_password_reset, client, field_error, mail_titled, register, reset_password, reset_token,
    send_json, sign_in, start, status_and_json,
};
use reqwest::{Method, StatusCode};
use serde_json::json;

async fn sign_up(portal: &kid_testing::portal::Portal, username: &str, password: &str) -> reqwest::Response {
    kid_testing::portal::sign_up(&client(), portal, username, password).await
}

#[tokio::test]
async fn a_common_password_is_refused_at_sign_up_reset_and_change() {
    let portal = start(|_| {}).await;
    for common in ["Password@123", "PASSWORD@123", "Password1", "P@ssw0rd"] {
        assert_eq!(
            field_error(sign_up(&portal, "common_pick", common).await, "password").await,
            MSG_COMMON,
            "{common}"
        );
    }
    // Nothing was created: the name is still free.
    assert_eq!(
        sign_up(&portal, "common_pick", PASSWORD).await.status(),
        StatusCode::CREATED
    );

    let http = register(&portal, "common_change").await;
    let change = |password: &'static str| json!({ "currentPassword": PASSWORD, "password": password, "passwordConfirm": password });
    let response = send_json(
        &http,
        &portal,
        Method::POST,
        "/me/change-password",
        &change("Password@123"),
    )
    .await;
    assert_eq!(field_error(response, "password").await, MSG_COMMON);
    let response = send_json(
        &http,
        &portal,
        Method::POST,
        "/me/change-password",
        &change("Common_Change-2024"),
    )
    .await;
    assert_eq!(field_error(response, "password").await, MSG_PERSONAL);
    // The password did not change.
    assert_eq!(
        sign_in(&client(), &portal, "common_change", PASSWORD)
            .await
            .status(),
        StatusCode::OK
    );

    assert_eq!(
        ask_password_reset(&portal, "common_change").await.status(),
        StatusCode::OK
    );
    // Found by its subject: the sign-in's new-device mail may arrive after it.
    let mail = mail_titled(
        &portal,
        "common_change@example.com",
        "Đặt lại mật khẩu tài khoản Kid",
    )
    .await;
    let token = reset_token(&mail);
    let response = reset_password(&portal, &token, "Password@123", "Password@123").await;
    assert_eq!(field_error(response, "password").await, MSG_COMMON);
    let response = reset_password(&portal, &token, "My-common_change-1!", "My-common_change-1!").await;
    assert_eq!(field_error(response, "password").await, MSG_PERSONAL);
    // Refused twice, the link still works.
    let response = reset_password(&portal, &token, "Rare#Tiger-8817", "Rare#Tiger-8817").await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        sign_in(&client(), &portal, "common_change", "Rare#Tiger-8817")
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_password_holding_the_username_or_the_address_name_is_refused_at_sign_up() {
    let portal = start(|_| {}).await;
    for password in ["Minh_anh99@x", "X-MINH_ANH99-1"] {
        assert_eq!(
            field_error(sign_up(&portal, "minh_anh99", password).await, "password").await,
            MSG_PERSONAL,
            "{password}"
        );
    }
}

#[tokio::test]
async fn a_password_typed_on_another_keyboard_is_the_same_password() {
    let portal = start(|_| {}).await;
    // "Mật khẩu" with precomposed letters, as most Vietnamese keyboards type it...
    let precomposed = "M\u{1EAD}t-kh\u{1EA9}u-2024";
    assert_eq!(
        sign_up(&portal, "two_keyboards", precomposed).await.status(),
        StatusCode::CREATED
    );
    // ...and with combining marks, as others do: the same password.
    let combining = "Ma\u{323}\u{302}t-kha\u{302}\u{309}u-2024";
    let (status, body) = status_and_json(sign_in(&client(), &portal, "two_keyboards", combining).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["username"], "two_keyboards");
}
