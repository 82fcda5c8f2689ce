//! Top-ups through the real path: the bank feed's signed webhook and phone cards through the
//! card aggregator's simulator, the payment service, RabbitMQ and the wallet, read back as the
//! player sees them (`/api/me`, the history).

use std::{sync::Arc, time::Duration};

use kid_contracts::wallet::v1::{CoinMetadata, DebitRequest, wallet_service_client::WalletServiceClient};
use kid_payment::domain::bank_feed::{BankFeed, Outgoing, macs_verified, now_ms};
use kid_payment::domain::charging;
use kid_platform::config::BankFeedScheme;
use kid_platform::{
    auth::{AttachInternalJwt, InternalJwt},
    db, grpc,
};
use kid_testing::{
    metric,
    portal::{Portal, eventually, get_json, registered, send_json, start},
};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use uuid::Uuid;

const API_KEY: &str = "Apikey dev-sepay-key";
const PARTNER_KEY: &str = "dev-partner-key";

/// The player's own transfer content, as /payment/bank-transfer shows it.
async fn transfer_content(http: &Client, portal: &Portal) -> String {
    let (status, methods) = get_json(http, portal, "/payment/methods").await;
    assert_eq!(status, StatusCode::OK, "{methods}");
    let syntax = methods["bankTransfers"][0]["paymentSyntax"]
        .as_str()
        .expect("syntax")
        .to_owned();
    for method in methods["bankTransfers"]
        .as_array()
        .into_iter()
        .chain(methods["eWallets"].as_array())
        .flatten()
    {
        assert_eq!(
            method["paymentSyntax"],
            syntax.as_str(),
            "one content per player: {method}"
        );
    }
    syntax
}

/// A SePay-shaped notification of `amount` VND into our `bank` account.
fn transfer(id: &str, bank: &str, account: &str, content: &str, amount: i64) -> Value {
    json!({
        "id": id,
        "gateway": bank,
        "transactionDate": "2026-11-22 10:00:00",
        "accountNumber": account,
        "code": null,
        "content": content,
        "transferType": "in",
        "transferAmount": amount,
        "referenceCode": format!("FT{id}"),
        "accumulated": 0,
    })
}

fn vietcombank(id: &str, content: &str, amount: i64) -> Value {
    transfer(id, "Vietcombank", "1023456789", content, amount)
}

