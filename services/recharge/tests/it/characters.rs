//! The character check before any KP moves: the recharge service asks the game over RabbitMQ
//! whether the player has a character on the zone, and takes the answer only on the asked
//! product's `character.answer.<product>` key. Against the reference
//! game (a character named after the player on every zone but 98), a game bound but silent,
//! and no game at all, under both policies for an unanswered check.

use std::time::Duration;

use futures::StreamExt;

use kid_contracts::game::CharacterQuery;
use kid_platform::{config::UnansweredCheck, db};
use kid_recharge::{domain::catalogue::NO_CHARACTER_ZONE, reference_game};
use kid_testing::portal::{Portal, buy, contract_schema, fund, get_json, listen, registered, start};
use reqwest::{Client, StatusCode};
use serde_json::{Value, json};

fn order(zone: i64) -> Value {
    json!({ "zoneId": zone, "creditAmount": 20_000, "productCode": "fsonline", "gReCaptchaToken": "dev-captcha" })
}

async fn credit_of(http: &Client, portal: &Portal) -> i64 {
    let (_, me) = get_json(http, portal, "/me").await;
    me["credit"].as_i64().expect("credit")
}

async fn orders_of(portal: &Portal) -> i64 {
    let pool = db::connect(&portal.settings.database, "recharge")
        .await
        .expect("pool");
    sqlx::query_scalar("select count(*) from recharge_order")
        .fetch_one(&pool)
        .await
        .expect("count")
}

