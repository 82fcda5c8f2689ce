//! Giftcodes of in-game items through the real stack: `POST /api/giftcode/redeem` on the
//! gateway, the recharge service's character check and outbox, the grant on
//! `giftcode.grant.<product>` over RabbitMQ, and the game's acknowledgement back on
//! `giftcode.result.<product>`. Attacks: a game acknowledging another game's grant, a second
//! answer overturning the first, zone errors used to slip past the guessing throttle.

use std::time::Duration;

use futures::StreamExt;
use kid_contracts::{
    game::{Delivery, GiftcodeResult},
    messages::giftcode::{MSG_CODE_ALREADY_REDEEMED, MSG_NO_CHARACTER},
};
use kid_recharge::reference_game;
use kid_testing::portal::{
    Portal, contract_schema, database, get_json, listen, redeem_giftcode, registered, start,
};
use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

const STARTER: &str = "KID-TANTHU";

/// The same request again until the game's answer shows (the reference game answers at once).
async fn settled(http: &Client, portal: &Portal, zone: i64, key: &str) -> Value {
    for _ in 0..100 {
        let (status, body) = redeem_giftcode(http, portal, STARTER, Some(zone), key).await;
        if body["status"] != "sent" {
            assert_eq!(status, StatusCode::OK, "{body}");
            return body;
        }
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the grant was never acknowledged");
}

fn zone_error(body: &Value) -> &str {
    body["errors"]["zoneId"][0]
        .as_str()
        .unwrap_or_else(|| panic!("no errors.zoneId in {body}"))
}

async fn credit_of(http: &Client, portal: &Portal) -> i64 {
    let (_, me) = get_json(http, portal, "/me").await;
    me["credit"].as_i64().expect("credit")
}

/// The redemption's status and the code's uses, as stored.
async fn stored(portal: &Portal, redemption_id: &str) -> (String, i32) {
    sqlx::query_as(
        "select r.status, c.uses from giftcode_redemption r join giftcode c on c.hash = r.code_hash
          where r.id = $1::uuid",
    )
    .bind(redemption_id)
    .fetch_one(&database(portal, "recharge").await)
    .await
    .expect("the redemption")
}

#[tokio::test]
async fn an_item_code_asks_for_a_zone_then_the_game_puts_the_items_on_the_character() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "gift_items").await;
    // A spy beside the reference game sees each grant as a game team's queue does.
    let (_spy, mut grants) = listen(&portal.settings, "giftcode.grant.*", true).await;

    // No zone: the game is named, and its product given so the page can list its zones. A
    // right code refused for its zone is no guess: more than the allowance of ten is answered.
    for attempt in 0..12 {
        let (status, body) =
            redeem_giftcode(&http, &portal, STARTER, None, &format!("no-zone-{attempt}")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(
            zone_error(&body),
            "Hãy chọn máy chủ của Phong Thần Online để nhận quà."
        );
        assert_eq!(body["productCode"], "fsonline");
        assert!(body["errors"].get("code").is_none(), "{body}");
    }
    let (status, body) = redeem_giftcode(&http, &portal, STARTER, Some(4_242), "unknown-zone").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(zone_error(&body), "Máy chủ bạn chọn không tồn tại.");
    // Zone 98: the reference game has no character there.
    let (status, body) = redeem_giftcode(&http, &portal, STARTER, Some(98), "no-character").await;
    assert_eq!(
        (status, zone_error(&body)),
        (StatusCode::UNPROCESSABLE_ENTITY, MSG_NO_CHARACTER)
    );
    assert_eq!(body["productCode"], "fsonline");

    let (status, sent) = redeem_giftcode(&http, &portal, "kid-tanthu", Some(1), "zone-1").await;
    assert!(
        status == StatusCode::ACCEPTED || status == StatusCode::OK,
        "{status} {sent}"
    );
    assert_eq!(sent["campaign"], "Quà tân thủ Phong Thần");
    assert_eq!(sent["kp"], 0);
    assert_eq!(
        sent["items"],
        json!([{ "name": "Rương Tân Thủ", "quantity": 1 }, { "name": "Bùa May Mắn", "quantity": 5 }])
    );
    assert_eq!(sent["destination"]["productName"], "Phong Thần Online");
    assert_eq!(sent["destination"]["zoneId"], 1);
    assert_eq!(sent["destination"]["zoneDescription"], "Máy chủ 1 - Thiên Long");
    assert_eq!(sent["destination"]["characterName"], "gift_items");
    let redemption_id = sent["redemptionId"].as_str().expect("id").to_owned();

    // The grant the game received: the contract's shape, on the product's key, once.
    let delivery = tokio::time::timeout(Duration::from_secs(10), grants.next())
        .await
        .expect("a grant")
        .expect("a delivery")
        .expect("readable");
    assert_eq!(delivery.routing_key.as_str(), "giftcode.grant.fsonline");
    let grant: Value = serde_json::from_slice(&delivery.data).expect("JSON");
    let validator = contract_schema("giftcode-grant.json");
    assert!(validator.is_valid(&grant), "{grant}");
    assert_eq!(grant["grantId"], redemption_id.as_str());
    assert_eq!(grant["username"], "gift_items");
    assert_eq!(grant["zoneId"], 1);
    assert_eq!(grant["items"][0]["itemId"], "fs.ruong-tan-thu");
    assert_eq!(
        delivery.properties.message_id().as_ref().map(|id| id.as_str()),
        grant["messageId"].as_str()
    );

    // The reference game acknowledges; the same key shows it.
    let done = settled(&http, &portal, 1, "zone-1").await;
    assert_eq!(done["status"], "delivered");
    assert_eq!(done["redemptionId"], redemption_id.as_str());
    assert_eq!(stored(&portal, &redemption_id).await.0, "delivered");
    assert_eq!(credit_of(&http, &portal).await, 0, "items, not KP");

    // Once per account.
    let (status, again) = redeem_giftcode(&http, &portal, STARTER, Some(1), "again").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{again}");
    assert_eq!(again["errors"]["code"][0], MSG_CODE_ALREADY_REDEEMED);
    assert!(
        tokio::time::timeout(Duration::from_millis(500), grants.next())
            .await
            .is_err(),
        "no second grant"
    );
}

