//! Recovery through the gateway, identity, the mail courier and the development mailbox:
//! neutral answers, single-use reset links, the strong-password rule, and a reset that signs
//! the player out everywhere.

use kid_testing::portal::{
    PASSWORD, Portal, ask_password_reset, client, database, eventually, execute, get, mail_for, mail_titled,
    mailbox, me_status, register, reset_password, reset_token, send_json, sign_in, start, status_and_json,
};
use reqwest::{Client, Method, Response, StatusCode};
use serde_json::{Value, json};

const NEW_PASSWORD: &str = "Brand#New2026";

async fn ask_username(portal: &Portal, email: &str) -> Response {
    let body = json!({ "email": email, "gReCaptchaToken": "dev-captcha" });
    send_json(&client(), portal, Method::POST, "/auth/recover-username", &body).await
}

async fn check(portal: &Portal, token: &str) -> StatusCode {
    let path = format!("/api/auth/reset-password/{token}");
    get(&client(), portal, &path).await.status()
}

async fn login(portal: &Portal, username: &str, password: &str) -> (Client, StatusCode) {
    let http = client();
    let status = sign_in(&http, portal, username, password).await.status();
    (http, status)
}

const RESET_SUBJECT: &str = "Đặt lại mật khẩu tài khoản Kid";

#[tokio::test]
async fn a_reset_link_sets_a_strong_password_once_and_signs_the_player_out_everywhere() {
    let portal = start(|_| {}).await;
    let registered = register(&portal, "forgetful").await;
    let (elsewhere, status) = login(&portal, "forgetful", PASSWORD).await;
    assert_eq!(status, StatusCode::OK);

    let (status, body) = status_and_json(ask_password_reset(&portal, "Forgetful").await).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.contains("hộp thư rác"))
    );
    // By its subject: a sign-in from a new browser brings a mail of its own, which may arrive
    // after this one.
    let token = reset_token(&mail_titled(&portal, "forgetful@example.com", RESET_SUBJECT).await);
    assert_eq!(check(&portal, &token).await, StatusCode::OK);

    let (status, body) = status_and_json(reset_password(&portal, &token, "Ab#1", "Ab#1").await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["errors"]["password"][0],
        "Mật khẩu phải có tối thiểu 8 ký tự"
    );
    let (_, body) = status_and_json(reset_password(&portal, &token, "", "").await).await;
    assert_eq!(body["errors"]["password"][0], "Hãy nhập mật khẩu mới");
    assert_eq!(body["errors"]["passwordConfirm"][0], "Hãy nhập mật khẩu xác nhận");
    let (_, body) =
        status_and_json(reset_password(&portal, &token, "onlyletters1", "onlyletters1").await).await;
    assert!(
        body["errors"]["password"][0]
            .as_str()
            .is_some_and(|m| m.contains("chưa đủ mạnh"))
    );
    let (_, body) =
        status_and_json(reset_password(&portal, &token, NEW_PASSWORD, "Brand#New2025").await).await;
    assert_eq!(
        body["errors"]["passwordConfirm"][0],
        "Mật khẩu xác nhận không trùng khớp"
    );
    assert_eq!(
        check(&portal, &token).await,
        StatusCode::OK,
        "refused tries spend nothing"
    );

    let done = reset_password(&portal, &token, NEW_PASSWORD, NEW_PASSWORD).await;
    assert_eq!(done.status(), StatusCode::NO_CONTENT);
    assert_eq!(me_status(&registered, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me_status(&elsewhere, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        login(&portal, "forgetful", PASSWORD).await.1,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(login(&portal, "forgetful", NEW_PASSWORD).await.1, StatusCode::OK);

    let (status, body) =
        status_and_json(reset_password(&portal, &token, "Other#Pass99", "Other#Pass99").await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["errors"]["token"][0],
        "Đường dẫn của bạn không hợp lệ hoặc đã hết hiệu lực, hãy thử gửi lại yêu cầu nhận mật khẩu mới."
    );
    assert_eq!(check(&portal, &token).await, StatusCode::NOT_FOUND);
    mail_titled(
        &portal,
        "forgetful@example.com",
        "Mật khẩu tài khoản Kid đã được thay đổi",
    )
    .await;
}

#[tokio::test]
async fn existing_and_unknown_accounts_get_the_same_answer_and_only_real_ones_get_mail() {
    let portal = start(|_| {}).await;
    register(&portal, "real_player").await;
    let known = status_and_json(ask_password_reset(&portal, "real_player").await).await;
    let unknown = status_and_json(ask_password_reset(&portal, "ghost_player").await).await;
    assert_eq!(known, unknown);
    let known = status_and_json(ask_username(&portal, "REAL_PLAYER@example.com").await).await;
    let unknown = status_and_json(ask_username(&portal, "ghost@example.com").await).await;
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
        status_and_json(ask_password_reset(&portal, "real_player").await).await,
        unknown_reset(&portal).await
    );
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(mailbox(&portal, "real_player@example.com").await.len(), 2);
}

async fn unknown_reset(portal: &Portal) -> (StatusCode, Value) {
    status_and_json(ask_password_reset(portal, "nobody_here").await).await
}

#[tokio::test]
async fn forged_and_expired_reset_links_are_refused() {
    let portal = start(|_| {}).await;
    register(&portal, "expiring").await;
    assert_eq!(check(&portal, "forged-token").await, StatusCode::NOT_FOUND);
    let forged = reset_password(&portal, "forged-token", NEW_PASSWORD, NEW_PASSWORD).await;
    assert_eq!(forged.status(), StatusCode::UNPROCESSABLE_ENTITY);

    ask_password_reset(&portal, "expiring").await;
    let token = reset_token(&mail_titled(&portal, "expiring@example.com", RESET_SUBJECT).await);
    execute(
        &portal,
        "identity",
        "update email_token set expires_at = now() - interval '1 second'",
    )
    .await;
    assert_eq!(check(&portal, &token).await, StatusCode::NOT_FOUND);
    let late = reset_password(&portal, &token, NEW_PASSWORD, NEW_PASSWORD).await;
    assert_eq!(late.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(login(&portal, "expiring", PASSWORD).await.1, StatusCode::OK);
}

#[tokio::test]
async fn recovery_requests_need_the_captcha_and_well_formed_input() {
    let portal = start(|_| {}).await;
    let body = json!({ "username": "someone", "gReCaptchaToken": "wrong" });
    let (status, body) = status_and_json(
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
    let (_, body) = status_and_json(ask_password_reset(&portal, "abc").await).await;
    assert_eq!(
        body["errors"]["username"][0],
        "Tên đăng nhập phải có tối thiểu 4 ký tự."
    );
    let (_, body) = status_and_json(ask_username(&portal, "not-an-email").await).await;
    assert_eq!(body["errors"]["email"][0], "Địa chỉ email không hợp lệ");
    let (_, body) = status_and_json(ask_username(&portal, "").await).await;
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

    let (status, body) = status_and_json(ask_password_reset(&portal, "patient_player").await).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["message"].is_string());
    let identity = database(&portal, "identity").await;
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
