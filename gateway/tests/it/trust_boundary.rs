//! Attacks on the session and password edges, through the real gateway, identity and Redis:
//! each test is named for the attack it tries.

use futures::StreamExt;
use kid_testing::portal::{PASSWORD, Portal, client, register, retry_after, send_json, start, xsrf_token};
use reqwest::{Client, Method, StatusCode, header};
use serde_json::{Value, json};

/// The portal's own Redis keys (each test portal has its own prefix).
async fn redis_keys(portal: &Portal) -> Vec<String> {
    let redis = redis::Client::open("redis://127.0.0.1:6379").expect("redis");
    let mut redis = redis.get_multiplexed_async_connection().await.expect("redis");
    redis::cmd("KEYS")
        .arg(format!("{}:*", portal.settings.redis.key_prefix))
        .query_async(&mut redis)
        .await
        .expect("keys")
}

async fn login(portal: &Portal, body: &Value) -> reqwest::Response {
    send_json(&client(), portal, Method::POST, "/auth/login", body).await
}

#[tokio::test]
async fn ten_thousand_anonymous_csrf_cookie_calls_keep_nothing_in_redis() {
    let portal = start(|_| {}).await;
    let before = redis_keys(&portal).await.len();
    let url = format!("{}/api/auth/csrf-cookie", portal.base);
    let http = Client::new();
    let statuses: Vec<StatusCode> = futures::stream::iter(0..10_000)
        .map(|_| {
            let (http, url) = (http.clone(), url.clone());
            async move { http.get(url).send().await.expect("csrf-cookie").status() }
        })
        .buffer_unordered(16)
        .collect()
        .await;
    assert!(statuses.iter().all(|status| *status == StatusCode::NO_CONTENT));
    let after = redis_keys(&portal).await;
    assert!(
        after.len() <= before + 2,
        "{} keys before, {} after: {after:?}",
        before,
        after.len()
    );
}

#[tokio::test]
async fn an_anonymous_token_passes_only_with_its_own_cookie_and_signature() {
    let portal = start(|_| {}).await;
    let http = client();
    let token = xsrf_token(&http, &portal.base).await;
    let post = |cookie: Option<String>, header_token: String| {
        let mut request = Client::new()
            .post(format!("{}/api/no-such-action", portal.base))
            .header("X-XSRF-TOKEN", header_token);
        if let Some(cookie) = cookie {
            request = request.header(header::COOKIE, cookie);
        }
        async move { request.send().await.expect("post").status() }
    };
    // Past the CSRF check the router answers 404.
    assert_eq!(
        post(Some(format!("XSRF-TOKEN={token}")), token.clone()).await,
        StatusCode::NOT_FOUND
    );
    // A forged token of the right shape, sent as both cookie and header (cookie tossing).
    let (payload, _) = token.rsplit_once('.').expect("signed");
    let forged = format!("{payload}.{}", "A".repeat(43));
    assert_eq!(
        post(Some(format!("XSRF-TOKEN={forged}")), forged).await.as_u16(),
        419
    );
    // The header alone, without the cookie it must repeat.
    assert_eq!(post(None, token).await.as_u16(), 419);
}

#[tokio::test]
async fn redis_keys_of_the_throttle_never_hold_what_the_attacker_typed() {
    let portal = start(|_| {}).await;
    let typed = format!("attacker_{}", "z".repeat(5_000));
    let response = login(&portal, &json!({"username": typed, "password": "Guess@123"})).await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let keys = redis_keys(&portal).await;
    let attempts: Vec<&String> = keys.iter().filter(|key| key.contains(":attempts:")).collect();
    assert_eq!(attempts.len(), 2, "{keys:?}");
    for key in attempts {
        assert!(!key.contains("attacker"), "{key}");
        assert!(key.len() < portal.settings.redis.key_prefix.len() + 64, "{key}");
    }
}

