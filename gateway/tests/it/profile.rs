//! A signed-in player's profile and password, through the gateway and identity: the spec's
//! rules with their Vietnamese messages, and a password change that signs out other sessions.

use kid_testing::portal::{
    PASSWORD, Portal, client, get_json, mail_titled, register, send_json, sign_in, start, status_and_json,
};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};

async fn patch(http: &Client, portal: &Portal, body: Value) -> (StatusCode, Value) {
    status_and_json(send_json(http, portal, Method::PATCH, "/me/update-profile", &body).await).await
}

async fn change_password(
    http: &Client,
    portal: &Portal,
    current: &str,
    new: &str,
    confirm: &str,
) -> (StatusCode, Value) {
    let body = json!({ "currentPassword": current, "password": new, "passwordConfirm": confirm });
    let response = send_json(http, portal, Method::POST, "/me/change-password", &body).await;
    let status = response.status();
    let body = if status == StatusCode::NO_CONTENT {
        Value::Null
    } else {
        response.json().await.expect("json")
    };
    (status, body)
}

#[tokio::test]
async fn a_player_changes_name_language_and_phone_one_at_a_time() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "profile_owner").await;

    let (status, user) = patch(
        &http,
        &portal,
        json!({ "firstName": " An ", "middleName": "Văn", "lastName": "Nguyễn" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (
            user["firstName"].clone(),
            user["middleName"].clone(),
            user["lastName"].clone()
        ),
        (json!("An"), json!("Văn"), json!("Nguyễn"))
    );
    assert_eq!(user["credit"], 0, "the answer is the whole user, wallet included");

    let (status, user) = patch(&http, &portal, json!({ "phoneNumber": "0901 234 567" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(user["phoneNumber"], "0901234567");
    assert_eq!(user["firstName"], "An", "fields not sent stay as they are");
    let (_, user) = patch(&http, &portal, json!({ "language": "vi-VN" })).await;
    assert_eq!(user["language"], "vi-VN");
    let (_, user) = get_json(&http, &portal, "/me").await;
    assert_eq!(
        (user["lastName"].clone(), user["phoneNumber"].clone()),
        (json!("Nguyễn"), json!("0901234567"))
    );
}

#[tokio::test]
async fn every_profile_rule_answers_422_with_the_specs_message() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "rule_checker").await;
    let names = [
        (
            json!({ "firstName": "", "lastName": "Nguyễn" }),
            "firstName",
            "Hãy nhập tên của bạn",
        ),
        (json!({ "firstName": "An" }), "lastName", "Hãy nhập họ của bạn"),
        (
            json!({ "firstName": "a".repeat(129), "lastName": "B" }),
            "firstName",
            "Tên không được dài quá 128 ký tự.",
        ),
    ];
    // The other fields, each sent alone.
    let alone = [
        ("language", "en-US", "Ngôn ngữ bạn chọn chưa được hỗ trợ."),
        ("phoneNumber", "", "Hãy nhập vào số điện thoại của bạn"),
        ("phoneNumber", "0901-234-567", "Số điện thoại không hợp lệ"),
        ("phoneNumber", "+8490123456789012", "Số điện thoại không hợp lệ"),
    ]
    .map(|(field, value, message)| (json!({ field: value }), field, message));
    for (body, field, message) in names.into_iter().chain(alone) {
        let (status, answer) = patch(&http, &portal, body.clone()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(answer["errors"][field][0], message, "{body}");
    }
    let (_, user) = get_json(&http, &portal, "/me").await;
    assert_eq!(
        (user["firstName"].clone(), user["phoneNumber"].clone()),
        (json!(""), json!(""))
    );
    let (status, _) = patch(&client(), &portal, json!({ "language": "vi-VN" })).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_password_change_needs_the_current_password_and_signs_out_the_other_sessions() {
    let portal = start(|_| {}).await;
    let here = register(&portal, "changer").await;
    let elsewhere = client();
    assert_eq!(
        sign_in(&elsewhere, &portal, "changer", PASSWORD).await.status(),
        StatusCode::OK
    );

    let (status, body) = change_password(&here, &portal, "", "", "").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["errors"]["currentPassword"][0], "Hãy nhập vào mật khẩu cũ.");
    assert_eq!(
        body["errors"]["password"][0],
        "Hãy nhập vào mật khẩu mới của bạn."
    );
    let (_, body) = change_password(&here, &portal, PASSWORD, "Fresh#2026", "Fresh#2025").await;
    assert_eq!(
        body["errors"]["passwordConfirm"][0],
        "Mật khẩu xác nhận không trùng khớp."
    );
    let (_, body) = change_password(&here, &portal, "Wrong@123", "Fresh#2026", "Fresh#2026").await;
    assert_eq!(
        body["errors"]["currentPassword"][0],
        "Mật khẩu cũ không chính xác."
    );
    assert_eq!(
        get_json(&elsewhere, &portal, "/me").await.0,
        StatusCode::OK,
        "refused changes sign nobody out"
    );

    let (status, _) = change_password(&here, &portal, PASSWORD, "Fresh#2026", "Fresh#2026").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, user) = get_json(&here, &portal, "/me").await;
    assert_eq!(status, StatusCode::OK, "this session stays");
    assert!(user["passwordChangedAt"].is_string());
    assert_eq!(
        get_json(&elsewhere, &portal, "/me").await.0,
        StatusCode::UNAUTHORIZED,
        "the other one is signed out"
    );
    assert_eq!(
        sign_in(&client(), &portal, "changer", "Fresh#2026")
            .await
            .status(),
        StatusCode::OK
    );
    mail_titled(
        &portal,
        "changer@example.com",
        "Mật khẩu tài khoản Kid đã được thay đổi",
    )
    .await;
}