/// Posts `body` to `/api/webhooks/{path}` with `headers`; the answer.
async fn post(portal: &Portal, path: &str, body: &[u8], headers: &[(&str, String)]) -> (StatusCode, Value) {
    let mut request = Client::new()
        .post(format!("{}/api/webhooks/{path}", portal.base))
        .header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = request.body(body.to_vec()).send().await.expect("webhook");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// SePay's notification with the development API key.
async fn notify(portal: &Portal, body: &Value) -> (StatusCode, Value) {
    let body = serde_json::to_vec(body).expect("json");
    post(
        portal,
        "bank-transfer",
        &body,
        &[("authorization", API_KEY.to_owned())],
    )
    .await
}

/// The bank-feed records kept at all.
async fn records(portal: &Portal) -> i64 {
    let payment = db::connect(&portal.settings.database, "payment")
        .await
        .expect("pool");
    sqlx::query_scalar("select count(*) from bank_feed_record")
        .fetch_one(&payment)
        .await
        .expect("count")
}

async fn me(http: &Client, portal: &Portal) -> Value {
    let (status, me) = get_json(http, portal, "/me").await;
    assert_eq!(status, StatusCode::OK);
    me
}

/// Waits until `/api/me` satisfies `done`, and returns it.
async fn me_once(http: &Client, portal: &Portal, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    eventually(what, || async {
        let me = me(http, portal).await;
        done(&me).then_some(me)
    })
    .await
}

async fn balance_reaches(http: &Client, portal: &Portal, credit: i64) -> Value {
    me_once(http, portal, &format!("credit {credit}"), |me| {
        me["credit"] == credit
    })
    .await
}

async fn history(http: &Client, portal: &Portal) -> Vec<Value> {
    let (status, history) = get_json(http, portal, "/payment/transaction-history").await;
    assert_eq!(status, StatusCode::OK);
    history.as_array().expect("list").clone()
}

/// The bank-feed records the payment service kept, by status.
async fn feed_records(portal: &Portal, status: &str) -> Vec<(Option<String>, Option<String>)> {
    let payment = db::connect(&portal.settings.database, "payment")
        .await
        .expect("pool");
    sqlx::query_as("select provider_id, reason from bank_feed_record where status = $1 order by received_at")
        .bind(status)
        .fetch_all(&payment)
        .await
        .expect("records")
}

/// The top-up SLO's events and good events (deploy/README.md, "Service level objectives"): a
/// top-up taken is counted once however often it is notified, and its credit's delay is
/// observed from when the notification reached us.
#[tokio::test]
async fn a_top_up_is_counted_once_and_its_credit_delay_observed() {
    let metrics = kid_platform::metrics::handle();
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "slo_player").await;
    let content = transfer_content(&http, &portal).await;
    let transfer = vietcombank("sepay-slo-1", &format!("MBVCB.7.{content}.CT tu 0123"), 200_000);
    for _ in 0..3 {
        let (status, answer) = notify(&portal, &transfer).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    balance_reaches(&http, &portal, 200_000).await;
    let rendered = eventually("the credit's delay observed", async || {
        let rendered = metrics.render();
        (metric(&rendered, "wallet_topup_credit_delay_seconds_count") == Some(1.0)).then_some(rendered)
    })
    .await;
    assert_eq!(
        metric(
            &rendered,
            r#"payment_topups_received_total{type="bank-transfer"}"#
        ),
        Some(1.0),
        "{rendered}"
    );
    // Credited within the objective's 60 s, and the bucket the SLO reads exists.
    assert_eq!(
        metric(&rendered, r#"wallet_topup_credit_delay_seconds_bucket{le="60"}"#),
        Some(1.0),
        "{rendered}"
    );
}

#[tokio::test]
async fn the_bank_feed_credits_each_transfer_once_and_keeps_what_it_cannot_match() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "feed_player").await;
    let content = transfer_content(&http, &portal).await;

    // The same transfer, once and then six times at once: one credit.
    let valid = vietcombank("sepay-1001", &format!("MBVCB.8812.{content}.CT tu 0123"), 500_000);
    let (status, first) = notify(&portal, &valid).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(
        first,
        json!({ "success": true, "duplicate": false, "matched": true })
    );
    let repeats = futures::future::join_all((0..6).map(|_| notify(&portal, &valid))).await;
    for (status, answer) in repeats {
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer["duplicate"], true, "{answer}");
    }
    balance_reaches(&http, &portal, 500_000).await;

    // Refused before anything is read or kept: another key, another scheme, no key at all.
    let kept = records(&portal).await;
    let body = serde_json::to_vec(&vietcombank("sepay-1002", &content, 900_000)).expect("json");
    for refused in [
        vec![("authorization", "Apikey not-the-key".to_owned())],
        vec![("authorization", "Bearer dev-sepay-key".to_owned())],
        vec![("authorization", "Apikey dev-sepay-key ".to_owned() + "x")],
        vec![],
    ] {
        let (status, answer) = post(&portal, "bank-transfer", &body, &refused).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{refused:?}");
        assert_eq!(answer["success"], false);
        assert!(
            answer["message"]
                .as_str()
                .expect("message")
                .contains("credential"),
            "{answer}"
        );
    }
    assert_eq!(
        records(&portal).await,
        kept,
        "a refused notification is not recorded"
    );

    // Unknown content and a malformed body: kept for support, never credited.
    let (status, answer) = notify(
        &portal,
        &vietcombank("sepay-1003", "chuyen tien an trua", 200_000),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        answer,
        json!({ "success": true, "duplicate": false, "matched": false })
    );
    let malformed = br#"{"id": 1004, "gateway": "Vietcombank", "transferAmount": "many"}"#;
    let key = [("authorization", API_KEY.to_owned())];
    let (status, answer) = post(&portal, "bank-transfer", malformed, &key).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["success"], false);
    let (status, _) = post(&portal, "bank-transfer", b"not json at all", &key).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let unmatched = feed_records(&portal, "unmatched").await;
    assert_eq!(
        unmatched,
        vec![(
            Some("sepay-1003".to_owned()),
            Some("no player's transfer content".to_owned())
        )]
    );
    assert_eq!(feed_records(&portal, "malformed").await.len(), 2);
    assert_eq!(feed_records(&portal, "credited").await.len(), 1);

    // An e-wallet transfer is an e-wallet top-up.
    let momo = transfer(
        "momo-77",
        "momo",
        "0901234567",
        &format!("{content} nap game"),
        50_000,
    );
    assert_eq!(notify(&portal, &momo).await.1["matched"], true);
    balance_reaches(&http, &portal, 550_000).await;
    let history = history(&http, &portal).await;
    let kinds: Vec<(&str, i64)> = history
        .iter()
        .map(|t| {
            (
                t["type"].as_str().expect("type"),
                t["realValue"].as_i64().expect("value"),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        vec![("topup.e-wallet", 50_000), ("topup.bank-transfer", 500_000)]
    );
    assert_eq!(history[1]["payload"]["source"], "vietcombank");
    assert_eq!(history[0]["payload"]["source"], "momo");
    // Nothing else arrived late.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(me(&http, &portal).await["credit"], 550_000);
}

/// The contract: SePay's documented sample body, with a payee account of the development
/// portal and a player's transfer content, and the development API key, credits the player once
/// however often it is sent.
#[tokio::test]
async fn sepays_documented_sample_with_the_development_key_credits_once() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "sample_player").await;
    let content = transfer_content(&http, &portal).await;
    let mut sample: Value =
        serde_json::from_str(include_str!("fixtures/sepay-webhook.json")).expect("SePay's sample");
    sample["accountNumber"] = json!("1023456789");
    sample["content"] = json!(format!("chuyen tien {content}"));
    for _ in 0..3 {
        let (status, answer) = notify(&portal, &sample).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["success"], true, "{answer}");
    }
    balance_reaches(&http, &portal, 2_277_000).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(me(&http, &portal).await["credit"], 2_277_000);
}