#[tokio::test]
async fn items_the_game_fails_to_deliver_give_the_code_back() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "gift_retry").await;

    // Zone 99: the reference game fails every grant there.
    let (_, sent) = redeem_giftcode(&http, &portal, STARTER, Some(99), "closed-zone").await;
    let redemption_id = sent["redemptionId"].as_str().expect("id").to_owned();
    let failed = settled(&http, &portal, 99, "closed-zone").await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(failed["message"].as_str().is_some_and(|m| m.contains("dùng lại")));
    let (status, uses) = stored(&portal, &redemption_id).await;
    assert_eq!(status, "failed");

    // The use is back: the same account redeems it on a zone that works.
    let (_, sent) = redeem_giftcode(&http, &portal, STARTER, Some(2), "open-zone").await;
    assert_eq!(
        settled(&http, &portal, 2, "open-zone").await["status"],
        "delivered"
    );
    let second = sent["redemptionId"].as_str().expect("id").to_owned();
    assert_eq!(stored(&portal, &second).await.1, uses + 1);
}

#[tokio::test]
async fn a_game_acknowledging_another_games_grant_or_overturning_an_answer_changes_nothing() {
    // No reference game: this test plays the games, and the character check goes unanswered
    // (the default policy allows the grant, without a character name).
    let portal = start(|settings| {
        settings.recharge.reference_game = false;
        settings.recharge.character_check_timeout = Duration::from_millis(300);
    })
    .await;
    let (http, _) = registered(&portal, "gift_forged").await;
    let (channel, _grants) = listen(&portal.settings, "giftcode.grant.fsonline", true).await;
    channel
        .confirm_select(lapin::options::ConfirmSelectOptions::default())
        .await
        .expect("confirms");
    let (status, sent) = redeem_giftcode(&http, &portal, STARTER, Some(1), "forged").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{sent}");
    assert_eq!(sent["destination"]["characterName"], Value::Null);
    let redemption_id = sent["redemptionId"].as_str().expect("id").to_owned();
    let grant_id = redemption_id.parse().expect("uuid");
    let answer = |status: Delivery, reason: &str| GiftcodeResult {
        schema_version: 1,
        message_id: uuid::Uuid::now_v7().to_string(),
        grant_id,
        status,
        reason: reason.to_owned(),
        occurred_at: Some(time::OffsetDateTime::now_utc()),
    };
    let exchange = portal.settings.amqp.exchange.clone();
    let publish = |product: &'static str, result: GiftcodeResult| {
        let (channel, exchange) = (channel.clone(), exchange.clone());
        async move {
            reference_game::publish_giftcode_result(&channel, &exchange, product, &result)
                .await
                .expect("publish");
        }
    };
    let uses = stored(&portal, &redemption_id).await.1;

    // jxsj2's game fails fsonline's grant: refused, the grant still waits for its own game.
    publish("jxsj2", answer(Delivery::Failed, "not ours")).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(stored(&portal, &redemption_id).await, ("sent".to_owned(), uses));

    // fsonline's own answer decides it; a later failure does not give the code back.
    publish("fsonline", answer(Delivery::Delivered, "")).await;
    let done = settled(&http, &portal, 1, "forged").await;
    assert_eq!(done["status"], "delivered");
    publish("fsonline", answer(Delivery::Failed, "changed our mind")).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(
        stored(&portal, &redemption_id).await,
        ("delivered".to_owned(), uses)
    );
}
