//! Recovery through the gateway, identity, the mail courier and the development mailbox:
//! neutral answers, single-use reset links, the strong-password rule, and a reset that signs
//! the player out everywhere.

use kid_testing::portal::{
    PASSWORD, Portal, client, eventually, mail_for, mailbox, me_status, register, send_json, start,
};
use reqwest::{Client, Method, Response, StatusCode};
use serde_json::{Value, json};

const NEW_PASSWORD: &str = "Brand#New2026";

async fn ask_reset(portal: &Portal, username: &str) -> Response {
    let body = json!({ "username": username, "gReCaptchaToken": "dev-captcha" });
    send_json(
        &client(),
        portal,
        Method::POST,
        "/auth/reset-password/send-email",
        &body,
    )
    .await
}

async fn ask_username(portal: &Portal, email: &str) -> Response {
    let body = json!({ "email": email, "gReCaptchaToken": "dev-captcha" });
    send_json(&client(), portal, Method::POST, "/auth/recover-username", &body).await
}

async fn reset(portal: &Portal, token: &str, password: &str, confirm: &str) -> Response {
    let body = json!({ "token": token, "password": password, "passwordConfirm": confirm });
    send_json(&client(), portal, Method::POST, "/auth/reset-password", &body).await
}

async fn check(portal: &Portal, token: &str) -> StatusCode {
    client()
        .get(format!("{}/api/auth/reset-password/{token}", portal.base))
        .send()
        .await
        .expect("check")
        .status()
}

async fn login(portal: &Portal, username: &str, password: &str) -> (Client, StatusCode) {
    let http = client();
    let body = json!({ "username": username, "password": password });
    let status = send_json(&http, portal, Method::POST, "/auth/login", &body)
        .await
        .status();
    (http, status)
}

async fn answer(response: Response) -> (StatusCode, Value) {
    let status = response.status();
    (status, response.json().await.expect("json"))
}

fn token_of(mail: &Value) -> String {
    let link = mail["links"][0].as_str().expect("a link");
    assert!(link.contains("/recovery/forgot-password/"), "{link}");
    link.rsplit('/').next().expect("token").to_owned()
}

