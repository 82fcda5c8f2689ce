//! Every service runs with several replicas in Kubernetes. Here each of the four services runs
//! twice against the same database and broker (two outbox relays per schema, two recharge
//! sweepers, two wallet schedulers, two consumers per queue) while players top up and buy
//! coins, some for a zone whose game never answers. A spy bound to every routing key shows that
//! each event is published once, each overdue order refunded once, and the day's schedule run
//! once when both wallet replicas start together.

use std::{collections::HashMap, time::Duration};

use futures::StreamExt;
use kid_platform::{
    Settings, db,
    service::{Application, ServiceSpec},
};
use kid_testing::portal::{Portal, buy, eventually, fund_at, get_json, registered, start};
use serde_json::{Value, json};
use tokio::{sync::Mutex, task::JoinHandle};
use tokio_util::sync::CancellationToken;

const SCHEMAS: [&str; 4] = ["identity", "wallet", "payment", "recharge"];

/// Every message published on the exchange: (message id, routing key, body).
#[derive(Clone, Default)]
struct Spy(std::sync::Arc<Mutex<Vec<(String, String, Value)>>>);

impl Spy {
    async fn bind(settings: &Settings) -> Self {
        let (channel, mut deliveries) = kid_testing::portal::listen(settings, "#", true).await;
        let spy = Self::default();
        let seen = spy.0.clone();
        tokio::spawn(async move {
            let _channel = channel;
            while let Some(Ok(delivery)) = deliveries.next().await {
                let id = delivery
                    .properties
                    .message_id()
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                let body = serde_json::from_slice(&delivery.data).unwrap_or(Value::Null);
                seen.lock()
                    .await
                    .push((id, delivery.routing_key.to_string(), body));
            }
        });
        spy
    }

    async fn seen(&self) -> Vec<(String, String, Value)> {
        self.0.lock().await.clone()
    }

    async fn with_key(&self, routing_key: &str) -> Vec<Value> {
        self.seen()
            .await
            .into_iter()
            .filter(|(_, key, _)| key == routing_key)
            .map(|(_, _, body)| body)
            .collect()
    }
}

