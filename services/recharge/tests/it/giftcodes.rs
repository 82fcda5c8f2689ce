//! Giftcodes through the real stack: `POST /api/giftcode/redeem` on the gateway, the recharge
//! service's redemption, the wallet's grant over gRPC; the campaign command run as a binary.
//! Attacks: guessing codes by the thousand, racing one single-use code from two accounts,
//! replaying a redemption, redeeming a campaign twice with two codes, reading codes from the
//! database.

use std::{
    io::Write,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use futures::future::join_all;
use kid_contracts::messages::giftcode::{
    MSG_CODE_ALREADY_REDEEMED, MSG_CODE_EXPIRED, MSG_CODE_NOT_STARTED, MSG_CODE_REQUIRED, MSG_CODE_UNKNOWN,
    MSG_CODE_USED,
};
use kid_recharge::app::giftcodes::{CodeHasher, normalise};
use kid_testing::portal::{
    Portal, database, get_json, registered, retry_after, start, status_and_json, xsrf_token,
};
use reqwest::{Client, StatusCode};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const WELCOME: &str = "KID-WELCOME";

async fn redeem_with(http: &Client, portal: &Portal, code: &str, key: Option<&str>) -> reqwest::Response {
    let token = xsrf_token(http, &portal.base).await;
    let mut request = http
        .post(format!("{}/api/giftcode/redeem", portal.base))
        .header("X-XSRF-TOKEN", token)
        .json(&json!({ "code": code, "gReCaptchaToken": "dev-captcha" }));
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    request.send().await.expect("redeem")
}

async fn redeem(http: &Client, portal: &Portal, code: &str) -> (StatusCode, Value) {
    status_and_json(redeem_with(http, portal, code, None).await).await
}

fn code_error(body: &Value) -> &str {
    body["errors"]["code"][0]
        .as_str()
        .unwrap_or_else(|| panic!("no errors.code in {body}"))
}

async fn credit_of(http: &Client, portal: &Portal) -> i64 {
    let (_, me) = get_json(http, portal, "/me").await;
    me["credit"].as_i64().expect("credit")
}

/// The KP the ledger gave the player as giftcodes, from the postings themselves.
async fn granted_kp(portal: &Portal, player: uuid::Uuid) -> (i64, i64) {
    sqlx::query_as(
        "select count(distinct t.id), coalesce(sum(p.amount), 0)::bigint
           from ledger_transaction t
           join posting p on p.transaction_id = t.id
           join account a on a.id = p.account_id and a.user_id = t.user_id
          where t.type = 'giftcode' and t.user_id = $1",
    )
    .bind(player)
    .fetch_one(&database(portal, "wallet").await)
    .await
    .expect("grants")
}

/// Runs `kid-giftcodes` against the portal's database; the CSV's codes.
fn generate(portal: &Portal, dir: &Path, name: &str, extra: &[&str]) -> Vec<String> {
    let out: PathBuf = dir.join(format!("{}.csv", name.replace(' ', "-")));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_kid-giftcodes"))
        .args(["--campaign", name, "--out"])
        .arg(&out)
        .args(extra)
        .env("KID_ENVIRONMENT", "development")
        .env(
            "KID_DATABASE__URL",
            secrecy::ExposeSecret::expose_secret(&portal.settings.database.url),
        )
        .output()
        .expect("kid-giftcodes runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut reader = csv::Reader::from_path(&out).expect("the CSV");
    assert_eq!(
        reader.headers().expect("header").iter().collect::<Vec<_>>(),
        ["code", "campaign", "gift", "starts_at", "expires_at"]
    );
    reader
        .records()
        .map(|record| {
            let record = record.expect("record");
            assert_eq!(&record[1], name);
            record[0].to_owned()
        })
        .collect()
}

#[tokio::test]
async fn kid_welcome_gives_1000_kp_once_per_account_and_shows_in_the_history() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "gift_one").await;

    // As a player may type it: lower case, spaces around.
    let (status, body) = redeem(&http, &portal, "  kid-welcome ").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["campaign"], "Chào mừng tân thủ");
    assert_eq!(body["kp"], 1_000);
    assert_eq!(body["status"], "granted");
    let transaction_id = body["transactionId"].as_str().expect("transaction id").to_owned();
    assert_eq!(credit_of(&http, &portal).await, 1_000);

    // Again, as a new request: refused for the account, nothing more moves.
    let (status, again) = redeem(&http, &portal, WELCOME).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{again}");
    assert_eq!(code_error(&again), MSG_CODE_ALREADY_REDEEMED);
    assert_eq!(credit_of(&http, &portal).await, 1_000);
    assert_eq!(granted_kp(&portal, player).await, (1, 1_000));

    // Multi-use: another account redeems it too.
    let (other, _) = registered(&portal, "gift_two").await;
    let (status, body) = redeem(&other, &portal, WELCOME).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(credit_of(&other, &portal).await, 1_000);

    // The history lists it as a giftcode with its campaign, filterable, with a receipt.
    let (_, page) = get_json(&http, &portal, "/transactions?type=giftcode").await;
    let items = page["items"].as_array().expect("items");
    assert_eq!(items.len(), 1, "{page}");
    assert_eq!(items[0]["id"], transaction_id.as_str());
    assert_eq!(items[0]["type"], "giftcode");
    assert_eq!(items[0]["realValue"], 1_000);
    assert_eq!(items[0]["currency"], "KP");
    assert_eq!(items[0]["payload"]["campaign"], "Chào mừng tân thủ");
    let (status, _) = get_json(&http, &portal, &format!("/transactions/{transaction_id}")).await;
    assert_eq!(status, StatusCode::OK);
    let (_, latest) = get_json(&http, &portal, "/payment/transaction-history").await;
    assert!(latest.to_string().contains(&transaction_id), "{latest}");
}

