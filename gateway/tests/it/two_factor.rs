//! Two-factor with an authenticator app (TOTP), through the real gateway and identity: turning
//! it on and off, signing in with a code or a recovery code, and the attacks on each step.

use kid_testing::portal::{
    PASSWORD, Portal, ask_password_reset, client, database, field_error, get_json, mail_for, mail_titled,
    me_status, register, registered, reset_password, reset_token, retry_after, seed_staff, send_json,
    sign_in, staff, staff_send, start, status_and_json,
};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use totp_rs::Totp;

const WRONG: &str = "Mã xác thực không chính xác hoặc đã được sử dụng.";

/// The authenticator app: codes of the enrolled secret, each for a step not used before (the
/// server takes each step's code once, and accepts one step of skew ahead).
struct App {
    totp: Totp,
    last_step: u64,
}

impl App {
    fn now() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock")
            .as_secs()
    }

    /// A code of a step after every one used so far, waiting for the clock when the next
    /// unused step is more than one ahead of it.
    async fn fresh_code(&mut self) -> String {
        loop {
            let current = Self::now() / 30;
            let step = (self.last_step + 1).max(current);
            if step <= current + 1 {
                self.last_step = step;
                return self.totp.generate(step * 30).to_string();
            }
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
    }
}

async fn confirm(http: &Client, portal: &Portal, code: &str) -> reqwest::Response {
    let body = json!({ "code": code });
    send_json(http, portal, Method::POST, "/me/two-factor/totp/confirm", &body).await
}

async fn off(http: &Client, portal: &Portal, password: &str, code: &str) -> reqwest::Response {
    let body = json!({ "password": password, "code": code });
    send_json(http, portal, Method::DELETE, "/me/two-factor/totp", &body).await
}