/// A second replica of `spec` beside the portal's: its own port, the same database and broker.
struct Replica {
    address: String,
    stop: CancellationToken,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Replica {
    /// Started with the portal's settings; `wallet` is where the first wallet answers.
    async fn start(settings: &Settings, wallet: &str, spec: &'static ServiceSpec) -> Self {
        let mut settings = settings.clone();
        settings.grpc.host = "127.0.0.1".to_owned();
        settings.grpc.port = 0;
        settings.services.wallet = wallet.to_owned();
        let stop = CancellationToken::new();
        let application = Application::build(spec, settings, stop.clone())
            .await
            .expect("replica starts");
        let address = format!("http://{}", application.address());
        Self {
            address,
            stop,
            task: tokio::spawn(application.run_until_stopped()),
        }
    }

    async fn stop(self) {
        self.stop.cancel();
        self.task
            .await
            .expect("replica joins")
            .expect("replica stops cleanly");
    }
}

async fn outbox_ids(portal: &Portal) -> Vec<(String, Option<String>)> {
    let mut ids = Vec::new();
    for schema in SCHEMAS {
        let pool = db::connect(&portal.settings.database, schema)
            .await
            .expect("pool");
        let rows: Vec<(String, Option<String>)> =
            sqlx::query_as("select id::text, published_at::text from outbox_message")
                .fetch_all(&pool)
                .await
                .expect("outbox");
        ids.extend(rows);
        pool.close().await;
    }
    ids
}

fn order(zone: i64) -> Value {
    json!({ "zoneId": zone, "creditAmount": 20_000, "productCode": "fsonline", "gReCaptchaToken": "dev-captcha" })
}

#[tokio::test]
async fn two_replicas_of_every_service_publish_each_event_once_and_run_each_schedule_once() {
    let mut portal = start(|settings| {
        // Zone 99's game never answers: its orders are refunded by a sweeper after 1.5 s.
        settings.recharge.delivery_deadline = Duration::from_millis(1_500);
        settings.recharge.sweep_interval = Duration::from_millis(100);
    })
    .await;
    let spy = Spy::bind(&portal.settings).await;
    let mut replicas = Vec::new();
    for spec in kid_launcher::SERVICES {
        replicas.push((
            spec.schema,
            Replica::start(&portal.settings, &portal.wallet, spec).await,
        ));
    }
    let second_wallet = replicas
        .iter()
        .find(|(schema, _)| *schema == "wallet")
        .map(|(_, replica)| replica.address.clone())
        .expect("the second wallet");

    // Three players, funded through one wallet replica or the other; each buys two orders the
    // game delivers and two it never answers.
    let mut players = Vec::new();
    for (index, name) in ["replica_a", "replica_b", "replica_c"].into_iter().enumerate() {
        let (http, player) = registered(&portal, name).await;
        let wallet = if index % 2 == 0 {
            portal.wallet.clone()
        } else {
            second_wallet.clone()
        };
        fund_at(&portal, &wallet, player, 100_000).await;
        for (key, zone) in [("d1", 1), ("x1", 99), ("d2", 1), ("x2", 99)] {
            let (status, placed) = buy(&http, &portal, "fsonline", key, &order(zone)).await;
            assert_eq!(status.as_u16(), 201, "{placed}");
        }
        players.push((http, player));
    }

    let recharge = db::connect(&portal.settings.database, "recharge")
        .await
        .expect("pool");
    eventually("every order is delivered or refunded", || async {
        let open: i64 = sqlx::query_scalar(
            "select count(*) from recharge_order where status in ('paying', 'awaiting_delivery')",
        )
        .fetch_one(&recharge)
        .await
        .expect("count");
        (open == 0).then_some(())
    })
    .await;
    let failed: Vec<String> =
        sqlx::query_scalar("select id::text from recharge_order where status = 'failed' order by id")
            .fetch_all(&recharge)
            .await
            .expect("failed orders");
    assert_eq!(failed.len(), 6, "zone 99's orders expire: {failed:?}");

    // Each player paid 40,000 for the delivered pair and got the other 40,000 back once.
    for (http, _) in &players {
        eventually("balance after refunds", || async {
            let (_, me) = get_json(http, &portal, "/me").await;
            (me["credit"] == 60_000).then_some(())
        })
        .await;
    }
    let refunds = spy.with_key(kid_contracts::topics::PAYMENT_REFUND).await;
    for id in &failed {
        let count = refunds
            .iter()
            .filter(|refund| refund["orderId"] == id.as_str())
            .count();
        assert_eq!(count, 1, "order {id} refunded {count} times");
    }

    // The day's partner recalculation: both wallet replicas start together on a day nobody has
    // claimed yet; one claims it and asks once per player.
    let wallet = db::connect(&portal.settings.database, "wallet")
        .await
        .expect("pool");
    let position = replicas
        .iter()
        .position(|(schema, _)| *schema == "wallet")
        .expect("wallet replica");
    let (_, second) = replicas.remove(position);
    second.stop().await;
    portal.stack.stop_service("wallet").await.expect("stops");
    sqlx::query("delete from scheduled_run")
        .execute(&wallet)
        .await
        .expect("reopen the day");
    let (settings, first_wallet) = (portal.settings.clone(), portal.wallet.clone());
    let (restarted, replica) = tokio::join!(
        portal.stack.start_service("wallet"),
        Replica::start(&settings, &first_wallet, &kid_wallet::SERVICE)
    );
    restarted.expect("the first wallet restarts");
    replicas.push(("wallet", replica));
    let daily = eventually("the daily recalculation is asked for each player", || async {
        let daily: Vec<Value> = spy
            .with_key(kid_wallet::events::published::RECALCULATE_PARTNER)
            .await
            .into_iter()
            .filter(|event| event["reason"] == "daily")
            .collect();
        (daily.len() >= players.len()).then_some(daily)
    })
    .await;
    let runs: i64 = sqlx::query_scalar("select count(*) from scheduled_run")
        .fetch_one(&wallet)
        .await
        .expect("runs");
    assert_eq!(runs, 1);

    // Every event of every schema published, and each seen exactly once.
    let published = eventually("every outbox row is published and seen", || async {
        let rows = outbox_ids(&portal).await;
        let seen = spy.seen().await;
        let all_published = rows.iter().all(|(_, at)| at.is_some());
        let all_seen = rows
            .iter()
            .all(|(id, _)| seen.iter().any(|(message, _, _)| message == id));
        (all_published && all_seen).then_some(rows)
    })
    .await;
    // The two schedulers had time to race (each checks at its start).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut times: HashMap<String, usize> = HashMap::new();
    for (id, _, _) in spy.seen().await {
        *times.entry(id).or_default() += 1;
    }
    for (id, _) in &published {
        assert_eq!(
            times.get(id),
            Some(&1),
            "event {id} published {:?} times",
            times.get(id)
        );
    }
    let daily_players: std::collections::HashSet<&str> = daily
        .iter()
        .filter_map(|event| event["userId"].as_str())
        .collect();
    let daily_now = spy
        .with_key(kid_wallet::events::published::RECALCULATE_PARTNER)
        .await
        .into_iter()
        .filter(|event| event["reason"] == "daily")
        .count();
    assert_eq!(
        daily_now,
        players.len(),
        "one daily request per player, not one per replica"
    );
    for (_, player) in &players {
        assert!(daily_players.contains(player.to_string().as_str()));
    }
    // Orders, top-ups and refunds went through the second replicas' relays too: every event
    // was published, whichever relay claimed it, and none twice.
    assert!(published.len() >= 30, "{} events", published.len());

    for (_, replica) in replicas {
        replica.stop().await;
    }
}