fn hmac_portal(settings: &mut kid_platform::Settings) {
    settings.payment.bank_feed = BankFeedScheme::SepayHmac;
    settings.payment.bank_feed_secret = "sepay-webhook-secret".to_owned().into();
}

/// SePay's HMAC-SHA256: a forged, a stale and a moved signature are refused; a replayed one
/// is the same transfer again.
#[tokio::test]
async fn forged_stale_and_replayed_sepay_signatures_move_nothing() {
    let portal = start(hmac_portal).await;
    let (http, _) = registered(&portal, "hmac_player").await;
    let content = transfer_content(&http, &portal).await;
    let feed = BankFeed::from_settings(&portal.settings.payment);
    let body = serde_json::to_vec(&vietcombank("9001", &content, 300_000)).expect("json");
    let signed =
        |feed: &BankFeed, body: &[u8], at: i64| -> Vec<(&'static str, String)> { feed.headers(body, at) };

    let forger = BankFeed::new(BankFeedScheme::SepayHmac, "a-guess".to_owned().into());
    let (status, _) = post(&portal, "bank-transfer", &body, &signed(&forger, &body, now_ms())).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post(
        &portal,
        "bank-transfer",
        &body,
        &signed(&feed, &body, now_ms() - 301_000),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a signature older than five minutes"
    );
    // Another body under the genuine signature: ten times the amount.
    let genuine = signed(&feed, &body, now_ms());
    let more = serde_json::to_vec(&vietcombank("9001", &content, 3_000_000)).expect("json");
    let (status, _) = post(&portal, "bank-transfer", &more, &genuine).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // An API key where the portal wants a signature.
    let (status, _) = post(
        &portal,
        "bank-transfer",
        &body,
        &[("authorization", API_KEY.to_owned())],
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(records(&portal).await, 0, "nothing refused is recorded");

    // The genuine one, then replayed as it was: one credit.
    for duplicate in [false, true, true] {
        let (status, answer) = post(&portal, "bank-transfer", &body, &genuine).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["duplicate"], duplicate, "{answer}");
    }
    balance_reaches(&http, &portal, 300_000).await;
}

/// Over-long credentials are refused before any HMAC, and a body over the cap whatever it
/// carries.
#[tokio::test]
async fn over_long_credentials_and_bodies_are_refused_before_any_hmac() {
    let portal = start(hmac_portal).await;
    let feed = BankFeed::from_settings(&portal.settings.payment);
    let mut padded = vietcombank("9101", "no one", 100_000);
    padded["description"] = json!("x".repeat(60_000));
    let body = serde_json::to_vec(&padded).expect("json");
    let mut headers = feed.headers(&body, now_ms());
    let before = macs_verified();
    headers[0].1 = format!("{}{}", headers[0].1, "0".repeat(2_000));
    let (status, answer) = post(&portal, "bank-transfer", &body, &headers).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["success"], false);
    let long_key = [("authorization", format!("Apikey {}", "k".repeat(2_000)))];
    let (status, _) = post(&portal, "bank-transfer", &body, &long_key).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(macs_verified(), before, "no HMAC was computed");

    let mut huge = vietcombank("9102", "no one", 100_000);
    huge["description"] = json!("x".repeat(70_000));
    let huge = serde_json::to_vec(&huge).expect("json");
    let (status, _) = post(&portal, "bank-transfer", &huge, &feed.headers(&huge, now_ms())).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(records(&portal).await, 0);
}

