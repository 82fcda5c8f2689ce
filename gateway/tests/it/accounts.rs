//! Sign-up, sign-in, sessions and sign-out through the real gateway, identity service,
//! PostgreSQL and Redis.

use kid_testing::portal::{
    PASSWORD, Portal, client, database, field_error, get, mark_verified, register, retry_after, send_json,
    sign_in, start,
};
use reqwest::{Client, Method, Response, StatusCode, header};
use serde_json::{Value, json};

fn registration(username: &str) -> Value {
    json!({
        "email": format!("{username}@example.com"),
        "receiveNewsletter": false,
        "dob": "2000-02-29",
        "username": username,
        "password": PASSWORD,
        "passwordConfirm": PASSWORD,
        "gReCaptchaToken": "dev-captcha",
    })
}

async fn post(http: &Client, portal: &Portal, path: &str, body: &Value) -> Response {
    send_json(http, portal, Method::POST, path, body).await
}

fn set_cookie(response: &Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|cookie| cookie.starts_with(&format!("{name}=")))
        .map(str::to_owned)
}

fn cookie_value(cookie: &str) -> &str {
    cookie
        .split(';')
        .next()
        .and_then(|pair| pair.split_once('='))
        .map_or("", |(_, value)| value)
}

#[tokio::test]
async fn a_new_player_registers_is_signed_in_and_sees_the_full_user() {
    let portal = start(|_| {}).await;
    let http = client();
    let response = post(&http, &portal, "/auth/register", &registration("new_player")).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    assert!(set_cookie(&response, "kid_session").is_some());

    let me = get(&http, &portal, "/api/me").await;
    assert_eq!(me.status(), StatusCode::OK);
    let user: Value = me.json().await.expect("json");
    for field in [
        "username",
        "email",
        "verifiedAt",
        "firstName",
        "middleName",
        "lastName",
        "dob",
        "language",
        "phoneNumber",
        "createdAt",
        "passwordChangedAt",
        "mfaEnabled",
        "credit",
        "debtCredit",
        "isPayPartner",
        "payAmountLast28Days",
    ] {
        assert!(user.get(field).is_some(), "{field} missing from {user}");
    }
    assert_eq!(user["username"], "new_player");
    assert_eq!(user["dob"], "2000-02-29");
    assert_eq!(user["language"], "vi-VN");
    assert_eq!(user["verifiedAt"], Value::Null);
    assert_eq!(user["credit"], 0);
}

/// The username is the handle a player signs in with and must pick anew, so a taken one is
/// told. Whether an address has an account is not told to whoever types it: registering with
/// it answers as with a free one, and the address's owner is mailed. Nobody gains the address
/// by naming it: it is an account's for good once verified there, and only its owner can.
#[tokio::test]
async fn a_stranger_probing_addresses_at_registration_learns_nothing_and_the_owner_is_told() {
    let portal = start(|_| {}).await;
    let first = post(&client(), &portal, "/auth/register", &registration("taken_name")).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    mark_verified(&portal, "taken_name").await;

    let mut again = registration("taken_name");
    again["email"] = json!("someone.else@example.com");
    let response = post(&client(), &portal, "/auth/register", &again).await;
    assert_eq!(
        field_error(response, "username").await,
        "Tên đăng nhập này đã có người sử dụng."
    );

    // A taken and a free address answer alike: same status, same shape, the address echoed.
    let probe = async |username: &str, email: &str| {
        let mut body = registration(username);
        body["email"] = json!(email);
        post(&client(), &portal, "/auth/register", &body).await
    };
    let held = probe("probe_one", "TAKEN_NAME@example.com").await;
    let free = probe("probe_two", "nobody@example.com").await;
    assert_eq!(
        (held.status(), free.status()),
        (StatusCode::CREATED, StatusCode::CREATED)
    );
    let (held, free): (Value, Value) = (held.json().await.expect("json"), free.json().await.expect("json"));
    let keys = |user: &Value| {
        user.as_object()
            .map(|user| user.keys().cloned().collect::<Vec<_>>())
    };
    assert_eq!(keys(&held), keys(&free));
    assert_eq!(
        (held["verifiedAt"].clone(), free["verifiedAt"].clone()),
        (Value::Null, Value::Null)
    );

    // The owner hears of it; the probe cannot take the verified address.
    let owner_mail = kid_testing::portal::mail_for(&portal, "taken_name@example.com", 1).await;
    assert!(
        owner_mail
            .iter()
            .any(|mail| mail["subject"] == "Địa chỉ email của bạn vừa được dùng cho tài khoản Kid"),
        "{owner_mail:?}"
    );
    let verified: Vec<String> = sqlx::query_scalar(
        "select username from user_account where lower(email) = 'taken_name@example.com' and verified_at is not null",
    )
    .fetch_all(&database(&portal, "identity").await)
    .await
    .expect("accounts");
    assert_eq!(verified, ["taken_name"]);
}

