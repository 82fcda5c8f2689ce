//! Game recharge through the real path: the gateway, the recharge service, the wallet over
//! gRPC, RabbitMQ to the game and back. A "game team" here is a plain AMQP client bound to
//! the events exchange, as a real game's consumer would be.

use std::{collections::HashSet, time::Duration};

use futures::StreamExt;
use kid_contracts::game::{Delivery, GameResult};
use kid_platform::{Settings, db};
use kid_recharge::reference_game;
use kid_testing::{
    metric,
    portal::{Portal, buy, contract_schema, eventually, fund, get_json, registered, start, xsrf_token},
};
use lapin::{
    Channel,
    options::{BasicAckOptions, ConfirmSelectOptions},
};
use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

async fn credit_of(http: &Client, portal: &Portal) -> i64 {
    let (status, me) = get_json(http, portal, "/me").await;
    assert_eq!(status, StatusCode::OK, "{me}");
    me["credit"].as_i64().expect("credit")
}

/// Waits until the player's balance is `credit`.
async fn credit_reaches(http: &Client, portal: &Portal, credit: i64) {
    eventually(&format!("balance {credit}"), || async {
        (credit_of(http, portal).await == credit).then_some(())
    })
    .await;
}

fn order(zone: i64, credit: i64) -> Value {
    json!({ "zoneId": zone, "creditAmount": credit, "productCode": "fsonline", "gReCaptchaToken": "dev-captcha" })
}

async fn recharge_db(portal: &Portal) -> sqlx::PgPool {
    db::connect(&portal.settings.database, "recharge")
        .await
        .expect("pool")
}

/// The order's status and failure reason, as the recharge service stores them.
async fn order_state(pool: &sqlx::PgPool, id: &str) -> (String, Option<String>) {
    sqlx::query_as("select status, failure_reason from recharge_order where id = $1::uuid")
        .bind(id)
        .fetch_one(pool)
        .await
        .expect("order")
}

async fn order_reaches(pool: &sqlx::PgPool, id: &str, status: &str) -> Option<String> {
    eventually(&format!("order {id} becomes {status}"), || async {
        let (now, reason) = order_state(pool, id).await;
        (now == status).then_some(reason)
    })
    .await
}

/// The effects the recharge service recorded for an order's results, in arrival order.
async fn effects(pool: &sqlx::PgPool, id: &str) -> Vec<String> {
    sqlx::query_scalar("select effect from game_result where order_id = $1::uuid order by id")
        .bind(id)
        .fetch_all(pool)
        .await
        .expect("results")
}

/// The player's payment for `order` in the history: its status and related transactions.
async fn payment(http: &Client, portal: &Portal, transaction_id: &str) -> Value {
    let (status, history) = get_json(http, portal, "/payment/transaction-history").await;
    assert_eq!(status, StatusCode::OK);
    history
        .as_array()
        .expect("list")
        .iter()
        .find(|row| row["id"] == transaction_id)
        .cloned()
        .unwrap_or_else(|| panic!("payment {transaction_id} not in {history}"))
}

async fn payment_reaches(http: &Client, portal: &Portal, transaction_id: &str, status: &str) -> Value {
    eventually(&format!("payment {transaction_id} becomes {status}"), || async {
        let row = payment(http, portal, transaction_id).await;
        (row["status"] == status).then_some(row)
    })
    .await
}

/// A game team's side of the broker: its own queue bound to a routing-key pattern, and a
/// channel to answer on.
struct GameTeam {
    channel: Channel,
    deliveries: lapin::Consumer,
    exchange: String,
}

impl GameTeam {
    async fn bind(settings: &Settings, pattern: &str) -> Self {
        let (channel, deliveries) = kid_testing::portal::listen(settings, pattern, false).await;
        channel
            .confirm_select(ConfirmSelectOptions::default())
            .await
            .expect("confirms");
        Self {
            channel,
            deliveries,
            exchange: settings.amqp.exchange.clone(),
        }
    }

