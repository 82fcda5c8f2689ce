//! Every result a game publishes gets an outcome on `recharge.outcome.<productCode>`, through
//! the real broker and recharge service: applied, duplicate, late, conflicting, and rejected
//! for a truncated body, a schema failure, an unknown order, a missing `message_id` and a
//! result on another product's key. A "game team" here is a plain AMQP client, as a real
//! game's consumer would be.

use std::time::Duration;

use futures::StreamExt;
use kid_platform::db;
use kid_testing::portal::{Portal, buy, contract_schema, eventually, fund, listen, registered, start};
use lapin::{
    BasicProperties, Channel,
    options::{BasicAckOptions, BasicPublishOptions, ConfirmSelectOptions},
    types::{AMQPValue, FieldTable, ShortString},
};
use serde_json::{Value, json};

/// A game team's side: a queue of its product's outcomes and a channel to answer on.
struct Game {
    product: &'static str,
    channel: Channel,
    outcomes: lapin::Consumer,
    exchange: String,
}

impl Game {
    async fn bind(portal: &Portal, product: &'static str) -> Self {
        let (channel, outcomes) =
            listen(&portal.settings, &format!("recharge.outcome.{product}"), false).await;
        channel
            .confirm_select(ConfirmSelectOptions::default())
            .await
            .expect("confirms");
        Self {
            product,
            channel,
            outcomes,
            exchange: portal.settings.amqp.exchange.clone(),
        }
    }

    /// Publishes `body` on `recharge.result.<product>` with `properties`, confirmed.
    async fn publish(&self, product: &str, body: &[u8], properties: BasicProperties) {
        let confirm = self
            .channel
            .basic_publish(
                self.exchange.as_str().into(),
                format!("recharge.result.{product}").as_str().into(),
                BasicPublishOptions::default(),
                body,
                properties,
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
        assert!(confirm.is_ack(), "the broker took the result");
    }

    /// A result as the contract asks: persistent JSON whose `message_id` is the body's.
    async fn answer(&self, order_id: &str, status: &str, message_id: &str) {
        self.answer_on(self.product, order_id, status, message_id).await;
    }

    async fn answer_on(&self, product: &str, order_id: &str, status: &str, message_id: &str) {
        let mut body = json!({
            "schemaVersion": 1,
            "messageId": message_id,
            "orderId": order_id,
            "status": status,
            "occurredAt": "2026-11-28T09:00:00Z",
        });
        if status == "failed" {
            body["reason"] = json!("character not found");
        }
        let bytes = serde_json::to_vec(&body).expect("JSON");
        self.publish(product, &bytes, properties(Some(message_id))).await;
    }

    /// The next outcome (AMQP message id, routing key, body), checked against the contract's
    /// schema.
    async fn outcome(&mut self) -> (String, String, Value) {
        let delivery = tokio::time::timeout(Duration::from_secs(10), self.outcomes.next())
            .await
            .expect("an outcome within 10 s")
            .expect("a delivery")
            .expect("delivered");
        delivery.ack(BasicAckOptions::default()).await.expect("ack");
        let body: Value = serde_json::from_slice(&delivery.data).expect("JSON outcome");
        let errors: Vec<String> = contract_schema("result-outcome.json")
            .iter_errors(&body)
            .map(|error| error.to_string())
            .collect();
        assert!(errors.is_empty(), "{body} breaks the contract: {errors:?}");
        let id = delivery
            .properties
            .message_id()
            .as_ref()
            .map(ToString::to_string)
            .expect("an outcome has a message id");
        (id, delivery.routing_key.to_string(), body)
    }

    /// Nothing more arrives within a second.
    async fn no_more_outcomes(&mut self) {
        if let Ok(Some(extra)) = tokio::time::timeout(Duration::from_secs(1), self.outcomes.next()).await {
            let extra = extra.expect("delivered");
            panic!("an unexpected outcome: {}", String::from_utf8_lossy(&extra.data));
        }
    }
}

fn properties(message_id: Option<&str>) -> BasicProperties {
    let properties = BasicProperties::default()
        .with_content_type("application/json".into())
        .with_delivery_mode(2);
    match message_id {
        Some(id) => properties.with_message_id(id.into()),
        None => properties,
    }
}

/// A paid fsonline order of the player, sent to the game (awaiting delivery).
async fn placed_order(portal: &Portal, username: &str, product: &str) -> String {
    let (http, player) = registered(portal, username).await;
    fund(portal, player, 50_000).await;
    let body = json!({ "zoneId": 1, "creditAmount": 50_000, "productCode": product, "gReCaptchaToken": "dev-captcha" });
    let (status, placed) = buy(&http, portal, product, "o-1", &body).await;
    assert_eq!(status, reqwest::StatusCode::CREATED, "{placed}");
    let order_id = placed["orderId"].as_str().expect("order id").to_owned();
    let recharge = db::connect(&portal.settings.database, "recharge")
        .await
        .expect("pool");
    eventually("the order is sent to the game", || async {
        let status: String = sqlx::query_scalar("select status from recharge_order where id = $1::uuid")
            .bind(&order_id)
            .fetch_one(&recharge)
            .await
            .expect("order");
        (status == "awaiting_delivery").then_some(())
    })
    .await;
    order_id
}

async fn portal() -> Portal {
    start(|settings| settings.recharge.reference_game = false).await
}

fn said<'a>(outcome: &'a Value, field: &str) -> &'a str {
    outcome[field]
        .as_str()
        .unwrap_or_else(|| panic!("{field} in {outcome}"))
}

