//! The support console's money and player actions through the real gateway, services, Redis and
//! RabbitMQ: matching an unmatched transfer, resending and refunding coin orders, KP
//! adjustments under maker-checker, player look-up and locking. Each action is checked for its
//! role and re-authentication by the service itself; attack tests are named for the attack.

use kid_contracts::{
    identity::v1::{
        ReplyTicketRequest, SetAccountLockRequest, identity_service_client::IdentityServiceClient,
    },
    payment::v1::{MatchTransferRequest, payment_service_client::PaymentServiceClient},
    recharge::v1::{RefundOrderRequest, ResendOrderRequest, recharge_service_client::RechargeServiceClient},
    staff::v1::{RecordStaffActionRequest, staff_audit_service_client::StaffAuditServiceClient},
    wallet::v1::{AskAdjustmentRequest, DecideAdjustmentRequest, wallet_service_client::WalletServiceClient},
};
use kid_platform::auth::{self, InternalJwt, StaffActor, StaffRole};
use kid_testing::{
    eventually,
    portal::{
        PASSWORD, Portal, STAFF_PASSWORD, buy, client, database, fund, get_json, registered, seed_staff,
        send_json, staff, staff_send, staff_sign_in_at, staff_xsrf_token, start, status_and_json,
    },
};
use reqwest::{Client, Method, StatusCode, header};
use serde_json::{Value, json};

async fn console_portal() -> Portal {
    let portal = start(|_| {}).await;
    seed_staff(&portal).await;
    portal
}

/// A staff client and its session id (to age its re-authentication in Redis).
async fn staff_session(portal: &Portal, username: &str, steps: i64) -> (Client, String) {
    let http = client();
    let response = staff_sign_in_at(&http, portal, username, steps).await;
    assert_eq!(response.status(), StatusCode::OK);
    let id = response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|cookie| cookie.strip_prefix("kid_staff_session="))
        .and_then(|rest| rest.split(';').next())
        .expect("staff session cookie")
        .to_owned();
    (http, id)
}

/// Makes the session's last re-authentication ten minutes old.
async fn age_reauthentication(portal: &Portal, session_id: &str) {
    let redis = redis::Client::open("redis://127.0.0.1:6379").expect("redis");
    let mut redis = redis.get_multiplexed_async_connection().await.expect("redis");
    let key = format!("{}:staff-session:{session_id}", portal.settings.redis.key_prefix);
    let raw: String = redis::cmd("GET")
        .arg(&key)
        .query_async(&mut redis)
        .await
        .expect("session");
    let mut data: Value = serde_json::from_str(&raw).expect("json");
    data["reauthenticated_at"] = json!(time::OffsetDateTime::now_utc().unix_timestamp() - 600);
    let _: () = redis::cmd("SET")
        .arg(&key)
        .arg(data.to_string())
        .arg("KEEPTTL")
        .query_async(&mut redis)
        .await
        .expect("set");
}

async fn balance(http: &Client, portal: &Portal) -> i64 {
    let (status, me) = get_json(http, portal, "/me").await;
    assert_eq!(status, StatusCode::OK, "{me}");
    me["credit"].as_i64().expect("credit")
}

/// A signed SePay-shaped notification of `amount` VND into our Vietcombank account.
async fn bank_transfer(portal: &Portal, id: &str, content: &str, amount: i64) {
    bank_transfer_into(portal, id, content, amount, "1023456789").await;
}

/// The same into the Vietcombank account `account`.
async fn bank_transfer_into(portal: &Portal, id: &str, content: &str, amount: i64, account: &str) {
    let body = serde_json::to_vec(&json!({
        "id": id,
        "gateway": "Vietcombank",
        "transactionDate": "2026-11-28 09:00:00",
        "accountNumber": account,
        "code": null,
        "content": content,
        "transferType": "in",
        "transferAmount": amount,
        "referenceCode": format!("FT{id}"),
    }))
    .expect("json");
    let response = Client::new()
        .post(format!("{}/api/webhooks/bank-transfer", portal.base))
        .header("content-type", "application/json")
        .header("authorization", "Apikey dev-sepay-key")
        .body(body)
        .send()
        .await
        .expect("webhook");
    assert_eq!(response.status(), StatusCode::OK);
}

async fn unmatched(http: &Client, portal: &Portal) -> Vec<Value> {
    let (status, transfers) = get_json(http, portal, "/staff/transfers").await;
    assert_eq!(status, StatusCode::OK, "{transfers}");
    transfers.as_array().expect("transfers").clone()
}

/// The transfer of the listing the bank feed reported as `provider_id`.
fn listed_transfer<'a>(listed: &'a [Value], provider_id: &str) -> &'a Value {
    listed
        .iter()
        .find(|transfer| transfer["providerId"] == provider_id)
        .unwrap_or_else(|| panic!("{provider_id} is not listed: {listed:?}"))
}

/// A coin order's status in the recharge database.
async fn order_status(recharge: &sqlx::PgPool, order_id: uuid::Uuid) -> String {
    sqlx::query_scalar("select status from recharge_order where id = $1")
        .bind(order_id)
        .fetch_one(recharge)
        .await
        .expect("status")
}

async fn post(http: &Client, portal: &Portal, path: &str, body: Value) -> (StatusCode, Value) {
    status_and_json(staff_send(http, portal, Method::POST, path, &body).await).await
}

/// Buys 20,000 KP of coin on zone 97, where the reference game loses each order's first
/// delivery: the recharge database and the order, waiting for the game.
async fn lost_order(portal: &Portal, player: &Client, key: &str) -> (sqlx::PgPool, uuid::Uuid) {
    let order = json!({ "zoneId": 97, "creditAmount": 20_000, "productCode": "fsonline", "gReCaptchaToken": "dev-captcha" });
    let (status, placed) = buy(player, portal, "fsonline", key, &order).await;
    assert!(status.is_success(), "{status} {placed}");
    let recharge = database(portal, "recharge").await;
    let order_id = eventually("the order waits for the game", || async {
        sqlx::query_scalar("select id from recharge_order where status = 'awaiting_delivery'")
            .fetch_optional(&recharge)
            .await
            .expect("order")
    })
    .await;
    (recharge, order_id)
}