/// Turns two-factor on for the signed-in `http`: the app and the ten recovery codes.
async fn enrol(http: &Client, portal: &Portal) -> (App, Vec<String>) {
    let body = json!({ "password": PASSWORD });
    let (status, enrolment) =
        status_and_json(send_json(http, portal, Method::POST, "/me/two-factor/totp", &body).await).await;
    assert_eq!(status, StatusCode::OK, "{enrolment}");
    let url = enrolment["otpauthUrl"].as_str().expect("otpauthUrl");
    assert!(url.starts_with("otpauth://totp/Kid:"), "{url}");
    let totp = Totp::from_url(url).expect("an otpauth URL the apps read");
    assert_eq!(
        totp.secret().to_base32(),
        enrolment["secret"].as_str().expect("secret")
    );
    let mut app = App { totp, last_step: 0 };
    assert_eq!(
        field_error(confirm(http, portal, "000000").await, "code").await,
        WRONG
    );
    let (status, body) = status_and_json(confirm(http, portal, &app.fresh_code().await).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let codes: Vec<String> = serde_json::from_value(body["recoveryCodes"].clone()).expect("recovery codes");
    assert_eq!(codes.len(), 10);
    (app, codes)
}

/// Signs in with the password: two-factor asked, and the session not signed in meanwhile.
async fn password_step(portal: &Portal, username: &str) -> Client {
    let http = client();
    let (status, body) = status_and_json(sign_in(&http, portal, username, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({ "twoFactorRequired": true }));
    assert_eq!(me_status(&http, portal).await, StatusCode::UNAUTHORIZED);
    http
}

async fn second_factor(http: &Client, portal: &Portal, code: &str) -> reqwest::Response {
    send_json(
        http,
        portal,
        Method::POST,
        "/auth/login/two-factor",
        &json!({ "code": code }),
    )
    .await
}

#[tokio::test]
async fn a_player_turns_totp_on_signs_in_with_codes_and_turns_it_off() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "two_factor").await;
    let (mut app, recovery) = enrol(&http, &portal).await;
    let (_, me) = get_json(&http, &portal, "/me").await;
    assert_eq!(me["mfaEnabled"], true);
    mail_titled(&portal, "two_factor@example.com", "Xác thực hai lớp đã được bật").await;
    // Started again while on: refused, the secret kept.
    let body = json!({ "password": PASSWORD });
    let response = send_json(&http, &portal, Method::POST, "/me/two-factor/totp", &body).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);

    let phone = password_step(&portal, "two_factor").await;
    let response = second_factor(&phone, &portal, &app.fresh_code().await).await;
    let (status, user) = status_and_json(response).await;
    assert_eq!(status, StatusCode::OK, "{user}");
    assert_eq!(user["username"], "two_factor");
    assert_eq!(me_status(&phone, &portal).await, StatusCode::OK);

    // A recovery code, typed in lower case with spaces, signs in once.
    let laptop = password_step(&portal, "two_factor").await;
    let typed = recovery[0].to_lowercase().replace('-', " ");
    assert_eq!(
        field_error(second_factor(&laptop, &portal, "999999").await, "code").await,
        WRONG
    );
    assert_eq!(
        second_factor(&laptop, &portal, &typed).await.status(),
        StatusCode::OK
    );
    // The sign-in history tells how each sign-in was proved, and the wrong code.
    let (_, history) = get_json(&laptop, &portal, "/me/sign-ins").await;
    let proofs: Vec<(&str, &str)> = history
        .as_array()
        .expect("a list")
        .iter()
        .take(3)
        .map(|row| {
            let method = row["method"].as_str().expect("method");
            (method, row["failure"].as_str().unwrap_or("signed in"))
        })
        .collect();
    assert_eq!(
        proofs,
        [
            ("recoveryCode", "signed in"),
            ("totp", "wrongCode"),
            ("totp", "signed in")
        ]
    );

    // Off: the password and a code are needed; then the password alone signs in.
    let response = off(&http, &portal, "Wrong@123", &app.fresh_code().await).await;
    assert_eq!(
        field_error(response, "password").await,
        "Mật khẩu hiện tại không chính xác."
    );
    assert_eq!(
        field_error(off(&http, &portal, PASSWORD, "123").await, "code").await,
        WRONG
    );
    assert_eq!(
        off(&http, &portal, PASSWORD, &app.fresh_code().await)
            .await
            .status(),
        StatusCode::NO_CONTENT
    );
    let (_, me) = get_json(&http, &portal, "/me").await;
    assert_eq!(me["mfaEnabled"], false);
    let (status, body) = status_and_json(sign_in(&client(), &portal, "two_factor", PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["username"], "two_factor");
    mail_titled(&portal, "two_factor@example.com", "Xác thực hai lớp đã bị tắt").await;
}