#[tokio::test]
async fn the_first_result_is_applied_and_the_same_answer_again_is_a_duplicate() {
    let portal = portal().await;
    let mut game = Game::bind(&portal, "fsonline").await;
    let order = placed_order(&portal, "outcome_applied", "fsonline").await;

    game.answer(&order, "delivered", "r-applied").await;
    let (id, key, applied) = game.outcome().await;
    assert_eq!(key, "recharge.outcome.fsonline");
    assert_eq!(said(&applied, "outcome"), "applied");
    assert_eq!(said(&applied, "resultMessageId"), "r-applied");
    assert_eq!(said(&applied, "orderId"), order);
    assert!(
        said(&applied, "reason").contains("delivered and complete"),
        "{applied}"
    );

    // The same message again is the same result: no second outcome. Another message with the
    // same answer is a duplicate.
    game.answer(&order, "delivered", "r-applied").await;
    game.answer(&order, "delivered", "r-again").await;
    let (again_id, _, duplicate) = game.outcome().await;
    assert_ne!(again_id, id, "each outcome has its own message id");
    assert_eq!(said(&duplicate, "outcome"), "duplicate");
    assert_eq!(said(&duplicate, "resultMessageId"), "r-again");
    assert!(
        said(&duplicate, "reason").contains("already delivered"),
        "{duplicate}"
    );
    game.no_more_outcomes().await;
}

#[tokio::test]
async fn a_delivery_after_the_refund_is_late() {
    let portal = portal().await;
    let mut game = Game::bind(&portal, "fsonline").await;
    let order = placed_order(&portal, "outcome_late", "fsonline").await;

    game.answer(&order, "failed", "r-failed").await;
    let (_, _, applied) = game.outcome().await;
    assert_eq!(said(&applied, "outcome"), "applied");
    assert!(said(&applied, "reason").contains("KP is refunded"), "{applied}");

    game.answer(&order, "delivered", "r-late").await;
    let (_, _, late) = game.outcome().await;
    assert_eq!(said(&late, "outcome"), "late");
    assert!(said(&late, "reason").contains("take the coins back"), "{late}");
}

#[tokio::test]
async fn a_failure_after_the_delivery_is_conflicting() {
    let portal = portal().await;
    let mut game = Game::bind(&portal, "fsonline").await;
    let order = placed_order(&portal, "outcome_conflict", "fsonline").await;

    game.answer(&order, "delivered", "r-delivered").await;
    assert_eq!(said(&game.outcome().await.2, "outcome"), "applied");
    game.answer(&order, "failed", "r-conflict").await;
    let (_, _, conflicting) = game.outcome().await;
    assert_eq!(said(&conflicting, "outcome"), "conflicting");
    assert_eq!(said(&conflicting, "orderId"), order);
}

#[tokio::test]
async fn a_truncated_result_is_rejected_as_not_json() {
    let portal = portal().await;
    let mut game = Game::bind(&portal, "fsonline").await;
    let order = placed_order(&portal, "outcome_cut", "fsonline").await;
    let whole = serde_json::to_vec(&json!({
        "schemaVersion": 1, "messageId": "r-cut", "orderId": order, "status": "delivered",
        "occurredAt": "2026-11-28T09:00:00Z",
    }))
    .expect("JSON");

    game.publish("fsonline", &whole[..whole.len() - 20], properties(Some("r-cut")))
        .await;
    let (_, _, rejected) = game.outcome().await;
    assert_eq!(said(&rejected, "outcome"), "rejected");
    assert_eq!(said(&rejected, "resultMessageId"), "r-cut");
    assert_eq!(
        rejected["orderId"],
        Value::Null,
        "nothing of the body could be read"
    );
    assert!(
        said(&rejected, "reason").starts_with("the body is not JSON (EOF while parsing"),
        "{rejected}"
    );

    // Nothing changed: the whole answer, under a new id, still decides the order.
    game.answer(&order, "delivered", "r-whole").await;
    assert_eq!(said(&game.outcome().await.2, "outcome"), "applied");
}