/// Casso behind the same port: its own body and HMAC-SHA512 signature; a transfer into one of
/// our virtual accounts inside another bank's account is ours, one into a stranger's is not.
#[tokio::test]
async fn casso_notifications_credit_through_the_same_port() {
    let portal = start(|settings| {
        settings.payment.bank_feed = BankFeedScheme::Casso;
        settings.payment.bank_feed_secret = "casso-key-bao-mat".to_owned().into();
    })
    .await;
    let (http, _) = registered(&portal, "casso_player").await;
    let content = transfer_content(&http, &portal).await;
    let feed = BankFeed::from_settings(&portal.settings.payment);
    let send = async |id: &str, account: &str, sub_account: Option<&str>, feed: &BankFeed| {
        let body = feed.body(&Outgoing {
            id,
            gateway: "Vietcombank",
            account_number: account,
            sub_account,
            content: &format!("{content} nap game"),
            amount_vnd: 120_000,
            transaction_date: "2026-12-07 10:00:00",
        });
        post(&portal, "bank-transfer", &body, &feed.headers(&body, now_ms())).await
    };
    let forger = BankFeed::new(BankFeedScheme::Casso, "guess".to_owned().into());
    assert_eq!(
        send("7001", "1023456789", None, &forger).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (status, answer) = send("7001", "1023456789", None, &feed).await;
    assert_eq!(
        (status, answer["matched"].clone()),
        (StatusCode::OK, json!(true)),
        "{answer}"
    );
    // Into a virtual account: Casso's virtualAccountNumber is our account.
    let (status, answer) = send("7002", "9999000011", Some("1023456789"), &feed).await;
    assert_eq!(
        (status, answer["matched"].clone()),
        (StatusCode::OK, json!(true)),
        "{answer}"
    );
    let (status, answer) = send("7003", "9999000011", Some("555"), &feed).await;
    assert_eq!(
        (status, answer["matched"].clone()),
        (StatusCode::OK, json!(false)),
        "{answer}"
    );
    assert_eq!(send("7001", "1023456789", None, &feed).await.1["duplicate"], true);
    balance_reaches(&http, &portal, 240_000).await;
    let unmatched = feed_records(&portal, "unmatched").await;
    assert_eq!(
        unmatched,
        vec![(
            Some("casso:7003".to_owned()),
            Some("not one of our accounts".to_owned())
        )]
    );
}

#[tokio::test]
async fn partnership_is_activated_and_bonused_as_money_md_says() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "partner_player").await;
    let content = transfer_content(&http, &portal).await;

    // 19,000,000 VND: no bonus.
    notify(&portal, &vietcombank("p-1", &content, 19_000_000)).await;
    balance_reaches(&http, &portal, 19_000_000).await;
    // 21,000,000 VND activates partnership: the fixed 15% on this order.
    notify(&portal, &vietcombank("p-2", &content, 21_000_000)).await;
    balance_reaches(&http, &portal, 19_000_000 + 21_000_000 + 3_150_000).await;
    let me = me_once(&http, &portal, "partner", |me| me["isPayPartner"] == true).await;
    assert_eq!(me["payAmountLast28Days"], 40_000_000);
    // 15,000,000 more: bonused at the tier in force when credited (15%), bringing the sum to
    // 55,000,000 and the tier to 20% for later orders.
    notify(&portal, &vietcombank("p-3", &content, 15_000_000)).await;
    balance_reaches(&http, &portal, 43_150_000 + 15_000_000 + 2_250_000).await;
    me_once(&http, &portal, "55,000,000 in the window", |me| {
        me["payAmountLast28Days"] == 55_000_000
    })
    .await;
    notify(&portal, &vietcombank("p-4", &content, 1_000_000)).await;
    balance_reaches(&http, &portal, 60_400_000 + 1_000_000 + 200_000).await;

    let history = history(&http, &portal).await;
    let bonus = |transaction: &Value| {
        transaction["relatedTransactions"]
            .as_array()
            .expect("related")
            .iter()
            .filter(|related| related["type"] == "credit.bonus")
            .map(|related| related["realValue"].as_i64().expect("value"))
            .sum::<i64>()
    };
    let bonuses: Vec<i64> = history.iter().map(bonus).collect();
    assert_eq!(bonuses, vec![200_000, 2_250_000, 3_150_000, 0]);
}