#[tokio::test]
async fn a_reset_link_sets_a_strong_password_once_and_signs_the_player_out_everywhere() {
    let portal = start(|_| {}).await;
    let registered = register(&portal, "forgetful").await;
    let (elsewhere, status) = login(&portal, "forgetful", PASSWORD).await;
    assert_eq!(status, StatusCode::OK);

    let (status, body) = answer(ask_reset(&portal, "Forgetful").await).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("hộp thư rác"))
    );
    let token = token_of(&mail_for(&portal, "forgetful@example.com", 1).await[0]);
    assert_eq!(check(&portal, &token).await, StatusCode::OK);

    let (status, body) = answer(reset(&portal, &token, "Ab#1", "Ab#1").await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["errors"]["password"][0],
        "Mật khẩu phải có tối thiểu 8 ký tự"
    );
    let (_, body) = answer(reset(&portal, &token, "", "").await).await;
    assert_eq!(body["errors"]["password"][0], "Hãy nhập mật khẩu mới");
    assert_eq!(body["errors"]["passwordConfirm"][0], "Hãy nhập mật khẩu xác nhận");
    let (_, body) = answer(reset(&portal, &token, "onlyletters1", "onlyletters1").await).await;
    assert!(
        body["errors"]["password"][0]
            .as_str()
            .is_some_and(|m| m.contains("chưa đủ mạnh"))
    );
    let (_, body) = answer(reset(&portal, &token, NEW_PASSWORD, "Brand#New2025").await).await;
    assert_eq!(
        body["errors"]["passwordConfirm"][0],
        "Mật khẩu xác nhận không trùng khớp"
    );
    assert_eq!(
        check(&portal, &token).await,
        StatusCode::OK,
        "refused tries spend nothing"
    );

    let done = reset(&portal, &token, NEW_PASSWORD, NEW_PASSWORD).await;
    assert_eq!(done.status(), StatusCode::NO_CONTENT);
    assert_eq!(me_status(&registered, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me_status(&elsewhere, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        login(&portal, "forgetful", PASSWORD).await.1,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(login(&portal, "forgetful", NEW_PASSWORD).await.1, StatusCode::OK);

    let (status, body) = answer(reset(&portal, &token, "Other#Pass99", "Other#Pass99").await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["errors"]["token"][0],
        "Đường dẫn của bạn không hợp lệ hoặc đã hết hiệu lực, hãy thử gửi lại yêu cầu nhận mật khẩu mới."
    );
    assert_eq!(check(&portal, &token).await, StatusCode::NOT_FOUND);
    let inbox = mail_for(&portal, "forgetful@example.com", 2).await;
    assert_eq!(inbox[0]["subject"], "Mật khẩu tài khoản Kid đã được thay đổi");
}

#[tokio::test]
async fn existing_and_unknown_accounts_get_the_same_answer_and_only_real_ones_get_mail() {
    let portal = start(|_| {}).await;
    register(&portal, "real_player").await;
    let known = answer(ask_reset(&portal, "real_player").await).await;
    let unknown = answer(ask_reset(&portal, "ghost_player").await).await;
    assert_eq!(known, unknown);
    let known = answer(ask_username(&portal, "REAL_PLAYER@example.com").await).await;
    let unknown = answer(ask_username(&portal, "ghost@example.com").await).await;
    assert_eq!(known, unknown);
    assert_eq!(known.0, StatusCode::OK);

    let inbox = mail_for(&portal, "real_player@example.com", 2).await;
    let reminder = inbox
        .iter()
        .find(|mail| mail["subject"] == "Tên đăng nhập tài khoản Kid của bạn")
        .expect("username reminder");
    assert!(
        reminder["text"]
            .as_str()
            .is_some_and(|text| text.contains("real_player"))
    );
    assert!(mailbox(&portal, "ghost@example.com").await.is_empty());

    // Asking again within the minute answers the same and sends nothing more.
    assert_eq!(
        answer(ask_reset(&portal, "real_player").await).await,
        unknown_reset(&portal).await
    );
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(mailbox(&portal, "real_player@example.com").await.len(), 2);
}

async fn unknown_reset(portal: &Portal) -> (StatusCode, Value) {
    answer(ask_reset(portal, "nobody_here").await).await
}

#[tokio::test]
async fn forged_and_expired_reset_links_are_refused() {
    let portal = start(|_| {}).await;
    register(&portal, "expiring").await;
    assert_eq!(check(&portal, "forged-token").await, StatusCode::NOT_FOUND);
    let forged = reset(&portal, "forged-token", NEW_PASSWORD, NEW_PASSWORD).await;
    assert_eq!(forged.status(), StatusCode::UNPROCESSABLE_ENTITY);

    ask_reset(&portal, "expiring").await;
    let token = token_of(&mail_for(&portal, "expiring@example.com", 1).await[0]);
    let identity = kid_platform::db::connect(&portal.settings.database, "identity")
        .await
        .expect("pool");
    sqlx::query("update email_token set expires_at = now() - interval '1 second'")
        .execute(&identity)
        .await
        .expect("expire");
    assert_eq!(check(&portal, &token).await, StatusCode::NOT_FOUND);
    let late = reset(&portal, &token, NEW_PASSWORD, NEW_PASSWORD).await;
    assert_eq!(late.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(login(&portal, "expiring", PASSWORD).await.1, StatusCode::OK);
}

#[tokio::test]
async fn recovery_requests_need_the_captcha_and_well_formed_input() {
    let portal = start(|_| {}).await;
    let body = json!({ "username": "someone", "gReCaptchaToken": "wrong" });
    let (status, body) = answer(
        send_json(
            &client(),
            &portal,
            Method::POST,
            "/auth/reset-password/send-email",
            &body,
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["errors"]["gReCaptchaToken"][0].is_string());
    let (_, body) = answer(ask_reset(&portal, "abc").await).await;
    assert_eq!(
        body["errors"]["username"][0],
        "Tên đăng nhập phải có tối thiểu 4 ký tự."
    );
    let (_, body) = answer(ask_username(&portal, "not-an-email").await).await;
    assert_eq!(body["errors"]["email"][0], "Địa chỉ email không hợp lệ");
    let (_, body) = answer(ask_username(&portal, "").await).await;
    assert_eq!(body["errors"]["email"][0], "Hãy nhập địa chỉ email của bạn");
}

#[tokio::test]
async fn a_reset_asked_while_mail_is_down_succeeds_and_its_mail_arrives_once_mail_is_back() {
    let blocked = std::env::temp_dir().join(format!("kid-mail-down-{}", uuid::Uuid::new_v4().simple()));
    // A file where the mailbox folder should be: every delivery fails, as with SMTP down.
    std::fs::write(&blocked, b"mail is down").expect("blocker");
    let dir = blocked.display().to_string();
    let portal = start(move |settings| settings.mail.mailbox_dir = dir).await;
    register(&portal, "patient_player").await;

    let (status, body) = answer(ask_reset(&portal, "patient_player").await).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["message"].is_string());
    let identity = kid_platform::db::connect(&portal.settings.database, "identity")
        .await
        .expect("pool");
    eventually("the courier tries and keeps the mail", || async {
        let attempts: Option<i32> =
            sqlx::query_scalar("select max(attempts) from mail_message where sent_at is null")
                .fetch_one(&identity)
                .await
                .expect("attempts");
        attempts.is_some_and(|attempts| attempts >= 1).then_some(())
    })
    .await;

    std::fs::remove_file(&blocked).expect("mail is back");
    let inbox = mail_for(&portal, "patient_player@example.com", 1).await;
    assert_eq!(inbox.len(), 1, "sent once, not once per attempt");
    assert_eq!(inbox[0]["subject"], "Đặt lại mật khẩu tài khoản Kid");
    let _ = std::fs::remove_dir_all(&blocked);
}