#[tokio::test]
async fn bad_codes_get_their_own_message_under_code_and_move_nothing() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "gift_bad").await;
    let dir = tempdir();
    for (typed, message) in [
        ("", MSG_CODE_REQUIRED),
        (" - ", MSG_CODE_REQUIRED),
        ("KID-NOPE-NOPE-NOPE", MSG_CODE_UNKNOWN),
        ("'; drop table giftcode; --", MSG_CODE_UNKNOWN),
        (&"A".repeat(10_000), MSG_CODE_UNKNOWN),
    ] {
        let (status, body) = redeem(&http, &portal, typed).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(code_error(&body), message);
    }

    let tomorrow = (time::OffsetDateTime::now_utc() + time::Duration::days(2)).date();
    let later = tomorrow.next_day().expect("day");
    let future = generate(
        &portal,
        &dir,
        "Sắp mở",
        &[
            "--kp",
            "500",
            "--count",
            "1",
            "--starts",
            &tomorrow.to_string(),
            "--expires",
            &later.to_string(),
        ],
    );
    let (status, body) = redeem(&http, &portal, &future[0]).await;
    assert_eq!(
        (status, code_error(&body)),
        (StatusCode::UNPROCESSABLE_ENTITY, MSG_CODE_NOT_STARTED)
    );

    let ended = generate(
        &portal,
        &dir,
        "Đã hết",
        &["--kp", "500", "--count", "1", "--expires", &later.to_string()],
    );
    sqlx::query(
        "update giftcode_campaign set starts_at = now() - interval '2 days', expires_at = now() - interval '1 second' where name = 'Đã hết'",
    )
    .execute(&database(&portal, "recharge").await)
    .await
    .expect("end the campaign");
    let (status, body) = redeem(&http, &portal, &ended[0]).await;
    assert_eq!(
        (status, code_error(&body)),
        (StatusCode::UNPROCESSABLE_ENTITY, MSG_CODE_EXPIRED)
    );

    assert_eq!(credit_of(&http, &portal).await, 0);
    assert_eq!(granted_kp(&portal, player).await, (0, 0));
}