#[tokio::test]
async fn a_replayed_totp_code_is_refused() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "replayer").await;
    let (mut app, _) = enrol(&http, &portal).await;
    let code = app.fresh_code().await;
    let first = password_step(&portal, "replayer").await;
    assert_eq!(
        second_factor(&first, &portal, &code).await.status(),
        StatusCode::OK
    );

    // Seen over the player's shoulder and sent again within its window: refused.
    let thief = password_step(&portal, "replayer").await;
    assert_eq!(
        field_error(second_factor(&thief, &portal, &code).await, "code").await,
        WRONG
    );
    // An earlier step's code (the one the enrolment used, say) is refused too.
    let earlier = app.totp.generate((app.last_step - 1) * 30).to_string();
    assert_eq!(
        field_error(second_factor(&thief, &portal, &earlier).await, "code").await,
        WRONG
    );
    assert_eq!(me_status(&thief, &portal).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_hundred_wrong_codes_are_throttled_and_the_right_one_then_waits() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "code_guessed").await;
    let (mut app, _) = enrol(&http, &portal).await;
    let guesser = password_step(&portal, "code_guessed").await;
    let mut statuses = Vec::new();
    for guess in 0..100 {
        let response = second_factor(&guesser, &portal, &format!("{:06}", 100_000 + guess)).await;
        statuses.push(response.status());
    }
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNPROCESSABLE_ENTITY)
        .count();
    let throttled = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    // A guess might hit the right code by chance (1 in a million per guess): never here.
    assert_eq!((refused, throttled), (5, 95), "{statuses:?}");
    let response = second_factor(&guesser, &portal, &app.fresh_code().await).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after(response.headers()) > 0);
    assert_eq!(me_status(&guesser, &portal).await, StatusCode::UNAUTHORIZED);
    // A new password step buys no new guesses: the count is the player's.
    let again = password_step(&portal, "code_guessed").await;
    let response = second_factor(&again, &portal, &app.fresh_code().await).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_recovery_code_used_twice_is_refused() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "recovered").await;
    let (_, recovery) = enrol(&http, &portal).await;
    let first = password_step(&portal, "recovered").await;
    assert_eq!(
        second_factor(&first, &portal, &recovery[3]).await.status(),
        StatusCode::OK
    );
    let second = password_step(&portal, "recovered").await;
    assert_eq!(
        field_error(second_factor(&second, &portal, &recovery[3]).await, "code").await,
        WRONG
    );
    // Another player's recovery code is nobody else's.
    let other = register(&portal, "other_player").await;
    let (_, theirs) = enrol(&other, &portal).await;
    assert_eq!(
        field_error(second_factor(&second, &portal, &theirs[0]).await, "code").await,
        WRONG
    );
    assert_eq!(me_status(&second, &portal).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_second_factor_without_a_password_step_signs_nobody_in() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "skipper").await;
    let (mut app, _) = enrol(&http, &portal).await;
    let stranger = client();
    let response = second_factor(&stranger, &portal, &app.fresh_code().await).await;
    assert_eq!(
        field_error(response, "code").await,
        "Phiên đăng nhập đã hết hạn, hãy đăng nhập lại."
    );
    assert_eq!(me_status(&stranger, &portal).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_password_reset_by_email_leaves_two_factor_on() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "reset_keeps").await;
    let (mut app, _) = enrol(&http, &portal).await;
    assert_eq!(
        ask_password_reset(&portal, "reset_keeps").await.status(),
        StatusCode::OK
    );
    let mail = mail_for(&portal, "reset_keeps@example.com", 2).await;
    let token = reset_token(
        mail.iter()
            .find(|mail| mail["link"].is_string())
            .expect("the reset mail"),
    );
    let response = reset_password(&portal, &token, "Another@456", "Another@456").await;
    assert!(response.status().is_success(), "{}", response.status());
    let http = client();
    let (status, body): (StatusCode, Value) =
        status_and_json(sign_in(&http, &portal, "reset_keeps", "Another@456").await).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, json!({ "twoFactorRequired": true }));
    assert_eq!(
        second_factor(&http, &portal, &app.fresh_code().await)
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_database_dump_holds_no_totp_secret() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "dumped").await;
    let (app, _) = enrol(&http, &portal).await;
    let secret = app.totp.secret().as_bytes().to_vec();
    let pool = kid_testing::portal::database(&portal, "identity").await;
    let stored: Vec<u8> = sqlx::query_scalar(
        "select c.secret from totp_credential c join user_account u on u.id = c.user_id where u.username = 'dumped'",
    )
    .fetch_one(&pool)
    .await
    .expect("the stored secret");
    assert!(stored.len() > secret.len(), "sealed with a nonce and a tag");
    assert!(
        !stored
            .windows(secret.len())
            .any(|window| window == secret.as_slice())
    );
    let base32 = app.totp.secret().to_base32();
    assert!(!String::from_utf8_lossy(&stored).contains(&base32));
}

#[tokio::test]
async fn a_thief_guessing_the_password_to_turn_two_factor_off_does_not_lock_the_owners_codes() {
    let portal = start(|_| {}).await;
    let thief = register(&portal, "locked_out").await;
    let (mut app, _) = enrol(&thief, &portal).await;
    // The stolen session guesses the password five times: refused, then throttled.
    for guess in 0..5 {
        let response = off(&thief, &portal, &format!("Guess@{guess}2345"), "000000").await;
        assert_eq!(
            field_error(response, "password").await,
            "Mật khẩu hiện tại không chính xác."
        );
    }
    let throttled = off(&thief, &portal, "Guess@99999", "000000").await;
    assert_eq!(throttled.status(), StatusCode::TOO_MANY_REQUESTS);
    // The codes were never checked: the owner still signs in with one.
    let owner = password_step(&portal, "locked_out").await;
    let response = second_factor(&owner, &portal, &app.fresh_code().await).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(me_status(&owner, &portal).await, StatusCode::OK);
}