#[tokio::test]
async fn every_register_rule_is_checked_on_the_server_with_the_specs_message() {
    let portal = start(|_| {}).await;
    let cases: [(&str, Value, &str); 12] = [
        ("email", json!(""), "Hãy nhập địa chỉ email của bạn"),
        ("email", json!("not-an-email"), "Địa chỉ email không hợp lệ"),
        (
            "email",
            json!(format!("{}@example.com", "a".repeat(125))),
            "Địa chỉ email không hợp lệ",
        ),
        ("dob", json!("2001-02-29"), "Bạn cần nhập ngày hợp lệ."),
        (
            "dob",
            json!("2020-01-01"),
            "Bạn phải đủ 13 tuổi trở lên mới có thể đăng ký tài khoản.",
        ),
        ("username", json!(""), "Hãy chọn một tên đăng nhập."),
        (
            "username",
            json!("abc"),
            "Tên đăng nhập phải có từ 4 đến 32 ký tự.",
        ),
        (
            "username",
            json!("Bad-Name"),
            "Tên đăng nhập chỉ được sử dụng các chữ cái (a-z), số (0-9) và dấu gạch dưới (_).",
        ),
        ("password", json!(""), "Nhập vào mật khẩu."),
        ("password", json!("Ab1!"), "Mật khẩu phải có tối thiểu 8 ký tự."),
        ("passwordConfirm", json!(""), "Nhập vào mật khẩu xác nhận."),
        (
            "passwordConfirm",
            json!("Other@123"),
            "Mật khẩu xác nhận không trùng khớp.",
        ),
    ];
    for (index, (field, value, message)) in cases.into_iter().enumerate() {
        let mut body = registration(&format!("rules_{index}"));
        body[field] = value;
        let response = post(&client(), &portal, "/auth/register", &body).await;
        assert_eq!(
            field_error(response, field).await,
            message,
            "{field} case {index}"
        );
    }
    let mut weak = registration("weak_password");
    weak["password"] = json!("abcdefgh");
    weak["passwordConfirm"] = json!("abcdefgh");
    let response = post(&client(), &portal, "/auth/register", &weak).await;
    assert!(field_error(response, "password").await.contains("mạnh hơn"));
}