#[tokio::test]
async fn a_replayed_redemption_with_its_key_grants_once() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "gift_replay").await;
    // Eight tries of one request at once, as a flaky network's retries would send them.
    let answers = join_all((0..8).map(|_| async {
        status_and_json(redeem_with(&http, &portal, WELCOME, Some("welcome-once")).await).await
    }))
    .await;
    let ids: std::collections::HashSet<String> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, StatusCode::OK, "{body}");
            body["redemptionId"].as_str().expect("id").to_owned()
        })
        .collect();
    assert_eq!(ids.len(), 1, "one redemption: {answers:?}");
    assert_eq!(credit_of(&http, &portal).await, 1_000);
    assert_eq!(granted_kp(&portal, player).await, (1, 1_000));

    // The same key for another code is a conflict, not a second redemption.
    let (status, body) =
        status_and_json(redeem_with(&http, &portal, "KID-OTHER", Some("welcome-once")).await).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(credit_of(&http, &portal).await, 1_000);
}

#[tokio::test]
async fn one_key_sent_at_once_with_codes_of_two_campaigns_redeems_one() {
    let portal = start(|_| {}).await;
    let dir = tempdir();
    let codes = generate(
        &portal,
        &dir,
        "Hai chương trình",
        &["--kp", "3000", "--count", "5", "--expires", "2099-12-31"],
    );
    // Codes of different campaigns take different locks: only the key can tie them.
    for (n, code) in codes.iter().enumerate() {
        let (http, player) = registered(&portal, &format!("gift_key_{n}")).await;
        let (a, b) = tokio::join!(
            redeem_with(&http, &portal, WELCOME, Some("one-key")),
            redeem_with(&http, &portal, code, Some("one-key")),
        );
        let mut statuses = [a.status(), b.status()];
        statuses.sort();
        assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "player {n}");
        let (grants, kp) = granted_kp(&portal, player).await;
        assert_eq!(grants, 1, "player {n}");
        assert!(kp == 1_000 || kp == 3_000, "player {n}: {kp}");
    }
}

#[tokio::test]
async fn racing_one_single_use_code_from_two_accounts_grants_it_once() {
    let portal = start(|_| {}).await;
    let dir = tempdir();
    let codes = generate(
        &portal,
        &dir,
        "Một lần",
        &["--kp", "2000", "--count", "3", "--expires", "2099-12-31"],
    );
    let (first, _) = registered(&portal, "gift_race_a").await;
    let (second, _) = registered(&portal, "gift_race_b").await;
    let (a, b) = tokio::join!(
        redeem(&first, &portal, &codes[0]),
        redeem(&second, &portal, &codes[0])
    );
    let mut statuses = [a.0, b.0];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::UNPROCESSABLE_ENTITY],
        "{a:?} {b:?}"
    );
    let loser = if a.0 == StatusCode::OK { &b.1 } else { &a.1 };
    assert_eq!(code_error(loser), MSG_CODE_USED);
    let total = credit_of(&first, &portal).await + credit_of(&second, &portal).await;
    assert_eq!(total, 2_000);

    // One account, two codes of a once-per-account campaign at once: one is granted.
    let (third, _) = registered(&portal, "gift_race_c").await;
    let (c, d) = tokio::join!(
        redeem(&third, &portal, &codes[1]),
        redeem(&third, &portal, &codes[2])
    );
    let mut statuses = [c.0, d.0];
    statuses.sort();
    assert_eq!(
        statuses,
        [StatusCode::OK, StatusCode::UNPROCESSABLE_ENTITY],
        "{c:?} {d:?}"
    );
    assert_eq!(credit_of(&third, &portal).await, 2_000);
}