    /// The next message within `wait`, as (AMQP message id, routing key, JSON body).
    async fn next(&mut self, wait: Duration) -> Option<(String, String, Value)> {
        let delivery = tokio::time::timeout(wait, self.deliveries.next()).await.ok()??;
        let delivery = delivery.expect("delivery");
        delivery.ack(BasicAckOptions::default()).await.expect("ack");
        let id = delivery
            .properties
            .message_id()
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let body = serde_json::from_slice(&delivery.data).expect("JSON body");
        Some((id, delivery.routing_key.to_string(), body))
    }

    /// Every message until `quiet` passes without one.
    async fn drain(&mut self, quiet: Duration) -> Vec<(String, String, Value)> {
        let mut all = Vec::new();
        while let Some(message) = self.next(quiet).await {
            all.push(message);
        }
        all
    }

    async fn answer(&self, order_id: &str, status: Delivery, reason: &str, message_id: &str) {
        self.answer_as("fsonline", order_id, status, reason, message_id)
            .await;
    }

    /// Answers on `recharge.result.<product>`, as that product's game team would.
    async fn answer_as(
        &self,
        product: &str,
        order_id: &str,
        status: Delivery,
        reason: &str,
        message_id: &str,
    ) {
        let result = GameResult {
            schema_version: 1,
            message_id: message_id.to_owned(),
            order_id: order_id.parse().expect("order id"),
            status,
            reason: reason.to_owned(),
            occurred_at: Some(time::OffsetDateTime::now_utc()),
        };
        reference_game::publish_result(&self.channel, &self.exchange, product, &result)
            .await
            .expect("publish");
    }
}

fn assert_valid(validator: &jsonschema::Validator, message: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(message)
        .map(|error| error.to_string())
        .collect();
    assert!(errors.is_empty(), "{message} breaks the contract: {errors:?}");
}