#[tokio::test]
async fn fifty_parallel_wrong_passwords_get_five_checks_and_the_victim_still_signs_in() {
    let portal = start(|_| {}).await;
    register(&portal, "parallel_victim").await;
    let guess = json!({"username": "parallel_victim", "password": "Guess@123"});
    let answers = futures::future::join_all((0..50).map(|_| login(&portal, &guess))).await;
    let checked = answers
        .iter()
        .filter(|answer| answer.status() == StatusCode::UNPROCESSABLE_ENTITY)
        .count();
    let throttled = answers
        .iter()
        .filter(|answer| answer.status() == StatusCode::TOO_MANY_REQUESTS)
        .count();
    assert_eq!(
        (checked, throttled),
        (5, 45),
        "only the free five reach the password check"
    );

    // The victim's right password without a captcha: throttled, told how long to wait.
    let right = json!({"username": "parallel_victim", "password": PASSWORD});
    let refused = login(&portal, &right).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!((1..=900).contains(&retry_after(refused.headers())));
    // A wrong captcha is no better.
    let mut wrong_captcha = right.clone();
    wrong_captcha["gReCaptchaToken"] = json!("not-a-captcha");
    assert_eq!(
        login(&portal, &wrong_captcha).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    // With a solved captcha a wrong password is checked (and counted), the right one signs in.
    let mut guess_with_captcha = guess.clone();
    guess_with_captcha["gReCaptchaToken"] = json!("dev-captcha");
    assert_eq!(
        login(&portal, &guess_with_captcha).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    let mut solved = right.clone();
    solved["gReCaptchaToken"] = json!("dev-captcha");
    let signed_in = login(&portal, &solved).await;
    assert_eq!(signed_in.status(), StatusCode::OK);
    let user: Value = signed_in.json().await.expect("json");
    assert_eq!(user["username"], "parallel_victim");
    // Signing in started the victim's count over.
    assert_eq!(login(&portal, &right).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn one_guesser_at_a_shared_address_does_not_lock_out_the_players_behind_it() {
    let portal = start(|_| {}).await;
    register(&portal, "cafe_player").await;
    // Twenty usernames, one guess each: under every username's limit, up to the address's.
    for n in 0..20 {
        let guess = json!({"username": format!("cafe_guess_{n}"), "password": "Guess@123"});
        assert_eq!(
            login(&portal, &guess).await.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "guess {n}"
        );
    }
    let guess = json!({"username": "cafe_guess_20", "password": "Guess@123"});
    assert_eq!(
        login(&portal, &guess).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    let right = json!({"username": "cafe_player", "password": PASSWORD});
    assert_eq!(
        login(&portal, &right).await.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "past the address's limit a captcha is asked for"
    );
    let mut solved = right.clone();
    solved["gReCaptchaToken"] = json!("dev-captcha");
    assert_eq!(login(&portal, &solved).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn guessing_the_current_password_of_change_password_is_throttled() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "pw_oracle").await;
    let guess =
        json!({"currentPassword": "Guess@123", "password": "Newpass@123", "passwordConfirm": "Newpass@123"});
    for n in 0..5 {
        let response = send_json(&http, &portal, Method::POST, "/me/change-password", &guess).await;
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY, "guess {n}");
    }
    let right =
        json!({"currentPassword": PASSWORD, "password": "Newpass@123", "passwordConfirm": "Newpass@123"});
    let throttled = send_json(&http, &portal, Method::POST, "/me/change-password", &right).await;
    assert_eq!(throttled.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!((1..=900).contains(&retry_after(throttled.headers())));
    let mut solved = right.clone();
    solved["gReCaptchaToken"] = json!("dev-captcha");
    let changed = send_json(&http, &portal, Method::POST, "/me/change-password", &solved).await;
    assert_eq!(changed.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_session_kept_busy_still_ends_at_its_absolute_lifetime() {
    // A fast clock: browser sessions end 4 s after sign-in, remember-me ones after 8 s.
    let portal = start(|settings| {
        settings.gateway.session_lifetime_seconds = 4;
        settings.gateway.session_remember_seconds = 8;
    })
    .await;
    let busy = register(&portal, "busy_session").await;
    let started = std::time::Instant::now();
    let remembered = client();
    let response = send_json(
        &remembered,
        &portal,
        Method::POST,
        "/auth/login",
        &json!({"username": "busy_session", "password": PASSWORD, "remember": true}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);

    // Used twice a second (the idle timeout restarts each time), it still ends.
    let mut ended_after = None;
    while started.elapsed() < std::time::Duration::from_secs(15) {
        if kid_testing::portal::me_status(&busy, &portal).await == StatusCode::UNAUTHORIZED {
            ended_after = Some(started.elapsed());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
    let ended_after = ended_after.expect("the browser session ends");
    assert!(
        ended_after >= std::time::Duration::from_secs(3),
        "{ended_after:?}"
    );
    assert_eq!(
        kid_testing::portal::me_status(&remembered, &portal).await,
        StatusCode::OK,
        "remember-me lasts longer"
    );
    kid_testing::eventually("the remember-me session ends too", || async {
        (kid_testing::portal::me_status(&remembered, &portal).await == StatusCode::UNAUTHORIZED).then_some(())
    })
    .await;
    assert!(started.elapsed() >= std::time::Duration::from_secs(7));
}

/// A Redis of the test's own, small enough to fill, that never evicts (as deploy/ runs it).
struct SmallRedis {
    process: std::process::Child,
    url: String,
}

impl SmallRedis {
    async fn start() -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let process = std::process::Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", ""])
            .args([
                "--appendonly",
                "no",
                "--maxmemory",
                "4mb",
                "--maxmemory-policy",
                "noeviction",
            ])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("redis-server");
        let url = format!("redis://127.0.0.1:{port}");
        kid_testing::eventually("the small Redis answers", || async {
            let client = redis::Client::open(url.as_str()).ok()?;
            let mut connection = client.get_multiplexed_async_connection().await.ok()?;
            redis::cmd("PING")
                .query_async::<String>(&mut connection)
                .await
                .ok()
        })
        .await;
        Self { process, url }
    }

    async fn connection(&self) -> redis::aio::MultiplexedConnection {
        redis::Client::open(self.url.as_str())
            .expect("url")
            .get_multiplexed_async_connection()
            .await
            .expect("connection")
    }
}

impl Drop for SmallRedis {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

#[tokio::test]
async fn a_full_redis_refuses_sign_ins_with_503_and_never_forgets_a_throttle() {
    let small = SmallRedis::start().await;
    let url = small.url.clone();
    let portal = start(move |settings| settings.redis.url = url.into()).await;
    register(&portal, "full_redis_player").await;
    let guess = json!({"username": "full_redis_player", "password": "Guess@123"});
    for n in 0..4 {
        assert_eq!(
            login(&portal, &guess).await.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "guess {n}"
        );
    }

    // Full: a megabyte of data, then less room than Redis already uses.
    let mut redis = small.connection().await;
    let _: () = redis::cmd("SET")
        .arg("filler")
        .arg("x".repeat(1_000_000))
        .query_async(&mut redis)
        .await
        .expect("filler");
    let _: () = redis::cmd("CONFIG")
        .arg(&["SET", "maxmemory", "1500000"])
        .query_async(&mut redis)
        .await
        .expect("less room");
    let tiny: redis::RedisResult<i64> = redis::cmd("INCR").arg("probe").query_async(&mut redis).await;
    assert_eq!(tiny.expect_err("full").code(), Some("OOM"));

    // Every guess is refused unchecked: none reaches the password check uncounted.
    for _ in 0..8 {
        let response = login(&portal, &guess).await;
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body: Value = response.json().await.expect("a JSON body");
        assert_eq!(body["message"], "Dịch vụ tạm thời gián đoạn, xin thử lại sau.");
    }

    // With room again the count is where it was (nothing evicted it, none of the eight
    // counted): one more free guess, then the throttle.
    let _: () = redis::cmd("CONFIG")
        .arg(&["SET", "maxmemory", "8mb"])
        .query_async(&mut redis)
        .await
        .expect("room again");
    assert_eq!(
        login(&portal, &guess).await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
    assert_eq!(
        login(&portal, &guess).await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
}

/// This process's resident memory (the whole portal runs in it), in KiB.
fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .expect("status")
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

#[tokio::test]
async fn a_flood_of_two_hundred_parallel_sign_ins_keeps_memory_flat() {
    let portal = start(|_| {}).await;
    register(&portal, "flood_player").await;
    // A solved captcha each, so the throttle lets all of them through to the hasher.
    let body = json!({"username": "flood_player", "password": PASSWORD, "gReCaptchaToken": "dev-captcha"});
    assert_eq!(login(&portal, &body).await.status(), StatusCode::OK);
    let baseline = resident_kib();
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(baseline));
    let sampling = {
        let peak = peak.clone();
        tokio::spawn(async move {
            loop {
                peak.fetch_max(resident_kib(), std::sync::atomic::Ordering::Relaxed);
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
        })
    };
    let answers = futures::future::join_all((0..200).map(|_| login(&portal, &body))).await;
    sampling.abort();
    let signed_in = answers
        .iter()
        .filter(|answer| answer.status() == StatusCode::OK)
        .count();
    let busy: Vec<&reqwest::Response> = answers
        .iter()
        .filter(|answer| answer.status() == StatusCode::SERVICE_UNAVAILABLE)
        .collect();
    let others: Vec<StatusCode> = answers
        .iter()
        .map(reqwest::Response::status)
        .filter(|status| *status != StatusCode::OK && *status != StatusCode::SERVICE_UNAVAILABLE)
        .collect();
    assert!(others.is_empty(), "only sign-ins and 'busy, retry': {others:?}");
    assert!(signed_in >= 2, "{signed_in} signed in");
    assert!(!busy.is_empty(), "the queue is bounded");
    assert!(busy.iter().all(|answer| retry_after(answer.headers()) >= 1));
    let grown_mib = (peak.load(std::sync::atomic::Ordering::Relaxed) - baseline) / 1024;
    println!(
        "200 parallel sign-ins: {signed_in} signed in, {} busy, peak RSS growth {grown_mib} MiB",
        busy.len()
    );
    assert!(grown_mib < 100, "peak RSS grew {grown_mib} MiB");
}

/// Migrations run in production too: a database migrated by the payment service alone (no
/// development seed) must show a player no payee account we might not own. The development
/// seed, which only the launcher runs, shows the placeholders again.
#[tokio::test]
async fn a_production_database_shows_players_no_placeholder_payee_account() {
    let settings = kid_testing::isolated_settings().await.expect("settings");
    let shutdown = tokio_util::sync::CancellationToken::new();
    let payment =
        kid_platform::service::Application::build(&kid_payment::SERVICE, settings.clone(), shutdown.clone())
            .await
            .expect("payment migrates and starts");
    let pool = kid_platform::db::connect(&settings.database, "payment")
        .await
        .expect("pool");
    let listed = async || -> Vec<String> {
        sqlx::query_scalar("select account_number from transfer_method where enabled order by code")
            .fetch_all(&pool)
            .await
            .expect("methods")
    };
    assert_eq!(listed().await, Vec::<String>::new(), "no placeholder is offered");
    kid_payment::seed_development(&settings).await.expect("seed");
    assert_eq!(listed().await.len(), 4, "development shows the placeholders");
    shutdown.cancel();
    drop(payment);
}