/// Sends a card from the signed-in player; returns the answer.
async fn send_card(
    http: &Client,
    portal: &Portal,
    provider: &str,
    value: i64,
    pin: &str,
    serial: &str,
) -> (StatusCode, Value) {
    let response = send_json(
        http,
        portal,
        Method::POST,
        "/payment/card-recharge",
        &json!({ "provider": provider, "value": value, "pin": pin, "serial": serial, "gReCaptchaToken": "dev-captcha" }),
    )
    .await;
    let status = response.status();
    (status, response.json().await.expect("json"))
}

/// The history row of the card with `serial`, once its status is `status`.
async fn card_row(http: &Client, portal: &Portal, serial: &str, status: &str) -> Value {
    eventually(&format!("card {serial} becomes {status}"), || async {
        history(http, portal)
            .await
            .into_iter()
            .find(|t| t["payload"]["serial"] == serial && t["status"] == status)
    })
    .await
}

/// The charging API's callback body for the card (`pin`, `serial`) of order `request_id`.
fn report(request_id: &str, pin: &str, serial: &str, status: i64, declared: i64, value: i64) -> Value {
    json!({
        "status": status, "message": "", "request_id": request_id, "declared_value": declared,
        "value": value, "amount": value * 8 / 10, "code": pin, "serial": serial, "telco": "VIETTEL",
        "trans_id": 54180, "callback_sign": charging::callback_sign(PARTNER_KEY, pin, serial),
    })
}

async fn callback(portal: &Portal, body: &Value) -> (StatusCode, Value) {
    post(portal, "card", &serde_json::to_vec(body).expect("json"), &[]).await
}