#[tokio::test]
async fn a_result_failing_the_schema_is_rejected_naming_each_field() {
    let portal = portal().await;
    let mut game = Game::bind(&portal, "fsonline").await;
    let order = placed_order(&portal, "outcome_schema", "fsonline").await;
    let body = json!({
        "schemaVersion": 1, "messageId": "r-schema", "orderId": order, "status": "failed",
        "occurredAt": "2026-11-28T09:00:00Z", "coins": 5,
    });
    game.publish(
        "fsonline",
        &serde_json::to_vec(&body).expect("JSON"),
        properties(Some("r-schema")),
    )
    .await;
    let (_, _, rejected) = game.outcome().await;
    assert_eq!(said(&rejected, "outcome"), "rejected");
    assert_eq!(
        said(&rejected, "orderId"),
        order,
        "the order it was for could be read"
    );
    let reason = said(&rejected, "reason");
    assert!(reason.contains("schemas/recharge-result.json"), "{reason}");
    assert!(reason.contains("\"reason\" is a required property"), "{reason}");
    assert!(reason.contains("coins"), "the extra field is named: {reason}");

    let recharge = db::connect(&portal.settings.database, "recharge")
        .await
        .expect("pool");
    let status: String = sqlx::query_scalar("select status from recharge_order where id = $1::uuid")
        .bind(&order)
        .fetch_one(&recharge)
        .await
        .expect("order");
    assert_eq!(status, "awaiting_delivery", "a rejected result decides nothing");
}

#[tokio::test]
async fn a_result_for_an_unknown_order_is_rejected() {
    let portal = portal().await;
    let mut game = Game::bind(&portal, "jxsj2").await;
    let unknown = uuid::Uuid::now_v7().to_string();
    game.answer(&unknown, "delivered", "r-unknown").await;
    let (_, key, rejected) = game.outcome().await;
    assert_eq!(key, "recharge.outcome.jxsj2");
    assert_eq!(said(&rejected, "outcome"), "rejected");
    assert_eq!(said(&rejected, "orderId"), unknown);
    assert!(
        said(&rejected, "reason").contains(&format!("no order {unknown} was sent to jxsj2")),
        "{rejected}"
    );
}

#[tokio::test]
async fn a_result_without_a_message_id_is_rejected_with_the_properties_it_had() {
    let portal = portal().await;
    let mut game = Game::bind(&portal, "fsonline").await;
    let order = placed_order(&portal, "outcome_noid", "fsonline").await;
    let body = serde_json::to_vec(&json!({
        "schemaVersion": 1, "messageId": "r-body-id", "orderId": order, "status": "delivered",
        "occurredAt": "2026-11-28T09:00:00Z",
    }))
    .expect("JSON");
    let mut headers = FieldTable::default();
    headers.insert(
        ShortString::from("x-game-build"),
        AMQPValue::LongString("2.4.1".into()),
    );
    let no_id = properties(None)
        .with_correlation_id("corr-7".into())
        .with_headers(headers);
    game.publish("fsonline", &body, no_id).await;

    let (_, _, rejected) = game.outcome().await;
    assert_eq!(said(&rejected, "outcome"), "rejected");
    assert_eq!(
        said(&rejected, "resultMessageId"),
        "r-body-id",
        "read from the body"
    );
    assert_eq!(said(&rejected, "orderId"), order);
    assert!(
        said(&rejected, "reason").contains("no AMQP message_id"),
        "{rejected}"
    );
    assert_eq!(rejected["properties"]["correlation_id"], "corr-7");
    assert_eq!(rejected["properties"]["content_type"], "application/json");
    assert_eq!(rejected["properties"]["headers.x-game-build"], "2.4.1");

    // Dead-lettered unread: the order still waits for its answer.
    let recharge = db::connect(&portal.settings.database, "recharge")
        .await
        .expect("pool");
    let results: i64 = sqlx::query_scalar("select count(*) from game_result where order_id = $1::uuid")
        .bind(&order)
        .fetch_one(&recharge)
        .await
        .expect("results");
    assert_eq!(results, 0);
    game.no_more_outcomes().await;
}

#[tokio::test]
async fn a_result_on_another_products_key_is_rejected_to_its_sender() {
    let portal = portal().await;
    let mut fsonline = Game::bind(&portal, "fsonline").await;
    let mut jxsj2 = Game::bind(&portal, "jxsj2").await;
    let order = placed_order(&portal, "outcome_cross", "jxsj2").await;

    fsonline.answer(&order, "failed", "r-cross").await;
    let (_, key, rejected) = fsonline.outcome().await;
    assert_eq!(key, "recharge.outcome.fsonline", "told to the game that sent it");
    assert_eq!(said(&rejected, "outcome"), "rejected");
    assert!(
        said(&rejected, "reason").contains("is not a fsonline order"),
        "{rejected}"
    );
    assert!(
        !said(&rejected, "reason").contains("jxsj2"),
        "another game's product is not named"
    );
    jxsj2.no_more_outcomes().await;

    // jxsj2's own answer decides it, and jxsj2 is told.
    jxsj2.answer(&order, "delivered", "r-own").await;
    let (_, key, applied) = jxsj2.outcome().await;
    assert_eq!(
        (key.as_str(), said(&applied, "outcome")),
        ("recharge.outcome.jxsj2", "applied")
    );
}