#[tokio::test]
async fn a_sign_in_waiting_for_its_code_is_refused_once_support_locks_the_account() {
    let portal = start(|_| {}).await;
    seed_staff(&portal).await;
    let (http, user_id) = registered(&portal, "khoagiuachung").await;
    let (mut app, recovery) = enrol(&http, &portal).await;

    // The thief has the password and waits for the code; support locks the account meanwhile.
    let thief = password_step(&portal, "khoagiuachung").await;
    let support = staff(&portal, "staff-support").await;
    let lock = staff_send(
        &support,
        &portal,
        Method::POST,
        &format!("/staff/players/{user_id}/lock"),
        &json!({ "reason": "Bị đánh cắp" }),
    )
    .await;
    assert_eq!(lock.status(), StatusCode::OK);

    // Neither the app's code nor a recovery code finishes that sign-in.
    let locked = "Tài khoản này đang tạm khóa để bảo vệ bạn. Vui lòng liên hệ bộ phận hỗ trợ để mở khóa.";
    assert_eq!(
        field_error(
            second_factor(&thief, &portal, &app.fresh_code().await).await,
            "code"
        )
        .await,
        locked
    );
    assert_eq!(
        field_error(second_factor(&thief, &portal, &recovery[0]).await, "code").await,
        locked
    );
    assert_eq!(me_status(&thief, &portal).await, StatusCode::UNAUTHORIZED);

    // Unlocked, the owner's recovery code was not spent by the refused sign-in.
    let unlock = staff_send(
        &support,
        &portal,
        Method::POST,
        &format!("/staff/players/{user_id}/unlock"),
        &json!({}),
    )
    .await;
    assert_eq!(unlock.status(), StatusCode::OK);
    let owner = password_step(&portal, "khoagiuachung").await;
    assert_eq!(
        second_factor(&owner, &portal, &recovery[0]).await.status(),
        StatusCode::OK
    );
    assert_eq!(me_status(&owner, &portal).await, StatusCode::OK);
}

#[tokio::test]
async fn a_stolen_session_cannot_turn_two_factor_on_with_the_thiefs_app() {
    let portal = start(|_| {}).await;
    // The thief holds the owner's session cookie, not the password.
    let stolen = register(&portal, "phienbilay").await;
    let start_with = |password: &str| json!({ "password": password });
    let enrol =
        async |body: Value| send_json(&stolen, &portal, Method::POST, "/me/two-factor/totp", &body).await;
    assert_eq!(
        field_error(enrol(json!({})).await, "password").await,
        "Hãy nhập mật khẩu hiện tại của bạn."
    );
    assert_eq!(
        field_error(enrol(start_with("Doan@1234")).await, "password").await,
        "Mật khẩu hiện tại không chính xác."
    );
    // Guessing is throttled as change-password's: five wrong, then even the right one waits.
    for _ in 0..4 {
        assert_eq!(
            enrol(start_with("Doan@1234")).await.status(),
            StatusCode::UNPROCESSABLE_ENTITY
        );
    }
    let throttled = enrol(start_with(PASSWORD)).await;
    assert_eq!(throttled.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after(throttled.headers()) > 0);
    // No secret was made: confirming any code finds nothing started, and two-factor is off.
    let (_, me) = get_json(&stolen, &portal, "/me").await;
    assert_eq!(me["mfaEnabled"], false);
    let (status, body) = status_and_json(confirm(&stolen, &portal, "123456").await).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let identity = database(&portal, "identity").await;
    let enrolments: i64 = sqlx::query_scalar(
        "select count(*) from totp_credential t join user_account u on u.id = t.user_id where u.username = 'phienbilay'",
    )
    .fetch_one(&identity)
    .await
    .expect("count");
    assert_eq!(enrolments, 0, "no secret of the thief's was stored");
}