#[tokio::test]
async fn cards_are_credited_refused_or_corrected_as_the_aggregator_says() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "card_player").await;

    // Checked against the spec's table before anything is sent.
    let (status, answer) = send_card(&http, &portal, "viettel", 100_000, "123", "10000000000001").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(answer["errors"]["pin"], json!(["Mã thẻ phải có 15 ký tự."]));
    let (status, answer) =
        send_card(&http, &portal, "viettel", 15_000, "123456789011234", "1000000000").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer["errors"]["value"],
        json!(["Hãy chọn mệnh giá bạn muốn nạp."])
    );
    assert_eq!(answer["errors"]["serial"], json!(["Số seri phải có 14 ký tự."]));
    let (status, answer) = send_card(
        &http,
        &portal,
        "vietnamobile",
        100_000,
        "123456781234",
        "12345678901",
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer["errors"]["provider"],
        json!(["Thẻ Vietnamobile tạm thời chưa được hỗ trợ"])
    );
    let (status, answer) = send_card(&http, &portal, "", 0, "", "").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        answer["errors"]["provider"],
        json!(["Hãy chọn loại thẻ bạn muốn nạp."])
    );

    // A good card the simulator holds (PIN ending 0009): pending until its answer, released
    // below, so the same card sent again surely finds it waiting. Then credited at 100,000 × 85%.
    let good_card = async || {
        send_card(
            &http,
            &portal,
            "viettel",
            100_000,
            "123456789010009",
            "10000000000001",
        )
        .await
    };
    let (status, sent) = good_card().await;
    assert_eq!(status, StatusCode::ACCEPTED, "{sent}");
    assert_eq!(
        sent["message"],
        "Gửi thẻ thành công! Thẻ của bạn sẽ được xử lý trong 1-30 giây."
    );
    let good_order = sent["orderId"].as_str().expect("order").to_owned();
    let pending = card_row(&http, &portal, "10000000000001", "pending").await;
    assert_eq!(pending["type"], "topup.card");
    assert_eq!(pending["payload"]["provider"], "viettel");
    // The same card again while it waits is refused.
    let (status, again) = good_card().await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    assert_eq!(
        again["message"],
        "Thẻ này đang được xử lý, hãy chờ kết quả trước khi nạp lại."
    );
    let released = http
        .post(format!("{}/cards/{good_order}/correct", portal.stack.aggregator))
        .json(&json!({ "value": 100_000 }))
        .send()
        .await
        .expect("the simulator answers the card");
    assert_eq!(released.status(), StatusCode::NO_CONTENT);
    let credited = card_row(&http, &portal, "10000000000001", "success").await;
    assert_eq!(credited["realValue"], 100_000);
    balance_reaches(&http, &portal, 85_000).await;

    // Status 3 twice (no such card, a bad card): failed, INVALID, no KP.
    send_card(
        &http,
        &portal,
        "viettel",
        50_000,
        "123456789010001",
        "10000000000002",
    )
    .await;
    send_card(
        &http,
        &portal,
        "mobifone",
        20_000,
        "123456780002",
        "100000000000003",
    )
    .await;
    // Status 3 says a bad card, whatever its message.
    let not_found = card_row(&http, &portal, "10000000000002", "failed").await;
    assert_eq!(not_found["payload"]["errorCode"], "INVALID");
    let invalid = card_row(&http, &portal, "100000000000003", "failed").await;
    assert_eq!(invalid["payload"]["errorCode"], "INVALID");

    // Status 2: credited on the real value, half the declared one: 50,000 × 85%.
    send_card(
        &http,
        &portal,
        "viettel",
        100_000,
        "123456789010003",
        "10000000000004",
    )
    .await;
    let wrong = card_row(&http, &portal, "10000000000004", "success").await;
    assert_eq!(wrong["payload"]["errorCode"], "WRONG_AMOUNT");
    assert_eq!(wrong["realValue"], 50_000);
    balance_reaches(&http, &portal, 85_000 + 42_500).await;

    // The good card's callback again, and a late status 1 for the failed one: nothing moves.
    let good = ("123456789010009", "10000000000001");
    let repeat = report(&good_order, good.0, good.1, 1, 100_000, 100_000);
    let (status, answer) = callback(&portal, &repeat).await;
    assert_eq!(
        (status, answer["duplicate"].clone()),
        (StatusCode::OK, json!(true))
    );
    let failed_order: Uuid = {
        let payment = db::connect(&portal.settings.database, "payment")
            .await
            .expect("pool");
        sqlx::query_scalar("select id from card_order where serial = '10000000000002'")
            .fetch_one(&payment)
            .await
            .expect("order")
    };
    let late = report(
        &failed_order.to_string(),
        "123456789010001",
        "10000000000002",
        1,
        50_000,
        50_000,
    );
    let (status, answer) = callback(&portal, &late).await;
    assert_eq!(
        (status, answer["duplicate"].clone()),
        (StatusCode::OK, json!(true))
    );
    let unknown = report(&Uuid::new_v4().to_string(), "1", "2", 1, 10_000, 10_000);
    assert_eq!(callback(&portal, &unknown).await.0, StatusCode::NOT_FOUND);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(me(&http, &portal).await["credit"], 127_500);

    // Spend most of it, then the aggregator voids the good card: the 85,000 it credited is
    // recalled, what the balance lacks becomes debt, and the next top-up settles it first.
    let jwt = AttachInternalJwt::new(
        Arc::new(InternalJwt::new(&portal.settings.jwt).expect("keys")),
        kid_platform::auth::OPERATOR,
    );
    let mut wallet =
        WalletServiceClient::with_interceptor(grpc::lazy_channel(&portal.wallet).expect("channel"), jwt);
    wallet
        .debit(DebitRequest {
            idempotency_key: "spend-1".into(),
            user_id: player.to_string(),
            kp: 120_000,
            metadata: Some(CoinMetadata {
                coin: 1_200,
                coin_bonus: 0,
                product_code: "jxsj2".into(),
                product_name: "JX Sơn Hà".into(),
                coin_name: "Vàng".into(),
            }),
        })
        .await
        .expect("debit");
    balance_reaches(&http, &portal, 7_500).await;
    // A status 4 (maintenance) after the credit says nothing of the card: nothing is recalled.
    let maintenance = report(&good_order, good.0, good.1, 4, 100_000, 0);
    assert_eq!(callback(&portal, &maintenance).await.1["duplicate"], true);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(me(&http, &portal).await["credit"], 7_500);
    let void = report(&good_order, good.0, good.1, 3, 100_000, 0);
    let (status, answer) = callback(&portal, &void).await;
    assert_eq!(
        (status, answer["duplicate"].clone()),
        (StatusCode::OK, json!(false))
    );
    let me = me_once(&http, &portal, "debt 77,500", |me| me["debtCredit"] == 77_500).await;
    assert_eq!(me["credit"], 0);
    // The same correction again recalls nothing more.
    assert_eq!(callback(&portal, &void).await.1["duplicate"], true);

    let content = transfer_content(&http, &portal).await;
    notify(&portal, &vietcombank("after-debt", &content, 100_000)).await;
    let me = balance_reaches(&http, &portal, 22_500).await;
    assert_eq!(me["debtCredit"], 0);
    let history = history(&http, &portal).await;
    let settled = history[0]["relatedTransactions"]
        .as_array()
        .expect("related")
        .iter()
        .find(|related| related["type"] == "credit.recall")
        .expect("debt settled first")["realValue"]
        .clone();
    assert_eq!(settled, 77_500);
}