#[tokio::test]
async fn a_campaign_of_100000_codes_is_written_to_csv_and_stored_only_hashed() {
    let portal = start(|_| {}).await;
    let dir = tempdir();
    let codes = generate(
        &portal,
        &dir,
        "Tết 2027",
        &[
            "--kp",
            "5000",
            "--count",
            "100000",
            "--expires",
            "2099-12-31",
            "--per-account",
            "2",
        ],
    );
    assert_eq!(codes.len(), 100_000);
    let unique: std::collections::HashSet<&String> = codes.iter().collect();
    assert_eq!(unique.len(), 100_000);
    assert!(
        codes
            .iter()
            .all(|code| code.len() == 18 && code.starts_with("KID-"))
    );

    let recharge = database(&portal, "recharge").await;
    let (count, hashed): (i64, i64) = sqlx::query_as(
        "select count(*), count(*) filter (where length(code.hash) = 32)
           from giftcode code join giftcode_campaign campaign on campaign.id = code.campaign_id
          where campaign.name = 'Tết 2027' and code.max_uses = 1",
    )
    .fetch_one(&recharge)
    .await
    .expect("codes");
    assert_eq!((count, hashed), (100_000, 100_000));
    // A code is stored as its HMAC under the pepper: neither as text nor as a plain SHA-256,
    // which anyone holding a dump could compute for a guess.
    let sample = &codes[12_345];
    let normalised = normalise(sample).expect("a generated code");
    let stored = |hash: Vec<u8>| {
        let recharge = recharge.clone();
        async move {
            sqlx::query_scalar::<_, i64>("select count(*) from giftcode where hash = $1")
                .bind(hash)
                .fetch_one(&recharge)
                .await
                .expect("lookup")
        }
    };
    let keyed = CodeHasher::new(portal.settings.recharge.giftcode_pepper.clone()).hash(&normalised);
    assert_eq!(stored(keyed).await, 1);
    assert_eq!(stored(Sha256::digest(normalised.as_bytes()).to_vec()).await, 0);
    assert_eq!(stored(normalised.into_bytes()).await, 0);

    // Each code works, once per code; the campaign allows an account two.
    let (http, _) = registered(&portal, "gift_tet").await;
    for code in &codes[..2] {
        let (status, body) = redeem(&http, &portal, &code.to_lowercase()).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, body) = redeem(&http, &portal, &codes[2]).await;
    assert_eq!(
        (status, code_error(&body)),
        (StatusCode::UNPROCESSABLE_ENTITY, MSG_CODE_ALREADY_REDEEMED)
    );
    assert_eq!(credit_of(&http, &portal).await, 10_000);

    // A second run with the same name is refused and leaves no CSV.
    let out = dir.join("again.csv");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_kid-giftcodes"))
        .args([
            "--campaign",
            "Tết 2027",
            "--kp",
            "1",
            "--count",
            "1",
            "--expires",
            "2099-12-31",
            "--out",
        ])
        .arg(&out)
        .env("KID_ENVIRONMENT", "development")
        .env(
            "KID_DATABASE__URL",
            secrecy::ExposeSecret::expose_secret(&portal.settings.database.url),
        )
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("exists"));
    assert!(!out.exists() && !out.with_extension("csv.partial").exists());
}

/// Log lines, as the portal writes them in this test's process.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("logs").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn guessing_1000_codes_is_stopped_after_ten_and_logged() {
    let logs = Logs::default();
    let writer = logs.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .try_init()
        .expect("this test's process logs here");
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "gift_guesser").await;

    let mut refused = 0;
    let mut stopped = 0;
    for n in 0..1_000 {
        let response = redeem_with(&http, &portal, &format!("KID-GUES-S{n:03}-AAAA"), None).await;
        match response.status() {
            StatusCode::UNPROCESSABLE_ENTITY => refused += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                assert!(retry_after(response.headers()) > 0);
                stopped += 1;
            }
            other => panic!("guess {n}: {other}"),
        }
    }
    assert_eq!((refused, stopped), (10, 990));
    // The right code is no way past it: the window holds whatever is typed.
    let (status, _) = redeem(&http, &portal, WELCOME).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(credit_of(&http, &portal).await, 0);
    assert_eq!(granted_kp(&portal, player).await, (0, 0));

    // Another player behind the same address is not stopped by this one's ten.
    let (honest, _) = registered(&portal, "gift_neighbour").await;
    let (status, body) = redeem(&honest, &portal, WELCOME).await;
    assert_eq!(status, StatusCode::OK, "{body}");

    let text = String::from_utf8(logs.0.lock().expect("logs").clone()).expect("UTF-8");
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("giftcode guessing stopped"))
        .collect();
    assert_eq!(
        lines.len(),
        1,
        "logged once, when the guessing was stopped: {text}"
    );
    assert!(
        lines[0].contains(&player.to_string()) && lines[0].contains("WARN"),
        "{}",
        lines[0]
    );
}

fn tempdir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kid-giftcodes-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
