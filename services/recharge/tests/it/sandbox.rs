//! The game sandbox (`kid-game-sandbox`, `scripts/game-sandbox`) against real consumers on the
//! real broker: the reference game passes it; a consumer that answers without `message_id`
//! fails it, and the report says why.

use std::time::Duration;

use futures::StreamExt;
use kid_contracts::game::{GameOrder, GameResult};
use kid_platform::Settings;
use kid_recharge::{
    reference_game::{self, ReferenceGame},
    sandbox::{self, Options},
};
use lapin::{
    BasicProperties,
    options::{BasicAckOptions, BasicPublishOptions, QueueDeleteOptions},
};
use secrecy::ExposeSecret;
use tokio_util::sync::CancellationToken;

async fn settings() -> Settings {
    kid_testing::isolated_settings().await.expect("settings")
}

fn options(settings: &Settings, product: &str) -> Options {
    Options {
        amqp_url: settings.amqp.url.expose_secret().to_owned(),
        exchange: settings.amqp.exchange.clone(),
        product: product.to_owned(),
        wait: Duration::from_secs(10),
    }
}

/// What the portal has done before any game starts: its exchange declared (a game's user may
/// not declare it, only bind to it). And a queue an earlier run (or an earlier version of the
/// contract, with other arguments) left on the broker deleted.
async fn portal_running_without(settings: &Settings, queue: &str) {
    let connection = kid_platform::amqp::connect(settings.amqp.url.expose_secret(), "sandbox-test")
        .await
        .expect("broker");
    let channel = connection.create_channel().await.expect("channel");
    kid_platform::amqp::declare_exchanges(&channel, &settings.amqp.exchange)
        .await
        .expect("the portal's exchange");
    channel
        .queue_delete(queue.into(), QueueDeleteOptions::default())
        .await
        .expect("delete");
}

#[tokio::test]
async fn the_reference_consumer_passes_the_sandbox() {
    let settings = settings().await;
    portal_running_without(&settings, "game.jxonline2.recharge-orders").await;
    // Declared and bound before the sandbox sends its first order.
    let game = ReferenceGame::for_product(&settings, "jxonline2")
        .await
        .expect("the game declares and binds its queues");
    let shutdown = CancellationToken::new();
    let running = tokio::spawn(game.run(shutdown.clone()));

    let report = sandbox::run(&options(&settings, "jxonline2"))
        .await
        .expect("sandbox");
    shutdown.cancel();
    running.await.expect("game");
    println!("{}", report.text);
    assert!(report.passed(), "{}", report.text);
    for seen in [
        "(normal) ← result",
        "(delivered twice) ← result",
        "→ duplicate: the order was already delivered",
        "(past its deliverBy) ← result",
        "failed (\"received after deliverBy\") → duplicate",
        "(zone 99) ← result",
        "failed (\"zone 99 is closed\") → applied",
        "PASS: 4 of 4 orders",
    ] {
        assert!(report.text.contains(seen), "{seen:?} in\n{}", report.text);
    }
}

#[tokio::test]
async fn a_consumer_answering_without_message_id_fails_the_sandbox_and_is_told_why() {
    let settings = settings().await;
    // A consumer that does everything right but set the message_id property.
    let (channel, mut orders) = kid_testing::portal::listen(&settings, "recharge.order.jxsj2", false).await;
    let exchange = settings.amqp.exchange.clone();
    let consumer = tokio::spawn(async move {
        while let Some(Ok(delivery)) = orders.next().await {
            let order: GameOrder = serde_json::from_slice(&delivery.data).expect("order");
            let result = GameResult {
                occurred_at: Some(time::OffsetDateTime::now_utc()),
                ..reference_game::answer(&order)
            };
            channel
                .basic_publish(
                    exchange.as_str().into(),
                    "recharge.result.jxsj2".into(),
                    BasicPublishOptions::default(),
                    &serde_json::to_vec(&result).expect("JSON"),
                    BasicProperties::default()
                        .with_content_type("application/json".into())
                        .with_delivery_mode(2),
                )
                .await
                .expect("publish");
            delivery.ack(BasicAckOptions::default()).await.expect("ack");
        }
    });

    let wait = Options {
        wait: Duration::from_secs(4),
        ..options(&settings, "jxsj2")
    };
    let report = sandbox::run(&wait).await.expect("sandbox");
    consumer.abort();
    println!("{}", report.text);
    assert!(!report.passed());
    assert!(report.text.contains("FAIL: "), "{}", report.text);
    let without_id: Vec<_> = report
        .failures
        .iter()
        .filter(|failure| failure.contains("had no AMQP message_id property"))
        .collect();
    assert_eq!(
        without_id.len(),
        5,
        "each of the five answers: {:?}",
        report.failures
    );
    assert!(
        report.text.contains("set message_id to the body's messageId"),
        "{}",
        report.text
    );
    assert!(
        report
            .failures
            .iter()
            .any(|failure| failure.contains("got no answer")),
        "no order counts as answered: {:?}",
        report.failures
    );
}

#[tokio::test]
async fn the_sandbox_says_when_no_consumer_is_bound() {
    let settings = settings().await;
    let report = sandbox::run(&options(&settings, "fsonline"))
        .await
        .expect("sandbox");
    assert!(!report.passed());
    assert!(
        report.failures[0].contains("no queue is bound to recharge.order.fsonline"),
        "{:?}",
        report.failures
    );
}