#[tokio::test]
async fn finance_matches_an_unmatched_transfer_once_and_the_player_sees_the_kp() {
    let portal = console_portal().await;
    let (player, _) = registered(&portal, "quenmanap").await;
    let (status, methods) = get_json(&player, &portal, "/payment/methods").await;
    assert_eq!(status, StatusCode::OK);
    let code = methods["bankTransfers"][0]["paymentSyntax"]
        .as_str()
        .expect("code")
        .to_owned();
    // The player typed their username instead of their code, then a code with one slip.
    bank_transfer(&portal, "SP-9001", "nap tien quenmanap", 50_000).await;
    let slipped = format!(
        "{}{}",
        &code[..code.len() - 1],
        if code.ends_with('Z') { 'Y' } else { 'Z' }
    );
    bank_transfer(&portal, "SP-9002", &format!("CK {slipped}"), 20_000).await;
    assert_eq!(balance(&player, &portal).await, 0, "nothing credited by itself");

    let viewer = staff(&portal, "staff-viewer").await;
    let listed = unmatched(&viewer, &portal).await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    let by_username = listed_transfer(&listed, "SP-9001");
    assert_eq!(by_username["reason"], "no player's transfer content");
    assert_eq!(by_username["kp"], 50_000);
    assert_eq!(by_username["suggestions"][0]["username"], "quenmanap");
    assert_eq!(by_username["suggestions"][0]["why"], "content_names_username");
    let slip = listed_transfer(&listed, "SP-9002");
    assert_eq!(slip["suggestions"][0]["username"], "quenmanap", "{slip}");
    assert_eq!(slip["suggestions"][0]["why"], "content_near_code");
    assert_eq!(slip["suggestions"][0]["code"], code);

    // A viewer and support may look, not match.
    let id = by_username["id"].as_str().expect("id").to_owned();
    let path = format!("/staff/transfers/{id}/match");
    for refused in [viewer.clone(), staff(&portal, "staff-support").await] {
        let (status, body) = post(&refused, &portal, &path, json!({ "player": "quenmanap" })).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
        assert!(
            body.get("code").is_none(),
            "a role refusal, not a re-authentication: {body}"
        );
    }

    let finance = staff(&portal, "staff-finance").await;
    let (status, body) = post(&finance, &portal, &path, json!({ "player": "nobody-here" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["errors"]["player"][0], "Không tìm thấy người chơi");
    let (status, matched) = post(&finance, &portal, &path, json!({ "player": "quenmanap" })).await;
    assert_eq!(status, StatusCode::OK, "{matched}");
    assert_eq!(matched["already"], false);
    assert_eq!(matched["transfer"]["status"], "credited");
    assert_eq!(matched["transfer"]["username"], "quenmanap");
    eventually("the player sees the KP", || async {
        (balance(&player, &portal).await == 50_000).then_some(())
    })
    .await;

    // Clicked again: nothing more. Matched to someone else: refused.
    let (status, again) = post(&finance, &portal, &path, json!({ "player": "quenmanap" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["already"], true);
    registered(&portal, "nguoikhac").await;
    let (status, other) = post(&finance, &portal, &path, json!({ "player": "nguoikhac" })).await;
    assert_eq!(status, StatusCode::CONFLICT, "{other}");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(balance(&player, &portal).await, 50_000, "credited once");
    let credited: i64 = sqlx::query_scalar(
        "select count(*) from ledger_transaction where idempotency_key = 'bank-feed:SP-9001'",
    )
    .fetch_one(&database(&portal, "wallet").await)
    .await
    .expect("count");
    assert_eq!(credited, 1);

    // It left the queue, is listed among those matched by hand, and is in the audit log.
    assert_eq!(unmatched(&finance, &portal).await.len(), 1);
    let (_, matched_list) = get_json(&finance, &portal, "/staff/transfers?matched=true").await;
    assert_eq!(matched_list[0]["providerId"], "SP-9001");
    let (_, log) = get_json(&finance, &portal, &format!("/staff/audit?subject=transfer:{id}")).await;
    assert_eq!(log.as_array().expect("rows").len(), 1, "{log}");
    assert_eq!(log[0]["action"], "transfer.match");
    assert_eq!(log[0]["staffUsername"], "staff-finance");
    assert_eq!(log[0]["service"], "payment");
    assert_eq!(log[0]["before"]["status"], "unmatched");
    assert_eq!(log[0]["after"]["kp"], 50_000);
}

#[tokio::test]
async fn a_staff_session_without_recent_reauthentication_cannot_move_money() {
    let portal = console_portal().await;
    let (player, user_id) = registered(&portal, "chuaxacthuc").await;
    bank_transfer(&portal, "SP-9100", "chuaxacthuc chuyen tien", 10_000).await;
    let (finance, session) = staff_session(&portal, "staff-finance", 0).await;
    age_reauthentication(&portal, &session).await;
    let (_, me) = get_json(&finance, &portal, "/staff/me").await;
    assert!(me["reauthenticatedUntil"].is_null(), "{me}");

    let transfer = unmatched(&finance, &portal).await[0]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let tries = [
        (
            format!("/staff/transfers/{transfer}/match"),
            json!({ "player": "chuaxacthuc" }),
        ),
        (
            "/staff/adjustments".to_owned(),
            json!({ "userId": user_id, "kp": 1_000, "reason": "goodwill" }),
        ),
    ];
    for (path, body) in &tries {
        let (status, answer) = post(&finance, &portal, path, body.clone()).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {answer}");
        assert_eq!(answer["code"], "reauth_required", "{path}: {answer}");
    }
    assert_eq!(balance(&player, &portal).await, 0);

    // The service itself refuses a stale re-authentication, whatever the gateway says.
    let stale = StaffActor {
        id: uuid::Uuid::now_v7(),
        username: "staff-finance".into(),
        role: StaffRole::Finance,
        reauthenticated_at: time::OffsetDateTime::now_utc().unix_timestamp() - 600,
        ip: "127.0.0.1".into(),
    };
    let refused = PaymentServiceClient::new(channel(&portal, "payment").await)
        .match_transfer(acting_as(
            &portal,
            stale,
            MatchTransferRequest {
                transfer_id: transfer.clone(),
                user_id: user_id.to_string(),
            },
        ))
        .await
        .expect_err("refused");
    assert_eq!(refused.code(), tonic::Code::PermissionDenied);

    // With the password again, it goes through.
    let (status, _) = post(
        &finance,
        &portal,
        "/staff/auth/reauthenticate",
        json!({ "secret": STAFF_PASSWORD }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (path, body) = &tries[0];
    let (status, answer) = post(&finance, &portal, path, body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

#[tokio::test]
async fn finance_matching_a_transfer_paid_into_an_account_not_ours_is_refused() {
    let portal = console_portal().await;
    let (player, _) = registered(&portal, "khongcuaminh").await;
    // Someone else's account at the same bank, as the feed may report it.
    bank_transfer_into(&portal, "SP-9101", "nap tien khongcuaminh", 50_000, "9999999999").await;
    let finance = staff(&portal, "staff-finance").await;
    let listed = unmatched(&finance, &portal).await;
    let transfer = listed_transfer(&listed, "SP-9101");
    assert_eq!(transfer["reason"], "not one of our accounts");
    let path = format!("/staff/transfers/{}/match", transfer["id"].as_str().expect("id"));
    let (status, refused) = post(&finance, &portal, &path, json!({ "player": "khongcuaminh" })).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(
        refused["message"],
        "Giao dịch này không chuyển vào tài khoản nào của Kid nên không thể ghi có cho người chơi"
    );
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(balance(&player, &portal).await, 0);
}

#[tokio::test]
async fn one_finance_member_matching_a_large_transfer_alone_waits_for_a_second() {
    let portal = console_portal().await;
    let (player, _) = registered(&portal, "chuyenlon").await;
    registered(&portal, "nguoithuba").await;
    bank_transfer(&portal, "SP-9201", "nap tien chuyenlon", 300_000).await;
    bank_transfer(&portal, "SP-9202", "nap tien chuyenlon lan 2", 150_000).await;
    bank_transfer(&portal, "SP-9203", "nap tien chuyenlon lan 3", 100_000).await;
    let finance = staff(&portal, "staff-finance").await;
    let listed = unmatched(&finance, &portal).await;
    let path_of = |provider: &str| {
        let transfer = listed_transfer(&listed, provider);
        format!("/staff/transfers/{}/match", transfer["id"].as_str().expect("id"))
    };
    let (large, second, third) = (path_of("SP-9201"), path_of("SP-9202"), path_of("SP-9203"));
    let to = |player: &str| json!({ "player": player });

    // 300,000 KP by one member: only asked for; asked again, the same ask.
    let (status, asked) = post(&finance, &portal, &large, to("chuyenlon")).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    assert_eq!(asked["pending"], true);
    assert_eq!(asked["transfer"]["status"], "unmatched");
    assert_eq!(asked["transfer"]["pendingMatch"]["username"], "chuyenlon");
    assert_eq!(
        asked["transfer"]["pendingMatch"]["askedByUsername"],
        "staff-finance"
    );
    let (_, again) = post(&finance, &portal, &large, to("chuyenlon")).await;
    assert_eq!(
        (again["pending"].clone(), again["already"].clone()),
        (json!(true), json!(true))
    );
    // A second member cannot turn the ask to another player; for the same one, it credits.
    let checker = staff(&portal, "staff-finance2").await;
    let (status, other) = post(&checker, &portal, &large, to("nguoithuba")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{other}");
    assert_eq!(balance(&player, &portal).await, 0, "nothing credited while asked");
    let (status, approved) = post(&checker, &portal, &large, to("chuyenlon")).await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    assert_eq!(approved["pending"], false);
    assert_eq!(approved["transfer"]["status"], "credited");
    eventually("the player sees the KP", || async {
        (balance(&player, &portal).await == 300_000).then_some(())
    })
    .await;

    // Split in two under the threshold by one member: the second piece waits too.
    let (_, first_piece) = post(&finance, &portal, &second, to("chuyenlon")).await;
    assert_eq!(first_piece["pending"], false, "{first_piece}");
    let (_, second_piece) = post(&finance, &portal, &third, to("chuyenlon")).await;
    assert_eq!(second_piece["pending"], true, "{second_piece}");
    eventually("the first piece is credited", || async {
        (balance(&player, &portal).await == 450_000).then_some(())
    })
    .await;
    assert_eq!(
        audit_actions(
            &checker,
            &portal,
            &format!("transfer:{}", large.split('/').nth(3).expect("id"))
        )
        .await,
        ["transfer.match_approve", "transfer.match_request"]
    );
}

#[tokio::test]
async fn approving_ones_own_adjustment_is_refused_and_a_second_finance_member_applies_it() {
    let portal = console_portal().await;
    let (player, user_id) = registered(&portal, "duocbuhoan").await;
    let finance = staff(&portal, "staff-finance").await;
    let ask = |kp: i64, reason: &str| json!({ "userId": user_id, "kp": kp, "reason": reason });

    // Within the threshold: applied at once.
    let (status, small) = post(
        &finance,
        &portal,
        "/staff/adjustments",
        ask(50_000, "Bồi hoàn sự cố nạp"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{small}");
    assert_eq!(small["adjustment"]["status"], "applied");
    assert_eq!(small["approvalThresholdKp"], 200_000);
    assert_eq!(balance(&player, &portal).await, 50_000);

    // Above it: pending, and its asker cannot approve it, even straight at the API.
    let (status, large) = post(
        &finance,
        &portal,
        "/staff/adjustments",
        ask(300_000, "Bồi hoàn giải đấu"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(large["adjustment"]["status"], "pending");
    let id = large["adjustment"]["id"].as_str().expect("id").to_owned();
    let approve = format!("/staff/adjustments/{id}/approve");
    let (status, own) = post(&finance, &portal, &approve, json!({})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{own}");
    assert_eq!(
        own["message"],
        "Không thể tự duyệt điều chỉnh KP do chính mình tạo; cần một nhân viên tài chính khác"
    );
    let support = staff(&portal, "staff-support").await;
    assert_eq!(
        post(&support, &portal, &approve, json!({})).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        balance(&player, &portal).await,
        50_000,
        "nothing moved while pending"
    );

    let checker = staff(&portal, "staff-finance2").await;
    let (_, pending) = get_json(&checker, &portal, "/staff/adjustments?status=pending").await;
    assert_eq!(pending["adjustments"][0]["id"], id.as_str());
    let (status, approved) = post(&checker, &portal, &approve, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{approved}");
    assert_eq!(approved["adjustment"]["status"], "applied");
    assert_eq!(approved["adjustment"]["decidedByUsername"], "staff-finance2");
    assert_eq!(balance(&player, &portal).await, 350_000);
    // Approved again: nothing moves again.
    assert_eq!(
        post(&checker, &portal, &approve, json!({})).await.0,
        StatusCode::OK
    );
    assert_eq!(balance(&player, &portal).await, 350_000);

    // A clawback beyond the balance, an empty reason, no KP: refused on their fields.
    for (body, field) in [
        (ask(-100_000_000, "Thu hồi"), "kp"),
        (ask(-1_000, "  "), "reason"),
        (ask(0, "Không có gì"), "kp"),
    ] {
        let (status, answer) = post(&checker, &portal, "/staff/adjustments", body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
        assert!(answer["errors"][field][0].is_string(), "{answer}");
    }
    let (status, clawback) = post(
        &checker,
        &portal,
        "/staff/adjustments",
        ask(-30_000, "Thu hồi quà trùng"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(clawback["adjustment"]["status"], "applied");
    assert_eq!(balance(&player, &portal).await, 320_000);

    // The player's history shows each applied adjustment, with the reason.
    let (_, history) = get_json(&player, &portal, "/transactions?type=adjustment").await;
    let reasons: Vec<&str> = history["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|item| item["payload"]["reason"].as_str())
        .collect();
    assert_eq!(
        reasons,
        ["Thu hồi quà trùng", "Bồi hoàn giải đấu", "Bồi hoàn sự cố nạp"]
    );
    // And the audit log the request, the refusal-free approval and each application.
    assert_eq!(
        audit_actions(&checker, &portal, &format!("adjustment:{id}")).await,
        ["adjustment.approve", "adjustment.request"]
    );
}

/// The audit log's actions on `subject`, newest first.
async fn audit_actions(http: &Client, portal: &Portal, subject: &str) -> Vec<String> {
    let (status, log) = get_json(http, portal, &format!("/staff/audit?subject={subject}")).await;
    assert_eq!(status, StatusCode::OK, "{log}");
    log.as_array()
        .expect("rows")
        .iter()
        .filter_map(|row| row["action"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn an_asker_withdraws_their_own_pending_adjustment_and_no_one_can_apply_it_after() {
    let portal = console_portal().await;
    let (player, user_id) = registered(&portal, "rutlaiyeucau").await;
    let finance = staff(&portal, "staff-finance").await;
    let ask = json!({ "userId": user_id, "kp": 300_000, "reason": "Bồi hoàn nhầm người" });
    let (status, pending) = post(&finance, &portal, "/staff/adjustments", ask).await;
    assert_eq!(status, StatusCode::CREATED, "{pending}");
    assert_eq!(pending["adjustment"]["status"], "pending");
    let id = pending["adjustment"]["id"].as_str().expect("id").to_owned();

    // The asker sees their mistake and takes it back: a withdrawal, not a server error.
    let (status, withdrawn) = post(
        &finance,
        &portal,
        &format!("/staff/adjustments/{id}/reject"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{withdrawn}");
    assert_eq!(withdrawn["adjustment"]["status"], "rejected");
    assert_eq!(withdrawn["adjustment"]["decidedByUsername"], "staff-finance");

    // A second member cannot apply what was withdrawn, and nothing moved.
    let checker = staff(&portal, "staff-finance2").await;
    let (status, late) = post(
        &checker,
        &portal,
        &format!("/staff/adjustments/{id}/approve"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{late}");
    assert_eq!(balance(&player, &portal).await, 0);
    assert_eq!(
        audit_actions(&checker, &portal, &format!("adjustment:{id}")).await,
        ["adjustment.withdraw", "adjustment.request"]
    );
}

#[tokio::test]
async fn one_finance_member_splitting_a_large_adjustment_into_small_ones_needs_a_second_member() {
    let portal = console_portal().await;
    let (a, a_id) = registered(&portal, "chianho_a").await;
    let (b, b_id) = registered(&portal, "chianho_b").await;
    let (c, c_id) = registered(&portal, "chianho_c").await;
    let finance = staff(&portal, "staff-finance").await;
    let checker = staff(&portal, "staff-finance2").await;
    let ask = |user_id: uuid::Uuid, kp: i64| json!({ "userId": user_id, "kp": kp, "reason": "Bồi hoàn" });
    let status_of = async |http: &Client, body: Value| {
        let (status, answer) = post(http, &portal, "/staff/adjustments", body).await;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        answer["adjustment"]["status"]
            .as_str()
            .expect("status")
            .to_owned()
    };

    // Under the threshold alone: applied. The next piece would take the asker (and the player)
    // past 200,000 KP within 24 hours: it waits for a second member, to this player or another.
    assert_eq!(status_of(&finance, ask(a_id, 150_000)).await, "applied");
    assert_eq!(status_of(&finance, ask(a_id, 100_000)).await, "pending");
    assert_eq!(status_of(&finance, ask(b_id, 100_000)).await, "pending");
    // Another member adding to the same player is counted on the player too; a clawback counts
    // as much as a credit.
    assert_eq!(status_of(&checker, ask(a_id, 60_000)).await, "pending");
    assert_eq!(status_of(&checker, ask(a_id, -60_000)).await, "pending");

    // Two pieces asked at once by one member: the asker's lock lets one through, not both.
    let (to_b, to_c) = tokio::join!(
        status_of(&checker, ask(b_id, 120_000)),
        status_of(&checker, ask(c_id, 120_000)),
    );
    let mut decided = [to_b, to_c];
    decided.sort();
    assert_eq!(decided, ["applied", "pending"]);
    assert_eq!(balance(&a, &portal).await, 150_000);
    assert_eq!(balance(&b, &portal).await + balance(&c, &portal).await, 120_000);
}

/// Asks for an adjustment with `key` as its Idempotency-Key.
async fn ask_with_key(http: &Client, portal: &Portal, key: &str, body: &Value) -> (StatusCode, Value) {
    let token = staff_xsrf_token(http, &portal.base).await;
    let response = http
        .post(format!("{}/api/staff/adjustments", portal.base))
        .header("X-XSRF-TOKEN", token)
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
        .expect("ask");
    status_and_json(response).await
}

#[tokio::test]
async fn a_double_submitted_adjustment_moves_the_kp_once() {
    let portal = console_portal().await;
    let (player, user_id) = registered(&portal, "baolanbam").await;
    let finance = staff(&portal, "staff-finance").await;
    let body = json!({ "userId": user_id, "kp": 40_000, "reason": "Bồi hoàn sự cố" });

    // The same ask sent twice at once (a double click, a retry after a timeout): one adjustment.
    let (first, second) = tokio::join!(
        ask_with_key(&finance, &portal, "ask-1", &body),
        ask_with_key(&finance, &portal, "ask-1", &body),
    );
    assert_eq!(first.0, StatusCode::CREATED, "{}", first.1);
    assert_eq!(second.0, StatusCode::CREATED, "{}", second.1);
    assert_eq!(first.1["adjustment"]["id"], second.1["adjustment"]["id"]);
    assert_eq!(first.1["adjustment"]["status"], "applied");
    assert_eq!(balance(&player, &portal).await, 40_000);
    let (_, listed) = get_json(&finance, &portal, "/staff/adjustments").await;
    assert_eq!(
        listed["adjustments"].as_array().expect("rows").len(),
        1,
        "{listed}"
    );

    // The key again for another amount is a conflict, and moves nothing.
    let other = json!({ "userId": user_id, "kp": 90_000, "reason": "Bồi hoàn sự cố" });
    let (status, refused) = ask_with_key(&finance, &portal, "ask-1", &other).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(
        refused["message"],
        "Yêu cầu điều chỉnh này đã được gửi trước đó với nội dung khác"
    );
    // Another member's key is theirs: the same string asks anew.
    let checker = staff(&portal, "staff-finance2").await;
    let (status, theirs) = ask_with_key(&checker, &portal, "ask-1", &body).await;
    assert_eq!(status, StatusCode::CREATED, "{theirs}");
    assert_ne!(theirs["adjustment"]["id"], first.1["adjustment"]["id"]);
    assert_eq!(balance(&player, &portal).await, 80_000);
    // A key with a space is refused before anything.
    let (status, _) = ask_with_key(&finance, &portal, "hai tu", &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(balance(&player, &portal).await, 80_000);
}

#[tokio::test]
async fn support_resends_a_lost_coin_order_and_the_game_delivers_it_once() {
    let portal = console_portal().await;
    let (player, user_id) = registered(&portal, "mattxu").await;
    fund(&portal, user_id, 100_000).await;
    // Zone 97: the reference game loses the first delivery of each order.
    let (recharge, order_id) = lost_order(&portal, &player, "lost-order-1").await;
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    let status = order_status(&recharge, order_id).await;
    assert_eq!(status, "awaiting_delivery", "the game lost it");

    // The player's page shows it; a viewer cannot resend it, support can.
    let support = staff(&portal, "staff-support").await;
    let (_, page) = get_json(&support, &portal, &format!("/staff/players/{user_id}")).await;
    assert_eq!(page["orders"][0]["id"], order_id.to_string(), "{page}");
    assert_eq!(page["orders"][0]["status"], "awaiting_delivery");
    let resend = format!("/staff/orders/{order_id}/resend");
    let viewer = staff(&portal, "staff-viewer").await;
    assert_eq!(
        post(&viewer, &portal, &resend, json!({})).await.0,
        StatusCode::FORBIDDEN
    );
    let (status, resent) = post(&support, &portal, &resend, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{resent}");
    let first_message: uuid::Uuid = sqlx::query_scalar(
        "select id from outbox_message where routing_key = 'recharge.order.fsonline' and payload->>'orderId' = $1",
    )
    .bind(order_id.to_string())
    .fetch_one(&recharge)
    .await
    .expect("message");
    assert_eq!(
        resent["messageId"],
        first_message.to_string(),
        "the same message id"
    );
    eventually("the game delivers it", || async {
        let status = order_status(&recharge, order_id).await;
        (status == "delivered").then_some(())
    })
    .await;
    // Delivered: no second resend, no refund.
    assert_eq!(
        post(&support, &portal, &resend, json!({})).await.0,
        StatusCode::CONFLICT
    );
    let finance = staff(&portal, "staff-finance").await;
    let refund = format!("/staff/orders/{order_id}/refund");
    let (status, body) = post(&finance, &portal, &refund, json!({ "reason": "x" })).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let answers: i64 = sqlx::query_scalar("select count(*) from game_result where order_id = $1")
        .bind(order_id)
        .fetch_one(&recharge)
        .await
        .expect("answers");
    assert_eq!(answers, 1, "the game answered once");
    assert_eq!(balance(&player, &portal).await, 80_000);
}

#[tokio::test]
async fn finance_refunding_an_order_its_game_may_still_deliver_is_refused() {
    let portal = console_portal().await;
    let (player, user_id) = registered(&portal, "hoansom").await;
    fund(&portal, user_id, 100_000).await;
    let (recharge, order_id) = lost_order(&portal, &player, "lost-order-3").await;
    let finance = staff(&portal, "staff-finance").await;
    let (status, refused) = post(
        &finance,
        &portal,
        &format!("/staff/orders/{order_id}/refund"),
        json!({ "reason": "Người chơi báo chưa nhận xu" }),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(
        refused["message"],
        "Game vẫn có thể giao đơn này cho đến hạn giao; chỉ hoàn KP khi game báo thất bại hoặc đơn đã quá hạn giao"
    );
    // The order still waits for the game, and the player has not had the KP back beside it.
    let status = order_status(&recharge, order_id).await;
    assert_eq!(status, "awaiting_delivery");
    assert_eq!(balance(&player, &portal).await, 80_000);
}

#[tokio::test]
async fn finance_refunds_a_lost_coin_order_once() {
    // The sweeper slowed down, so the refund past deliverBy below is finance's, not the sweeper's.
    let portal =
        start(|settings| settings.recharge.sweep_interval = std::time::Duration::from_secs(3600)).await;
    seed_staff(&portal).await;
    let (player, user_id) = registered(&portal, "hoanxu").await;
    fund(&portal, user_id, 100_000).await;
    let (recharge, order_id) = lost_order(&portal, &player, "lost-order-2").await;
    assert_eq!(balance(&player, &portal).await, 80_000);
    // The game has let its deliverBy pass without an answer.
    sqlx::query("update recharge_order set deliver_by = now() - interval '1 second' where id = $1")
        .bind(order_id)
        .execute(&recharge)
        .await
        .expect("deliverBy in the past");
    let refund = format!("/staff/orders/{order_id}/refund");
    let support = staff(&portal, "staff-support").await;
    assert_eq!(
        post(&support, &portal, &refund, json!({ "reason": "mất đơn" }))
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    let finance = staff(&portal, "staff-finance").await;
    let (status, body) = post(&finance, &portal, &refund, json!({ "reason": "" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, refunded) = post(
        &finance,
        &portal,
        &refund,
        json!({ "reason": "Game xác nhận mất đơn" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{refunded}");
    assert_eq!(refunded["already"], false);
    assert_eq!(refunded["order"]["status"], "failed");
    eventually("the KP come back", || async {
        (balance(&player, &portal).await == 100_000).then_some(())
    })
    .await;
    let (status, again) = post(&finance, &portal, &refund, json!({ "reason": "lần nữa" })).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["already"], true);
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert_eq!(balance(&player, &portal).await, 100_000, "refunded once");
}

#[tokio::test]
async fn support_finds_a_player_every_way_and_locks_a_stolen_account() {
    let portal = console_portal().await;
    let (player, user_id) = registered(&portal, "bimatcap").await;
    fund(&portal, user_id, 5_000).await;
    let (_, methods) = get_json(&player, &portal, "/payment/methods").await;
    let code = methods["bankTransfers"][0]["paymentSyntax"]
        .as_str()
        .expect("code")
        .to_owned();
    let (_, history) = get_json(&player, &portal, "/transactions").await;
    let transaction = history["items"][0]["id"]
        .as_str()
        .expect("transaction")
        .to_owned();

    let support = staff(&portal, "staff-support").await;
    for query in [
        "bimatcap",
        "bimat",
        "bimatcap@example.com",
        &format!("ck {code} nap"),
        &transaction,
    ] {
        let (status, found) = get_json(
            &support,
            &portal,
            &format!("/staff/players?q={}", urlencode(query)),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{found}");
        assert_eq!(found[0]["username"], "bimatcap", "{query}: {found}");
    }
    let (_, page) = get_json(&support, &portal, &format!("/staff/players/{user_id}")).await;
    assert_eq!(page["wallet"]["credit"], 5_000);
    assert_eq!(page["sessions"].as_array().expect("sessions").len(), 1);
    assert_eq!(page["signIns"][0]["method"], "password");
    assert_eq!(page["ledger"][0]["id"], transaction.as_str());
    assert!(page["ledgerNextCursor"].is_null(), "{page}");
    assert_eq!(page["tickets"], json!([]));
    // The whole ledger, a page at a time.
    fund(&portal, user_id, 7_000).await;
    let ledger = format!("/staff/players/{user_id}/ledger");
    let (status, first) = get_json(&support, &portal, &format!("{ledger}?limit=1")).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["items"].as_array().expect("items").len(), 1);
    let cursor = first["nextCursor"].as_str().expect("a next page");
    let (_, second) = get_json(&support, &portal, &format!("{ledger}?limit=1&cursor={cursor}")).await;
    assert_eq!(second["items"][0]["id"], transaction.as_str(), "{second}");
    assert!(second["nextCursor"].is_null());
    let (status, _) = get_json(
        &support,
        &portal,
        &format!("/staff/players/{}/ledger", uuid::Uuid::new_v4()),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // A viewer cannot lock; support locks: the session ends, the password no longer signs in.
    let lock = format!("/staff/players/{user_id}/lock");
    let viewer = staff(&portal, "staff-viewer").await;
    assert_eq!(
        post(&viewer, &portal, &lock, json!({ "reason": "x" })).await.0,
        StatusCode::FORBIDDEN
    );
    let (status, locked) = post(&support, &portal, &lock, json!({ "reason": "Bị đánh cắp" })).await;
    assert_eq!(status, StatusCode::OK, "{locked}");
    assert!(locked["lockedAt"].is_string());
    assert_eq!(
        get_json(&player, &portal, "/me").await.0,
        StatusCode::UNAUTHORIZED
    );
    let body = json!({ "username": "bimatcap", "password": PASSWORD, "remember": false });
    let (status, refused) =
        status_and_json(send_json(&client(), &portal, Method::POST, "/auth/login", &body).await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        refused["errors"]["username"][0],
        "Tài khoản này đang tạm khóa để bảo vệ bạn. Vui lòng liên hệ bộ phận hỗ trợ để mở khóa."
    );
    let (status, _) = post(
        &support,
        &portal,
        &format!("/staff/players/{user_id}/unlock"),
        json!({}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) =
        status_and_json(send_json(&client(), &portal, Method::POST, "/auth/login", &body).await).await;
    assert_eq!(status, StatusCode::OK);
    let (_, log) = get_json(
        &support,
        &portal,
        &format!("/staff/audit?subject=player:{user_id}"),
    )
    .await;
    let actions: Vec<&str> = log
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|row| row["action"].as_str())
        .collect();
    assert_eq!(actions, ["player.unlock", "player.lock"], "{log}");

    // Ending every session is support's, recorded, and takes effect at once.
    let revoke = format!("/staff/players/{user_id}/sessions/revoke");
    assert_eq!(
        post(&viewer, &portal, &revoke, json!({})).await.0,
        StatusCode::FORBIDDEN
    );
    let (signed_in, _) = (client(), ());
    let response = send_json(&signed_in, &portal, Method::POST, "/auth/login", &body).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        post(&support, &portal, &revoke, json!({})).await.0,
        StatusCode::OK
    );
    assert_eq!(
        get_json(&signed_in, &portal, "/me").await.0,
        StatusCode::UNAUTHORIZED
    );
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// A service's gRPC channel in `portal`.
async fn channel(portal: &Portal, service: &str) -> tonic::transport::Channel {
    let address = portal
        .stack
        .services
        .iter()
        .find(|(name, _)| *name == service)
        .map(|(_, address)| format!("http://{address}"))
        .expect("the service runs");
    tonic::transport::Endpoint::from_shared(address)
        .expect("address")
        .connect()
        .await
        .expect("connect")
}

/// `message` as the gateway would send it for `actor`.
fn acting_as<T>(portal: &Portal, actor: StaffActor, message: T) -> tonic::Request<T> {
    let token = InternalJwt::new(&portal.settings.jwt)
        .expect("keys")
        .mint_acting(auth::GATEWAY, Some(actor))
        .expect("mint");
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().expect("ascii"));
    request
}

/// `message` as the gateway would send it for a viewer who re-authenticated a moment ago.
fn as_viewer<T>(portal: &Portal, message: T) -> tonic::Request<T> {
    let viewer = StaffActor {
        id: uuid::Uuid::now_v7(),
        username: "staff-viewer".into(),
        role: StaffRole::Viewer,
        reauthenticated_at: time::OffsetDateTime::now_utc().unix_timestamp(),
        ip: "127.0.0.1".into(),
    };
    acting_as(portal, viewer, message)
}

#[tokio::test]
async fn a_viewer_calling_each_action_straight_at_the_services_is_refused() {
    let portal = console_portal().await;
    let (player, user_id) = registered(&portal, "khongdoi").await;
    fund(&portal, user_id, 100_000).await;
    // A lost coin order (zone 97) and an unmatched transfer: real subjects for each action.
    let (recharge, order_id) = lost_order(&portal, &player, "viewer-order-1").await;
    bank_transfer(&portal, "7001", "chuyen tien khongdoi", 50_000).await;
    let finance = staff(&portal, "staff-finance").await;
    let transfer = unmatched(&finance, &portal).await[0]["id"]
        .as_str()
        .expect("transfer")
        .to_owned();
    let (status, pending) = post(
        &finance,
        &portal,
        "/staff/adjustments",
        json!({ "userId": user_id, "kp": 300_000, "reason": "Chờ duyệt" }),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{pending}");
    let adjustment = pending["adjustment"]["id"].as_str().expect("id").to_owned();

    // Past the gateway, each service checks the role itself.
    let (identity, wallet, payment, recharge_service) = (
        channel(&portal, "identity").await,
        channel(&portal, "wallet").await,
        channel(&portal, "payment").await,
        channel(&portal, "recharge").await,
    );
    let user = user_id.to_string();
    let refusals: Vec<(&str, tonic::Status)> = vec![
        (
            "MatchTransfer",
            PaymentServiceClient::new(payment.clone())
                .match_transfer(as_viewer(
                    &portal,
                    MatchTransferRequest {
                        transfer_id: transfer.clone(),
                        user_id: user.clone(),
                    },
                ))
                .await
                .expect_err("refused"),
        ),
        (
            "ResendOrder",
            RechargeServiceClient::new(recharge_service.clone())
                .resend_order(as_viewer(
                    &portal,
                    ResendOrderRequest {
                        order_id: order_id.to_string(),
                    },
                ))
                .await
                .expect_err("refused"),
        ),
        (
            "RefundOrder",
            RechargeServiceClient::new(recharge_service)
                .refund_order(as_viewer(
                    &portal,
                    RefundOrderRequest {
                        order_id: order_id.to_string(),
                        reason: "x".into(),
                    },
                ))
                .await
                .expect_err("refused"),
        ),
        (
            "AskAdjustment",
            WalletServiceClient::new(wallet.clone())
                .ask_adjustment(as_viewer(
                    &portal,
                    AskAdjustmentRequest {
                        user_id: user.clone(),
                        kp: 1_000,
                        reason: "x".into(),
                        idempotency_key: "viewer-ask".into(),
                    },
                ))
                .await
                .expect_err("refused"),
        ),
        (
            "ApproveAdjustment",
            WalletServiceClient::new(wallet.clone())
                .approve_adjustment(as_viewer(
                    &portal,
                    DecideAdjustmentRequest {
                        adjustment_id: adjustment.clone(),
                    },
                ))
                .await
                .expect_err("refused"),
        ),
        (
            "RejectAdjustment",
            WalletServiceClient::new(wallet)
                .reject_adjustment(as_viewer(
                    &portal,
                    DecideAdjustmentRequest {
                        adjustment_id: adjustment.clone(),
                    },
                ))
                .await
                .expect_err("refused"),
        ),
        (
            "SetAccountLock",
            IdentityServiceClient::new(identity.clone())
                .set_account_lock(as_viewer(
                    &portal,
                    SetAccountLockRequest {
                        user_id: user.clone(),
                        reason: "x".into(),
                    },
                ))
                .await
                .expect_err("refused"),
        ),
        (
            "ReplyTicket",
            IdentityServiceClient::new(identity.clone())
                .reply_ticket(as_viewer(
                    &portal,
                    ReplyTicketRequest {
                        ticket_id: uuid::Uuid::now_v7().to_string(),
                        body: "x".into(),
                        close: true,
                    },
                ))
                .await
                .expect_err("refused"),
        ),
        (
            "RecordStaffAction (ending a player's sessions)",
            StaffAuditServiceClient::new(identity)
                .record_staff_action(as_viewer(
                    &portal,
                    RecordStaffActionRequest {
                        action: "player.sessions_revoke".into(),
                        subject: format!("player:{user}"),
                        before_json: "{}".into(),
                        after_json: "{}".into(),
                    },
                ))
                .await
                .expect_err("refused"),
        ),
    ];
    for (method, refused) in &refusals {
        assert_eq!(
            refused.code(),
            tonic::Code::PermissionDenied,
            "{method}: {refused:?}"
        );
    }

    // Nothing moved: the order still waits, the transfer is unmatched, the adjustment pending,
    // the account open, the balance what the order left.
    let status = order_status(&recharge, order_id).await;
    assert_eq!(status, "awaiting_delivery");
    assert_eq!(unmatched(&finance, &portal).await[0]["id"], transfer.as_str());
    let (_, page) = get_json(&finance, &portal, &format!("/staff/players/{user_id}")).await;
    assert!(page["player"]["lockedAt"].is_null(), "{page}");
    assert_eq!(page["adjustments"][0]["status"], "pending");
    assert_eq!(page["adjustments"].as_array().expect("rows").len(), 1);
    assert_eq!(balance(&player, &portal).await, 80_000);
}

#[tokio::test]
async fn the_audit_log_pages_through_the_actions_of_one_instant_without_skipping_any() {
    let portal = console_portal().await;
    let (_, user_id) = registered(&portal, "nhatky").await;
    let finance = staff(&portal, "staff-finance").await;
    // Within the threshold, an ask is recorded twice in one transaction: the same instant.
    for kp in [1_000, 2_000, 3_000] {
        let (status, body) = post(
            &finance,
            &portal,
            "/staff/adjustments",
            json!({ "userId": user_id, "kp": kp, "reason": "Bồi hoàn" }),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (_, whole) = get_json(&finance, &portal, "/staff/audit?limit=200").await;
    let whole: Vec<String> = whole
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| row["id"].as_str().expect("id").to_owned())
        .collect();
    assert!(whole.len() >= 6, "{whole:?}");

    // A row a page, each page after the last row's time and id.
    let mut walked = Vec::new();
    let mut after: Option<(String, String)> = None;
    loop {
        let path = match &after {
            None => "/staff/audit?limit=1".to_owned(),
            Some((at, id)) => format!("/staff/audit?limit=1&before={}&beforeId={id}", urlencode(at)),
        };
        let (status, page) = get_json(&finance, &portal, &path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let Some(row) = page.as_array().expect("rows").first() else {
            break;
        };
        let id = row["id"].as_str().expect("id").to_owned();
        after = Some((row["occurredAt"].as_str().expect("at").to_owned(), id.clone()));
        walked.push(id);
        assert!(walked.len() <= whole.len(), "no row comes twice");
    }
    assert_eq!(walked, whole);
    let (status, _) = get_json(
        &finance,
        &portal,
        "/staff/audit?before=2026-11-28T00:00:00Z&beforeId=x",
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// An admin's console left open (re-authenticated more than five minutes ago) is someone else's
/// way to make a finance member or promote one: creating a member, changing a role and resetting
/// a member's credentials need the same fresh re-authentication as moving money, and nothing
/// changes without it.
#[tokio::test]
async fn an_admin_session_left_open_cannot_make_a_finance_member_or_promote_one() {
    let portal = console_portal().await;
    let (admin, session) = staff_session(&portal, "staff-admin", 0).await;
    age_reauthentication(&portal, &session).await;
    let identity = database(&portal, "identity").await;
    let support_id: uuid::Uuid =
        sqlx::query_scalar("select id from staff_account where username = 'staff-support'")
            .fetch_one(&identity)
            .await
            .expect("staff-support");
    let create = (
        "/staff/staff".to_owned(),
        Method::POST,
        json!({ "username": "ke-toan-moi", "role": "finance", "email": "ke-toan-moi@staff.kid.test" }),
    );
    let promote = (
        format!("/staff/staff/{support_id}"),
        Method::PATCH,
        json!({ "role": "finance" }),
    );
    let reset = (
        format!("/staff/staff/{support_id}/reset-credentials"),
        Method::POST,
        json!({}),
    );
    for (path, method, body) in [&create, &promote, &reset] {
        let (status, answer) =
            status_and_json(staff_send(&admin, &portal, method.clone(), path, body).await).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}: {answer}");
        assert_eq!(answer["code"], "reauth_required", "{path}: {answer}");
    }
    let state: (i64, String, i64) = sqlx::query_as(
        "select (select count(*) from staff_account where username = 'ke-toan-moi'),
                (select role from staff_account where username = 'staff-support'),
                (select count(*) from staff_enrolment)",
    )
    .fetch_one(&identity)
    .await
    .expect("staff");
    assert_eq!(state, (0, "support".to_owned(), 0), "nothing changed");

    // The admin themselves, with their password again, may; and still moves no money (admins
    // manage people, finance moves money).
    let (status, _) = post(
        &admin,
        &portal,
        "/staff/auth/reauthenticate",
        json!({ "secret": STAFF_PASSWORD }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for (path, method, body) in [&create, &promote, &reset] {
        let response = staff_send(&admin, &portal, method.clone(), path, body).await;
        assert!(response.status().is_success(), "{path}: {}", response.status());
    }
    let (_, user_id) = registered(&portal, "quanly").await;
    let (status, answer) = post(
        &admin,
        &portal,
        "/staff/adjustments",
        json!({ "userId": user_id, "kp": 1_000, "reason": "goodwill" }),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
}