#[tokio::test]
async fn the_catalogue_and_every_refusal_a_player_can_meet() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "coin_rules").await;

    let (status, products) = get_json(&http, &portal, "/product").await;
    assert_eq!(status, StatusCode::OK);
    let codes: Vec<&str> = products
        .as_array()
        .expect("list")
        .iter()
        .map(|product| product["code"].as_str().expect("code"))
        .collect();
    assert_eq!(codes, ["fsonline", "jxonline2", "jxsj2"]);
    assert_eq!(products[2]["logoImg"], "/images/products/jxsj2.svg");

    let (status, info) = get_json(&http, &portal, "/payment/coin-recharge/fsonline").await;
    assert_eq!(status, StatusCode::OK, "{info}");
    assert_eq!(info["coinName"], "Xu");
    let zones: Vec<i64> = info["zones"]
        .as_array()
        .expect("zones")
        .iter()
        .map(|zone| zone["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(zones, [1, 2, 97, 98, 99], "development adds zones 97 to 99");
    assert_eq!(
        info["payableValues"][2],
        json!({ "credit": 100_000, "coinsReceived": 1_000, "coinsBonus": 50 })
    );
    // The summer lottery event ended; only the coin bonus is active.
    assert_eq!(
        info["rechargeEvents"].as_array().expect("events").len(),
        1,
        "{info}"
    );
    assert_eq!(info["rechargeEvents"][0]["type"], "recharge.bonus_coin");
    assert_eq!(info["rechargeEvents"][0]["config"]["coinBonusRate"], 0.1);
    let (_, jxsj2) = get_json(&http, &portal, "/payment/coin-recharge/jxsj2").await;
    assert_eq!(jxsj2["coinName"], "Vàng");

    let (status, missing) = get_json(&http, &portal, "/payment/coin-recharge/nosuchgame").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(missing["message"], "Không tìm thấy sản phẩm.");
    let (status, _) = buy(&http, &portal, "nosuchgame", "k0", &order(1, 20_000)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (status, body) = buy(&http, &portal, "fsonline", "k1", &order(0, 0)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["errors"]["zoneId"][0], "Hãy chọn máy chủ bạn muốn nạp.");
    assert_eq!(
        body["errors"]["creditAmount"][0],
        "Hãy chọn mệnh giá bạn muốn nạp."
    );
    let (status, body) = buy(&http, &portal, "fsonline", "k2", &order(7, 12_345)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(body["errors"]["zoneId"][0], "Máy chủ bạn chọn không tồn tại.");
    assert_eq!(
        body["errors"]["creditAmount"][0],
        "Mệnh giá bạn chọn không có trong danh sách."
    );
    let mut no_captcha = order(1, 20_000);
    no_captcha["gReCaptchaToken"] = json!("");
    let (status, body) = buy(&http, &portal, "fsonline", "k3", &no_captcha).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body["errors"]["gReCaptchaToken"].is_array(), "{body}");
    let (status, body) = buy(&http, &portal, "fsonline", &"x".repeat(200), &order(1, 20_000)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["message"]
            .as_str()
            .expect("message")
            .contains("Idempotency-Key"),
        "the answer names what is wrong: {body}"
    );
    // Without the XSRF token nothing is placed.
    let response = http
        .post(format!("{}/api/payment/coin-recharge/fsonline", portal.base))
        .json(&order(1, 20_000))
        .send()
        .await
        .expect("post");
    assert_eq!(response.status().as_u16(), 419);

    // A balance short of the price: a clear 409, no order, nothing moved.
    fund(&portal, player, 19_999).await;
    let (status, body) = buy(&http, &portal, "fsonline", "k4", &order(1, 20_000)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["message"],
        "Số dư KP của bạn không đủ để thực hiện giao dịch này."
    );
    let orders: i64 = sqlx::query_scalar("select count(*) from recharge_order")
        .fetch_one(&recharge_db(&portal).await)
        .await
        .expect("count");
    assert_eq!(orders, 0);
    assert_eq!(credit_of(&http, &portal).await, 19_999);

    let anonymous = kid_testing::portal::client();
    let response = anonymous
        .get(format!("{}/api/product", portal.base))
        .send()
        .await
        .expect("get");
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_paid_order_is_debited_once_sent_once_and_delivered() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "coin_buyer").await;
    let mut game = GameTeam::bind(&portal.settings, "recharge.order.fsonline").await;
    let mut answers = GameTeam::bind(&portal.settings, "recharge.result.*").await;
    fund(&portal, player, 150_000).await;

    let (status, placed) = buy(&http, &portal, "fsonline", "buy-1", &order(1, 100_000)).await;
    assert_eq!(status, StatusCode::CREATED, "{placed}");
    // 1,000 Xu, the value's 50 milestone Xu, 10% event bonus on the 1,000 bought.
    assert_eq!(placed["coins"], 1_000);
    assert_eq!(placed["milestoneBonus"], 50);
    assert_eq!(placed["eventBonus"], 100);
    assert_eq!(placed["lotteryPoints"], 0);
    assert_eq!(placed["zoneDescription"], "Máy chủ 1 - Thiên Long");
    assert_eq!(placed["coinName"], "Xu");
    assert_eq!(credit_of(&http, &portal).await, 50_000, "debited at once");
    let order_id = placed["orderId"].as_str().expect("order id").to_owned();
    let transaction_id = placed["transactionId"].as_str().expect("transaction").to_owned();

    // The same submission again (a retry): the same order, nothing more taken.
    let (status, again) = buy(&http, &portal, "fsonline", "buy-1", &order(1, 100_000)).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(again["orderId"], order_id.as_str());
    // The same key for another order is refused.
    let (status, reused) = buy(&http, &portal, "fsonline", "buy-1", &order(2, 100_000)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{reused}");

    // The game got exactly one order, as the contract describes it.
    let sent = game.drain(Duration::from_secs(2)).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    let (message_id, routing_key, body) = &sent[0];
    assert_eq!(routing_key, "recharge.order.fsonline");
    assert_eq!(body["messageId"], message_id.as_str());
    assert_eq!(body["orderId"], order_id.as_str());
    assert_eq!(body["transactionId"], transaction_id.as_str());
    assert_eq!(body["username"], "coin_buyer");
    assert_eq!(body["zoneId"], 1);
    assert_eq!(body["totalCoins"], 1_150);
    assert_valid(&contract_schema("recharge-order.json"), body);

    // The reference game delivered it; its answer follows the contract too.
    let recharge = recharge_db(&portal).await;
    order_reaches(&recharge, &order_id, "delivered").await;
    let (_, result_key, result) = answers.next(Duration::from_secs(5)).await.expect("an answer");
    assert_eq!(result_key, "recharge.result.fsonline");
    assert_eq!(result["status"], "delivered");
    assert_valid(&contract_schema("recharge-result.json"), &result);

    let row = payment_reaches(&http, &portal, &transaction_id, "success").await;
    assert_eq!(row["type"], "credit.pay");
    assert_eq!(row["realValue"], 100_000);
    assert_eq!(row["payload"]["metadata"]["coin"], 1_000);
    assert_eq!(row["payload"]["metadata"]["coinBonus"], 150);
    assert_eq!(row["payload"]["metadata"]["productName"], "Phong Thần Online");
    assert_eq!(effects(&recharge, &order_id).await, ["applied"]);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(credit_of(&http, &portal).await, 50_000);
}

#[tokio::test]
async fn zone_99_fails_and_is_refunded_once() {
    let metrics = kid_platform::metrics::handle();
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "coin_zone99").await;
    fund(&portal, player, 50_000).await;
    let (status, placed) = buy(&http, &portal, "fsonline", "z99", &order(99, 50_000)).await;
    assert_eq!(status, StatusCode::CREATED, "{placed}");
    let order_id = placed["orderId"].as_str().expect("order").to_owned();
    let transaction_id = placed["transactionId"].as_str().expect("transaction").to_owned();

    let recharge = recharge_db(&portal).await;
    let reason = order_reaches(&recharge, &order_id, "failed").await;
    assert_eq!(reason.as_deref(), Some("zone 99 is closed"));
    credit_reaches(&http, &portal, 50_000).await;
    let row = payment_reaches(&http, &portal, &transaction_id, "failed").await;
    let related = row["relatedTransactions"].as_array().expect("related");
    assert_eq!(related.len(), 1, "{row}");
    assert_eq!(related[0]["type"], "credit.refund");
    assert_eq!(related[0]["realValue"], 50_000);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(credit_of(&http, &portal).await, 50_000, "refunded once");
    // The coin-order SLO's event: finished once, refunded, in time (a good event).
    let rendered = metrics.render();
    let finished = |outcome: &str, in_time: &str| {
        metric(
            &rendered,
            &format!(r#"recharge_orders_finished_total{{outcome="{outcome}",in_time="{in_time}"}}"#),
        )
    };
    assert_eq!(finished("refunded", "true"), Some(1.0), "{rendered}");
    assert_eq!(finished("refunded", "false"), Some(0.0), "{rendered}");
    assert_eq!(finished("delivered", "true"), Some(0.0), "{rendered}");
}

#[tokio::test]
async fn a_silent_game_is_refunded_at_the_deadline_and_a_late_delivery_is_not_paid_again() {
    let portal = start(|settings| {
        settings.recharge.reference_game = false;
        settings.recharge.delivery_deadline = Duration::from_millis(1_500);
    })
    .await;
    let (http, player) = registered(&portal, "coin_silent").await;
    let game = GameTeam::bind(&portal.settings, "recharge.order.*").await;
    fund(&portal, player, 20_000).await;
    let (status, placed) = buy(&http, &portal, "fsonline", "silent", &order(2, 20_000)).await;
    assert_eq!(status, StatusCode::CREATED, "{placed}");
    let order_id = placed["orderId"].as_str().expect("order").to_owned();
    let transaction_id = placed["transactionId"].as_str().expect("transaction").to_owned();
    assert_eq!(credit_of(&http, &portal).await, 0);
    assert_eq!(
        payment(&http, &portal, &transaction_id).await["status"],
        "pending",
        "'Đang xử lý' while the game has not answered"
    );

    let recharge = recharge_db(&portal).await;
    let reason = order_reaches(&recharge, &order_id, "failed").await;
    assert_eq!(reason.as_deref(), Some("no answer before the delivery deadline"));
    credit_reaches(&http, &portal, 20_000).await;
    payment_reaches(&http, &portal, &transaction_id, "failed").await;

    // The game wakes up and says it delivered: kept for support, no money moves.
    game.answer(&order_id, Delivery::Delivered, "", "late-1").await;
    let recorded = eventually("the late answer is recorded", || async {
        let recorded = effects(&recharge, &order_id).await;
        (!recorded.is_empty()).then_some(recorded)
    })
    .await;
    assert_eq!(recorded, ["late"]);
    assert_eq!(order_state(&recharge, &order_id).await.0, "failed");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(credit_of(&http, &portal).await, 20_000);
    assert_eq!(payment(&http, &portal, &transaction_id).await["status"], "failed");
}

#[tokio::test]
async fn duplicate_and_reordered_results_move_money_once() {
    let portal = start(|settings| settings.recharge.reference_game = false).await;
    let (http, player) = registered(&portal, "coin_replays").await;
    let game = GameTeam::bind(&portal.settings, "recharge.order.*").await;
    fund(&portal, player, 100_000).await;
    let (_, delivered) = buy(&http, &portal, "fsonline", "a", &order(1, 50_000)).await;
    let (_, failed) = buy(&http, &portal, "fsonline", "b", &order(1, 50_000)).await;
    let delivered = delivered["orderId"].as_str().expect("a").to_owned();
    let failed = failed["orderId"].as_str().expect("b").to_owned();
    assert_eq!(credit_of(&http, &portal).await, 0);

    // A: delivered, the same message redelivered, another 'delivered', then a stray failure.
    game.answer(&delivered, Delivery::Delivered, "", "a-1").await;
    game.answer(&delivered, Delivery::Delivered, "", "a-1").await;
    game.answer(&delivered, Delivery::Delivered, "", "a-2").await;
    game.answer(&delivered, Delivery::Failed, "changed its mind", "a-3")
        .await;
    // B: failed twice, then a delivery that arrives after the refund.
    game.answer(&failed, Delivery::Failed, "character not found", "b-1")
        .await;
    game.answer(&failed, Delivery::Failed, "character not found", "b-2")
        .await;
    game.answer(&failed, Delivery::Delivered, "", "b-3").await;

    let recharge = recharge_db(&portal).await;
    let (of_delivered, of_failed) = eventually("all six answers are recorded", || async {
        let both = (
            effects(&recharge, &delivered).await,
            effects(&recharge, &failed).await,
        );
        (both.0.len() == 3 && both.1.len() == 3).then_some(both)
    })
    .await;
    assert_eq!(of_delivered, ["applied", "duplicate", "conflicting"]);
    assert_eq!(of_failed, ["applied", "duplicate", "late"]);
    assert_eq!(order_state(&recharge, &delivered).await.0, "delivered");
    assert_eq!(
        order_state(&recharge, &failed).await,
        ("failed".to_owned(), Some("character not found".to_owned()))
    );
    credit_reaches(&http, &portal, 50_000).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(credit_of(&http, &portal).await, 50_000, "one refund, for B only");
}

#[tokio::test]
async fn a_game_answering_for_another_games_order_neither_refunds_nor_delivers_it() {
    let portal = start(|settings| settings.recharge.reference_game = false).await;
    let (http, player) = registered(&portal, "coin_crossgame").await;
    let game = GameTeam::bind(&portal.settings, "recharge.order.*").await;
    fund(&portal, player, 100_000).await;
    let mut jxsj2 = order(1, 100_000);
    jxsj2["productCode"] = json!("jxsj2");
    let (status, placed) = buy(&http, &portal, "jxsj2", "x-1", &jxsj2).await;
    assert_eq!(status, StatusCode::CREATED, "{placed}");
    let order_id = placed["orderId"].as_str().expect("order id").to_owned();
    assert_eq!(credit_of(&http, &portal).await, 0);

    // fsonline's consumer fails, then claims to deliver, jxsj2's order.
    game.answer_as("fsonline", &order_id, Delivery::Failed, "not ours", "cross-1")
        .await;
    game.answer_as("fsonline", &order_id, Delivery::Delivered, "", "cross-2")
        .await;
    let recharge = recharge_db(&portal).await;
    let kept = eventually("both foreign answers are kept", || async {
        let effects = effects(&recharge, &order_id).await;
        (effects.len() == 2).then_some(effects)
    })
    .await;
    assert_eq!(kept, ["rejected", "rejected"]);
    let claimed: Vec<String> =
        sqlx::query_scalar("select claimed_product from game_result where order_id = $1::uuid order by id")
            .bind(&order_id)
            .fetch_all(&recharge)
            .await
            .expect("claims");
    assert_eq!(claimed, ["fsonline", "fsonline"]);
    assert_eq!(order_state(&recharge, &order_id).await.0, "awaiting_delivery");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(credit_of(&http, &portal).await, 0, "no refund");

    // jxsj2's own answer still decides it.
    game.answer_as("jxsj2", &order_id, Delivery::Delivered, "", "own-1")
        .await;
    order_reaches(&recharge, &order_id, "delivered").await;
    assert_eq!(
        effects(&recharge, &order_id).await,
        ["rejected", "rejected", "applied"]
    );
}

#[tokio::test]
async fn the_wallet_restarted_between_debit_and_delivery_loses_nothing() {
    let mut portal = start(|settings| settings.recharge.reference_game = false).await;
    let (http, player) = registered(&portal, "coin_restart").await;
    let mut game = GameTeam::bind(&portal.settings, "recharge.order.*").await;
    fund(&portal, player, 300_000).await;
    let (_, delivered) = buy(&http, &portal, "fsonline", "r-a", &order(1, 100_000)).await;
    let (_, failed) = buy(&http, &portal, "fsonline", "r-b", &order(1, 100_000)).await;
    let delivered_tx = delivered["transactionId"].as_str().expect("a").to_owned();
    let failed_tx = failed["transactionId"].as_str().expect("b").to_owned();
    assert_eq!(game.drain(Duration::from_secs(1)).await.len(), 2);
    assert_eq!(credit_of(&http, &portal).await, 100_000);

    portal.stack.stop_service("wallet").await.expect("wallet stops");
    // The games answer while the wallet is down.
    game.answer(
        delivered["orderId"].as_str().expect("a"),
        Delivery::Delivered,
        "",
        "r-a-1",
    )
    .await;
    game.answer(
        failed["orderId"].as_str().expect("b"),
        Delivery::Failed,
        "server full",
        "r-b-1",
    )
    .await;
    // A player pays while the wallet is down: told it is being processed, not asked to retry.
    let (status, pending) = buy(&http, &portal, "fsonline", "r-c", &order(2, 50_000)).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{pending}");
    assert_eq!(pending["status"], "processing");
    assert!(
        pending["message"]
            .as_str()
            .expect("message")
            .contains("đang được xử lý")
    );
    tokio::time::sleep(Duration::from_millis(1_500)).await;

    portal
        .stack
        .start_service("wallet")
        .await
        .expect("wallet starts again");
    // C is debited when the sweeper drives it again, and sent to the game once.
    let sent = game.drain(Duration::from_secs(4)).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].2["orderId"], pending["orderId"]);
    let (status, c) = buy(&http, &portal, "fsonline", "r-c", &order(2, 50_000)).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "the same key now tells the outcome: {c}"
    );
    game.answer(
        pending["orderId"].as_str().expect("c"),
        Delivery::Delivered,
        "",
        "r-c-1",
    )
    .await;

    payment_reaches(&http, &portal, &delivered_tx, "success").await;
    payment_reaches(&http, &portal, &failed_tx, "failed").await;
    payment_reaches(&http, &portal, c["transactionId"].as_str().expect("c"), "success").await;
    credit_reaches(&http, &portal, 300_000 - 100_000 - 50_000).await;
}