#[tokio::test]
async fn the_game_names_the_character_or_says_there_is_none() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "hero_one").await;
    // A spy beside the reference game sees each query as a game team's queue does.
    let (_spy, mut queries) = listen(&portal.settings, "character.check.*", true).await;

    let (status, found) = get_json(
        &http,
        &portal,
        "/payment/coin-recharge/fsonline/character?zoneId=1",
    )
    .await;
    assert_eq!((status, found), (StatusCode::OK, json!({ "name": "hero_one" })));
    let (status, none) = get_json(
        &http,
        &portal,
        "/payment/coin-recharge/fsonline/character?zoneId=98",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{none}");
    assert!(
        none["message"].as_str().is_some_and(|m| m.contains("nhân vật")),
        "{none}"
    );

    let query = tokio::time::timeout(Duration::from_secs(5), queries.next())
        .await
        .expect("a query reached the spy")
        .expect("a delivery")
        .expect("delivery");
    let body: Value = serde_json::from_slice(&query.data).expect("JSON");
    let errors: Vec<String> = contract_schema("character-query.json")
        .iter_errors(&body)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{body} breaks the contract: {errors:?}");
    assert_eq!(
        (query.routing_key.as_str(), &body["zoneId"]),
        ("character.check.fsonline", &json!(1))
    );
    let properties = &query.properties;
    assert_eq!(
        properties.correlation_id().as_ref().map(|id| id.as_str()),
        body["messageId"].as_str()
    );
    assert_eq!(
        properties.reply_to().as_ref().map(|to| to.as_str()),
        Some("character.answer.fsonline")
    );
    assert_eq!(
        properties.expiration().as_ref().map(|ms| ms.as_str()),
        Some("2000")
    );
    // The reference game's answers, found and missing, meet the answer's schema.
    let mut asked: CharacterQuery = serde_json::from_value(body).expect("a query");
    let answer = contract_schema("character-answer.json");
    for zone in [1, NO_CHARACTER_ZONE] {
        asked.zone_id = zone;
        let answered = serde_json::to_value(reference_game::character(&asked)).expect("JSON");
        assert!(answer.is_valid(&answered), "{answered}");
    }

    for (query, field) in [
        ("", "zoneId"),
        ("?zoneId=abc", "zoneId"),
        ("?zoneId=12345", "zoneId"),
    ] {
        let (status, body) = get_json(
            &http,
            &portal,
            &format!("/payment/coin-recharge/fsonline/character{query}"),
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{query}: {body}");
        assert!(body["errors"][field].is_array(), "{query}: {body}");
    }
    let (status, _) = get_json(
        &http,
        &portal,
        "/payment/coin-recharge/nosuchgame/character?zoneId=1",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = get_json(
        &kid_testing::portal::client(),
        &portal,
        "/payment/coin-recharge/fsonline/character?zoneId=1",
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_order_for_a_zone_without_a_character_is_refused_before_any_kp_moves() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "no_hero").await;
    fund(&portal, player, 50_000).await;

    let (status, body) = buy(&http, &portal, "fsonline", "no-hero-1", &order(98)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["errors"]["zoneId"][0]
            .as_str()
            .is_some_and(|m| m.contains("nhân vật")),
        "{body}"
    );
    assert_eq!(credit_of(&http, &portal).await, 50_000, "no KP moved");
    assert_eq!(orders_of(&portal).await, 0, "no order stored");

    // The same player on a zone with a character pays as always.
    let (status, body) = buy(&http, &portal, "fsonline", "no-hero-2", &order(1)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(credit_of(&http, &portal).await, 30_000);
}

/// A game team's queue bound to the product's character checks that nobody consumes: the
/// game is up on the broker but does not answer.
async fn silent_game(portal: &Portal) -> lapin::Channel {
    let (channel, _deliveries) = listen(&portal.settings, "character.check.fsonline", false).await;
    channel
}

#[tokio::test]
async fn a_silent_game_is_refused_when_the_policy_refuses_and_nothing_moves() {
    let portal = start(|settings| {
        settings.recharge.reference_game = false;
        settings.recharge.character_check_timeout = Duration::from_millis(300);
        settings.recharge.character_check_unanswered = UnansweredCheck::Refuse;
    })
    .await;
    let _game = silent_game(&portal).await;
    let (http, player) = registered(&portal, "silent_refused").await;
    fund(&portal, player, 50_000).await;

    let (status, body) = get_json(
        &http,
        &portal,
        "/payment/coin-recharge/fsonline/character?zoneId=1",
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    let message = body["message"].as_str().expect("message").to_owned();
    assert!(message.contains("nhân vật"), "the player's own message: {body}");

    let (status, body) = buy(&http, &portal, "fsonline", "silent-1", &order(1)).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some(message.as_str()))
    );
    assert_eq!(credit_of(&http, &portal).await, 50_000, "no KP moved");
    assert_eq!(orders_of(&portal).await, 0, "no order stored");
}

#[tokio::test]
async fn with_no_game_listening_the_allow_policy_places_the_order_for_the_refund_to_cover() {
    let portal = start(|settings| {
        settings.recharge.reference_game = false;
        settings.recharge.character_check_unanswered = UnansweredCheck::Allow;
    })
    .await;
    let (http, player) = registered(&portal, "nobody_home").await;
    fund(&portal, player, 50_000).await;

    let (status, body) = buy(&http, &portal, "fsonline", "allowed-1", &order(1)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(credit_of(&http, &portal).await, 30_000);
    assert_eq!(orders_of(&portal).await, 1);
}

/// A game answering the first character check it sees on `key`, found with `name`.
async fn answer_first_check(
    portal: &Portal,
    key: &'static str,
    name: &'static str,
) -> tokio::task::JoinHandle<()> {
    let (channel, mut queries) = listen(&portal.settings, "character.check.fsonline", true).await;
    let exchange = portal.settings.amqp.exchange.clone();
    tokio::spawn(async move {
        let Some(Ok(query)) = queries.next().await else {
            return;
        };
        let answer = json!({ "schemaVersion": 1, "found": true, "name": name });
        let mut properties = lapin::BasicProperties::default();
        if let Some(id) = query.properties.correlation_id() {
            properties = properties.with_correlation_id(id.clone());
        }
        channel
            .basic_publish(
                exchange.as_str().into(),
                key.into(),
                lapin::options::BasicPublishOptions::default(),
                &serde_json::to_vec(&answer).expect("json"),
                properties,
            )
            .await
            .expect("publish");
    })
}

#[tokio::test]
async fn another_games_answer_to_a_character_check_is_not_taken() {
    let portal = start(|settings| {
        settings.recharge.reference_game = false;
        settings.recharge.character_check_timeout = Duration::from_millis(1500);
        settings.recharge.character_check_unanswered = UnansweredCheck::Refuse;
    })
    .await;
    let (http, _) = registered(&portal, "forged_hero").await;
    // Another game answers fsonline's check, with the right correlation id, on its own key.
    let forger = answer_first_check(&portal, "character.answer.jxonline2", "forged").await;
    let (status, body) = get_json(
        &http,
        &portal,
        "/payment/coin-recharge/fsonline/character?zoneId=1",
    )
    .await;
    assert_eq!(
        status,
        StatusCode::SERVICE_UNAVAILABLE,
        "unanswered, not forged: {body}"
    );
    forger.await.expect("forger");
    // fsonline's own game, on its key, is taken.
    let game = answer_first_check(&portal, "character.answer.fsonline", "real_hero").await;
    let (status, body) = get_json(
        &http,
        &portal,
        "/payment/coin-recharge/fsonline/character?zoneId=1",
    )
    .await;
    assert_eq!((status, body), (StatusCode::OK, json!({ "name": "real_hero" })));
    game.await.expect("game");
}