#[tokio::test]
async fn a_missing_or_wrong_captcha_token_is_refused() {
    let portal = start(|_| {}).await;
    for token in [json!(""), json!("forged-token")] {
        let mut body = registration("captcha_probe");
        body["gReCaptchaToken"] = token;
        let response = post(&client(), &portal, "/auth/register", &body).await;
        assert!(!field_error(response, "gReCaptchaToken").await.is_empty());
    }
    let login = sign_in(&client(), &portal, "captcha_probe", PASSWORD).await;
    assert_eq!(
        login.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "the account must not have been created"
    );
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_username_get_the_same_answer() {
    let portal = start(|_| {}).await;
    register(&portal, "known_one").await;

    let wrong = sign_in(&client(), &portal, "known_one", "Wrong@123").await;
    let unknown = sign_in(&client(), &portal, "nobody_here", "Wrong@123").await;
    assert_eq!(wrong.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(unknown.status(), wrong.status());
    let wrong: Value = wrong.json().await.expect("json");
    let unknown: Value = unknown.json().await.expect("json");
    assert_eq!(wrong, unknown);
    assert_eq!(wrong["message"], "Tên đăng nhập hoặc mật khẩu không chính xác.");
    assert_eq!(
        wrong["errors"]["username"][0],
        "Tên đăng nhập hoặc mật khẩu không chính xác."
    );
}

#[tokio::test]
async fn signing_in_rotates_the_session_and_remember_me_makes_it_persistent() {
    let portal = start(|_| {}).await;
    register(&portal, "rotating").await;

    // A session id planted in the browser (session fixation) is not adopted by the sign-in.
    let planted = "P".repeat(43);
    let http = client();
    let anonymous = get(&http, &portal, "/api/auth/csrf-cookie").await;
    assert_eq!(
        set_cookie(&anonymous, "kid_session"),
        None,
        "an anonymous caller gets no session"
    );
    let token = cookie_value(&set_cookie(&anonymous, "XSRF-TOKEN").expect("xsrf")).to_owned();
    let login = http
        .post(format!("{}/api/auth/login", portal.base))
        .header("X-XSRF-TOKEN", &token)
        .header(
            header::COOKIE,
            format!("kid_session={planted}; XSRF-TOKEN={token}"),
        )
        .json(&json!({"username": "Rotating", "password": PASSWORD, "remember": true}))
        .send()
        .await
        .expect("login");
    assert_eq!(login.status(), StatusCode::OK);
    let session = set_cookie(&login, "kid_session").expect("new session cookie");
    assert_ne!(
        cookie_value(&session),
        planted,
        "a sign-in must not keep a pre-login session id"
    );
    assert!(
        session.contains("HttpOnly") && session.contains("Max-Age=2592000"),
        "{session}"
    );
    let user: Value = login.json().await.expect("json");
    assert_eq!(user["username"], "rotating");

    let login = sign_in(&client(), &portal, "rotating", PASSWORD).await;
    let session = set_cookie(&login, "kid_session").expect("session cookie");
    assert!(
        !session.contains("Max-Age"),
        "without remember-me the cookie lasts the browser session: {session}"
    );
}

#[tokio::test]
async fn logging_out_ends_the_session_on_the_server() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "leaving").await;
    assert_eq!(get(&http, &portal, "/api/me").await.status(), StatusCode::OK);
    let session = get(&http, &portal, "/api/auth/csrf-cookie").await;
    let stolen = set_cookie(&session, "kid_session").expect("session");

    let logout = post(&http, &portal, "/auth/logout", &json!({})).await;
    assert_eq!(logout.status(), StatusCode::NO_CONTENT);
    assert_eq!(
        get(&http, &portal, "/api/me").await.status(),
        StatusCode::UNAUTHORIZED
    );

    // A copy of the old cookie is worthless too.
    let replay = reqwest::Client::new()
        .get(format!("{}/api/me", portal.base))
        .header(header::COOKIE, stolen.split(';').next().expect("pair"))
        .send()
        .await
        .expect("me");
    assert_eq!(replay.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn repeated_failures_are_throttled_with_429_and_retry_after() {
    let portal = start(|_| {}).await;
    let http = client();
    let attempt = json!({"username": "victim_name", "password": "Guess@123"});
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(post(&http, &portal, "/auth/login", &attempt).await.status());
    }
    assert_eq!(statuses, [StatusCode::UNPROCESSABLE_ENTITY; 5]);
    let throttled = post(&http, &portal, "/auth/login", &attempt).await;
    assert_eq!(throttled.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after = retry_after(throttled.headers());
    assert!((1..=900).contains(&retry_after), "{retry_after}");
    let body: Value = throttled.json().await.expect("json");
    assert!(body["message"].is_string());
}