/// The card webhook believes only the partner's `callback_sign`, and only for one of our
/// cards: a forged or missing signature, or a signed callback for another card under our
/// order, moves nothing; the genuine one, sent as a form, settles the card.
#[tokio::test]
async fn forged_and_foreign_card_callbacks_move_nothing() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "card_forger").await;
    let (pin, serial) = ("123456789020009", "10000000000077");
    let (status, sent) = send_card(&http, &portal, "viettel", 100_000, pin, serial).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{sent}");
    let order = sent["orderId"].as_str().expect("order").to_owned();
    card_row(&http, &portal, serial, "pending").await;

    let mut forged = report(&order, pin, serial, 1, 100_000, 100_000);
    forged["callback_sign"] = json!(charging::callback_sign("a-guessed-key", pin, serial));
    assert_eq!(callback(&portal, &forged).await.0, StatusCode::UNAUTHORIZED);
    forged.as_object_mut().expect("object").remove("callback_sign");
    assert_eq!(callback(&portal, &forged).await.0, StatusCode::UNAUTHORIZED);
    // Someone with a real card of their own, signed, names our order.
    let foreign = report(&order, "999999999990000", "19999999999999", 1, 100_000, 100_000);
    assert_eq!(callback(&portal, &foreign).await.0, StatusCode::NOT_FOUND);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(me(&http, &portal).await["credit"], 0);
    card_row(&http, &portal, serial, "pending").await;

    let genuine = report(&order, pin, serial, 1, 100_000, 100_000);
    let form = serde_urlencoded::to_string(
        genuine
            .as_object()
            .expect("object")
            .iter()
            .map(|(name, value)| {
                (
                    name.clone(),
                    value.as_str().map_or_else(|| value.to_string(), str::to_owned),
                )
            })
            .collect::<Vec<_>>(),
    )
    .expect("form");
    let response = Client::new()
        .post(format!("{}/api/webhooks/card", portal.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .expect("callback");
    assert_eq!(response.status(), StatusCode::OK);
    card_row(&http, &portal, serial, "success").await;
    balance_reaches(&http, &portal, 85_000).await;
}

/// A card the aggregator settled but whose callback never came is asked about again with the
/// charging API's `check`, and credited once; its PIN, sealed while the order waited, is erased.
#[tokio::test]
async fn a_card_whose_callback_is_lost_is_credited_by_asking_again() {
    let portal = start(|settings| {
        settings.payment.check_after = Duration::from_millis(300);
        settings.payment.check_every = Duration::from_millis(200);
    })
    .await;
    let (http, _) = registered(&portal, "lost_callback").await;
    let (pin, serial) = ("123456789030008", "10000000000088");
    let (status, sent) = send_card(&http, &portal, "viettel", 100_000, pin, serial).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{sent}");
    let payment = db::connect(&portal.settings.database, "payment")
        .await
        .expect("pool");
    let sealed: Option<Vec<u8>> = sqlx::query_scalar("select sealed_pin from card_order where serial = $1")
        .bind(serial)
        .fetch_one(&payment)
        .await
        .expect("order");
    let sealed = sealed.expect("the PIN is sealed while the order waits");
    assert!(
        !sealed.windows(pin.len()).any(|window| window == pin.as_bytes()),
        "never in the clear"
    );

    card_row(&http, &portal, serial, "success").await;
    balance_reaches(&http, &portal, 85_000).await;
    let (sealed, checked): (Option<Vec<u8>>, bool) =
        sqlx::query_as("select sealed_pin, checked_at is not null from card_order where serial = $1")
            .bind(serial)
            .fetch_one(&payment)
            .await
            .expect("order");
    assert_eq!(
        (sealed, checked),
        (None, true),
        "erased once settled, after a check"
    );
    // Asked again and again, it credits once.
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(me(&http, &portal).await["credit"], 85_000);
}

/// The aggregator's price list is read beside Kid's own fees (its telco names as Kid's
/// brands), and a Kid fee below the aggregator's shows in the gauge the alert watches.
#[tokio::test]
async fn a_kid_fee_below_the_aggregators_shows_in_its_gauge() {
    let metrics = kid_platform::metrics::handle();
    let portal = start(|_| {}).await;
    let payment = db::connect(&portal.settings.database, "payment")
        .await
        .expect("pool");
    let fee = async |provider: &str| -> Option<String> {
        sqlx::query_scalar(
            "select fee_percent::text from aggregator_fee where provider = $1 and value = 100000",
        )
        .bind(provider)
        .fetch_optional(&payment)
        .await
        .expect("fee")
    };
    eventually("the price list read", async || fee("viettel").await).await;
    assert_eq!(
        fee("vietnamobile").await.as_deref(),
        Some("13.00"),
        "VNMOBI is Vietnamobile"
    );
    let gauge = r#"payment_card_fees_below_aggregator{schema="payment"}"#;
    eventually("the gauge at 0", async || {
        (metric(&metrics.render(), gauge) == Some(0.0)).then_some(())
    })
    .await;

    // Finance lowers Viettel's 100,000 card to 5%, under the aggregator's 12%.
    sqlx::query("update card_fee set fee_percent = 5 where provider = 'viettel' and value = 100000")
        .execute(&payment)
        .await
        .expect("fee");
    eventually("the gauge at 1", async || {
        (metric(&metrics.render(), gauge) == Some(1.0)).then_some(())
    })
    .await;
}