#[tokio::test]
async fn parallel_orders_spend_only_the_balance_and_each_is_sent_once() {
    let portal = start(|settings| settings.recharge.reference_game = false).await;
    let (http, player) = registered(&portal, "coin_rush").await;
    let mut game = GameTeam::bind(&portal.settings, "recharge.order.*").await;
    fund(&portal, player, 500_000).await;
    let token = xsrf_token(&http, &portal.base).await;
    let attempts = (0..24).map(|n| {
        let http = http.clone();
        let token = token.clone();
        let url = format!("{}/api/payment/coin-recharge/fsonline", portal.base);
        async move {
            let response = http
                .post(url)
                .header("X-XSRF-TOKEN", token)
                .header("Idempotency-Key", format!("rush-{n}"))
                .json(&order(1 + n % 2, 50_000))
                .send()
                .await
                .expect("post");
            let status = response.status();
            (status, response.json::<Value>().await.expect("json"))
        }
    });
    let outcomes = futures::future::join_all(attempts).await;
    let placed: HashSet<String> = outcomes
        .iter()
        .filter(|(status, _)| *status == StatusCode::CREATED)
        .map(|(_, body)| body["orderId"].as_str().expect("id").to_owned())
        .collect();
    let refused = outcomes
        .iter()
        .filter(|(status, _)| *status == StatusCode::CONFLICT)
        .count();
    assert_eq!(placed.len(), 10, "{outcomes:?}");
    assert_eq!(refused, 14, "{outcomes:?}");
    assert_eq!(credit_of(&http, &portal).await, 0);

    let sent = game.drain(Duration::from_secs(2)).await;
    let sent_orders: Vec<String> = sent
        .iter()
        .map(|(_, _, body)| body["orderId"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(sent_orders.len(), 10, "one event per order, none twice");
    assert_eq!(sent_orders.iter().cloned().collect::<HashSet<_>>(), placed);
    let stored: i64 = sqlx::query_scalar("select count(*) from recharge_order")
        .fetch_one(&recharge_db(&portal).await)
        .await
        .expect("count");
    assert_eq!(stored, 10, "refused orders leave nothing behind");
}

/// What the operators' alerts read: an order no game has answered is counted in
/// `recharge_orders_awaiting_delivery`, and the outbox backlog is exported per schema.
#[tokio::test]
async fn an_unanswered_order_shows_in_the_gauges_operators_alert_on() {
    let portal = start(|settings| settings.recharge.reference_game = false).await;
    let (http, player) = registered(&portal, "coin_gauged").await;
    fund(&portal, player, 50_000).await;
    let (status, placed) = buy(&http, &portal, "fsonline", "gauged", &order(1, 20_000)).await;
    assert_eq!(status, StatusCode::CREATED, "{placed}");

    // Each service refreshes its gauges on its own clock: wait for all of them, not only the
    // first (on a loaded machine payment's came a moment after recharge's).
    eventually(
        "the gauge counts the unanswered order, and every schema's outbox is exported",
        || async {
            let text = kid_testing::portal::client()
                .get(format!("{}/metrics", portal.base))
                .send()
                .await
                .expect("metrics")
                .text()
                .await
                .expect("text");
            let counted = text
                .lines()
                .any(|line| line == r#"recharge_orders_awaiting_delivery{schema="recharge"} 1"#);
            let outboxes = ["identity", "wallet", "payment", "recharge"]
                .iter()
                .all(|schema| {
                    let prefix = format!(r#"outbox_pending_messages{{schema="{schema}"}} "#);
                    text.lines().any(|line| line.starts_with(&prefix))
                });
            (counted && outboxes).then_some(())
        },
    )
    .await;
}

/// The recharge service deletes an order whose debit the wallet refused, so that the player can
/// try again after a top-up. Two attempts under the same key race that deletion: the test holds
/// the wallet's lock on the player to order attempt A's debit (refused), the top-up, then
/// attempt B's debit of the same order. B must not pay for the order A is deleting: no KP may
/// leave the balance without an order to deliver or refund.
#[tokio::test]
async fn deleting_a_refused_order_while_a_retry_pays_for_it_loses_no_kp() {
    let portal = start(|settings| {
        settings.recharge.reference_game = false;
        // Only the two attempts drive the order; the sweeper would be a third.
        settings.recharge.redrive_after = Duration::from_secs(600);
    })
    .await;
    let (http, player) = registered(&portal, "delete_race").await;
    fund(&portal, player, 10_000).await;
    let wallet_db = db::connect(&portal.settings.database, "wallet")
        .await
        .expect("pool");
    // The funding's partner recalculation locks the player too: let it finish first, so the
    // only waiters counted below are the ones this test makes.
    eventually("the funding's partner recalculation is done", || async {
        let done: i64 = sqlx::query_scalar(
            "select count(*) from inbox_message where consumer like '%.wallet.partner-recalculation'",
        )
        .fetch_one(&wallet_db)
        .await
        .expect("inbox");
        (done >= 1).then_some(())
    })
    .await;
    let waiting = async |count: i64| {
        eventually(&format!("{count} waiting on the player's lock"), || async {
            let waiting: i64 = sqlx::query_scalar(
                "select count(*) from pg_locks l join pg_stat_activity a using (pid)
                 where not l.granted and a.datname = current_database()",
            )
            .fetch_one(&wallet_db)
            .await
            .expect("locks");
            (waiting == count).then_some(())
        })
        .await;
    };
    let mut lock = wallet_db.begin().await.expect("transaction");
    sqlx::query("select 1 from player where user_id = $1 for update")
        .bind(player)
        .execute(&mut *lock)
        .await
        .expect("lock");

    let attempt = || {
        let (http, portal_base) = (http.clone(), portal.base.clone());
        async move {
            let token = xsrf_token(&http, &portal_base).await;
            let response = http
                .post(format!("{portal_base}/api/payment/coin-recharge/fsonline"))
                .header("X-XSRF-TOKEN", token)
                .header("Idempotency-Key", "delete-race")
                .json(&order(1, 50_000))
                .send()
                .await
                .expect("post");
            response.status()
        }
    };
    let first = tokio::spawn(attempt());
    waiting(1).await;
    let top_up = tokio::spawn({
        let settings = portal.settings.clone();
        let wallet = portal.wallet.clone();
        async move { kid_testing::portal::fund_with(&settings, &wallet, player, 50_000).await }
    });
    waiting(2).await;
    let second = tokio::spawn(attempt());
    waiting(3).await;
    lock.rollback().await.expect("release");

    let first = first.await.expect("first attempt");
    let second = second.await.expect("second attempt");
    top_up.await.expect("top-up");
    assert_eq!(
        first,
        StatusCode::CONFLICT,
        "A's debit was refused for the balance"
    );
    assert_eq!(
        second,
        StatusCode::CONFLICT,
        "B answers as A did: the key was refused"
    );

    let orders: Vec<(i64, Option<uuid::Uuid>)> =
        sqlx::query_as("select credit, transaction_id from recharge_order")
            .fetch_all(&recharge_db(&portal).await)
            .await
            .expect("orders");
    assert!(orders.is_empty(), "{orders:?}");
    assert_eq!(credit_of(&http, &portal).await, 60_000, "no KP left the balance");

    // The player tries again with the same key: a new order, paid once.
    let (status, placed) = buy(&http, &portal, "fsonline", "delete-race", &order(1, 50_000)).await;
    assert_eq!(status, StatusCode::CREATED, "{placed}");
    assert_eq!(credit_of(&http, &portal).await, 10_000);
}
