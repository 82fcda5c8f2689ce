//! The game sandbox: the portal's side of the game contract on a local broker, so a game team
//! can test its consumer with nothing but RabbitMQ (`scripts/game-sandbox <productCode>`).
//!
//! It publishes example orders for the product as the portal does (a normal one, one delivered
//! twice, one already past its `deliverBy`, one on zone 99), reads the results the consumer
//! publishes, validates them as the recharge service does ([`crate::domain::result`]), and
//! decides each one's outcome with the recharge service's own rules
//! ([`crate::domain::order::answer_effect`]), ending with a pass or fail for each order.

use std::{collections::HashSet, fmt::Write as _, time::Duration};

use anyhow::Context as _;
use futures::StreamExt;
use kid_contracts::game::{self, Delivery, GameOrder, GameResult, Outcome};
use lapin::{
    BasicProperties, Channel,
    message::Delivery as AmqpDelivery,
    options::{BasicPublishOptions, ConfirmSelectOptions},
};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use uuid::Uuid;

use crate::domain::{
    OrderState,
    catalogue::FAILING_ZONE,
    order::{Effect, answer_effect},
    result,
};

/// Where and for which product the sandbox plays the portal.
#[derive(Debug, Clone)]
pub struct Options {
    pub amqp_url: String,
    pub exchange: String,
    pub product: String,
    /// How long to wait for the consumer's answers.
    pub wait: Duration,
}

/// What a run found: its lines to print, and the failures among them.
#[derive(Debug, Default)]
pub struct Report {
    pub text: String,
    pub failures: Vec<String>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    fn line(&mut self, line: impl AsRef<str>) {
        let _ = writeln!(self.text, "{}", line.as_ref());
    }

    fn fail(&mut self, failure: String) {
        self.line(format!("  FAIL {failure}"));
        self.failures.push(failure);
    }
}

/// One example order and what the portal expects of its answers.
#[derive(Debug)]
struct Case {
    name: &'static str,
    order: GameOrder,
    /// How often it is published (the same message each time, as a redelivery is).
    deliveries: usize,
    /// Where the order stands at the portal when the answers arrive.
    state: OrderState,
    /// Already refunded at its deadline: only `failed` is a right answer.
    past_deadline: bool,
    outcomes: Vec<(Delivery, Outcome)>,
}

impl Case {
    fn new(name: &'static str, product: &str, zone_id: i64, deliver_in: time::Duration) -> Self {
        let now = OffsetDateTime::now_utc();
        let order = GameOrder {
            schema_version: game::SCHEMA_VERSION,
            message_id: Uuid::now_v7(),
            order_id: Uuid::now_v7(),
            transaction_id: Uuid::now_v7(),
            username: "sandbox_player".to_owned(),
            product_code: product.to_owned(),
            zone_id,
            coins: 1_000,
            milestone_bonus: 50,
            event_bonus: 100,
            total_coins: 1_150,
            lottery_points: 10,
            created_at: now,
            deliver_by: now + deliver_in,
        };
        Self {
            name,
            order,
            deliveries: 1,
            state: OrderState::AwaitingDelivery,
            past_deadline: false,
            outcomes: Vec::new(),
        }
    }

    fn answered(&self) -> bool {
        self.outcomes.len() >= self.deliveries
    }
}

fn cases(product: &str) -> Vec<Case> {
    let window = time::Duration::minutes(10);
    let mut twice = Case::new("delivered twice", product, 1, window);
    twice.deliveries = 2;
    let mut past = Case::new("past its deliverBy", product, 1, -time::Duration::minutes(1));
    // The portal refunds an order at its deadline: by the time it is taken, it is failed.
    past.state = OrderState::Failed;
    past.past_deadline = true;
    vec![
        Case::new("normal", product, 1, window),
        twice,
        past,
        Case::new("zone 99", product, FAILING_ZONE, window),
    ]
}

/// Plays the portal for `options.product` once and reports.
pub async fn run(options: &Options) -> anyhow::Result<Report> {
    let connection = kid_platform::amqp::connect(&options.amqp_url, "kid-game-sandbox")
        .await
        .with_context(|| format!("connecting to the broker at {}", redact(&options.amqp_url)))?;
    let channel = connection.create_channel().await?;
    kid_platform::amqp::declare_exchanges(&channel, &options.exchange).await?;
    // The portal's results queue for the product, private to this run.
    let results = kid_platform::amqp::consume_private(
        &channel,
        &options.exchange,
        &game::result_routing_key(&options.product),
        true,
    )
    .await?;
    channel.confirm_select(ConfirmSelectOptions::default()).await?;

    let mut report = Report::default();
    report.line(format!(
        "kid-game-sandbox: playing the portal for {} on exchange {}",
        options.product, options.exchange
    ));
    let mut cases = cases(&options.product);
    for case in &cases {
        for _ in 0..case.deliveries {
            if !publish_order(&channel, options, &case.order).await? {
                report.fail(format!(
                    "no queue is bound to {}: start your consumer (it declares and binds its queue) first",
                    game::order_routing_key(&options.product)
                ));
                return Ok(report);
            }
        }
        report.line(format!(
            "  sent order {} ({}, zone {}, deliverBy {}) {}",
            case.order.order_id,
            case.name,
            case.order.zone_id,
            case.order.deliver_by.format(&Rfc3339).unwrap_or_default(),
            if case.deliveries > 1 {
                "twice, as a redelivery"
            } else {
                "once"
            },
        ));
    }

    let mut seen = HashSet::new();
    let deadline = tokio::time::Instant::now() + options.wait;
    let mut results = results;
    loop {
        // Once every order has its answers, a second more for any stray one.
        let until = if cases.iter().all(Case::answered) {
            deadline.min(tokio::time::Instant::now() + Duration::from_secs(1))
        } else {
            deadline
        };
        let Ok(Some(delivery)) = tokio::time::timeout_at(until, results.next()).await else {
            break;
        };
        judge(&delivery?, &mut cases, &mut seen, &options.product, &mut report);
    }
    conclude(&cases, options, &mut report);
    connection.close(200, "done".into()).await.ok();
    Ok(report)
}

/// Publishes an order as the portal's outbox does; `false` when no queue took it.
async fn publish_order(channel: &Channel, options: &Options, order: &GameOrder) -> anyhow::Result<bool> {
    let confirm = channel
        .basic_publish(
            options.exchange.as_str().into(),
            game::order_routing_key(&options.product).as_str().into(),
            BasicPublishOptions {
                mandatory: true,
                ..BasicPublishOptions::default()
            },
            &serde_json::to_vec(order)?,
            BasicProperties::default()
                .with_message_id(order.message_id.to_string().into())
                .with_content_type("application/json".into())
                .with_delivery_mode(2),
        )
        .await?
        .await?;
    Ok(confirm.is_ack() && confirm.take_message().is_none())
}

/// Reads one result as the recharge service would, and says its outcome.
fn judge(
    delivery: &AmqpDelivery,
    cases: &mut [Case],
    seen: &mut HashSet<String>,
    product: &str,
    report: &mut Report,
) {
    let properties = &delivery.properties;
    let Some(message_id) = properties.message_id().as_ref().map(ToString::to_string) else {
        report.line(format!(
            "  result without message_id → rejected: {}",
            result::REASON_NO_MESSAGE_ID
        ));
        report.fail(format!(
            "a result had no AMQP message_id property (body: {}); the portal dead-letters it and never reads it",
            preview(&delivery.data)
        ));
        return;
    };
    if !seen.insert(message_id.clone()) {
        report.line(format!(
            "  result {message_id} again: the same message, dropped by the portal's inbox (no outcome)"
        ));
        return;
    }
    let read = match result::read(&delivery.data) {
        Ok(read) => read,
        Err(unreadable) => {
            report.line(format!("  result {message_id} → rejected: {}", unreadable.reason));
            report.fail(format!("result {message_id} was rejected: {}", unreadable.reason));
            return;
        }
    };
    if read.message_id != message_id {
        report.fail(format!(
            "result {message_id}: its body's messageId is {:?}; set the message_id property and messageId to the same new id",
            read.message_id
        ));
    }
    if properties.delivery_mode() != &Some(2) {
        report.fail(format!(
            "result {message_id} was not persistent (delivery_mode 2): a broker restart would lose it"
        ));
    }
    let Some(case) = cases.iter_mut().find(|case| case.order.order_id == read.order_id) else {
        let (_, reason) = result::outcome(Effect::UnknownOrder, &read, product);
        report.line(format!("  result {message_id} → rejected: {reason}"));
        report.fail(format!("result {message_id} was rejected: {reason}"));
        return;
    };
    let effect = answer_effect(case.state, read.status).unwrap_or(Effect::Duplicate);
    let (outcome, reason) = result::outcome(effect, &read, product);
    if effect == Effect::Applied {
        case.state = match read.status {
            Delivery::Delivered => OrderState::Delivered,
            Delivery::Failed => OrderState::Failed,
        };
    }
    report.line(format!(
        "  order {} ({}) ← result {message_id} {}{} → {}: {reason}",
        case.order.order_id,
        case.name,
        read.status.as_str(),
        reason_of(&read),
        outcome.as_str(),
    ));
    case.outcomes.push((read.status, outcome));
}

fn reason_of(read: &GameResult) -> String {
    if read.reason.is_empty() {
        String::new()
    } else {
        format!(" ({:?})", read.reason)
    }
}

/// Each order's verdict and the summary.
fn conclude(cases: &[Case], options: &Options, report: &mut Report) {
    let wait = options.wait.as_secs();
    for case in cases {
        let order = case.order.order_id;
        let first = case.outcomes.first().copied();
        match first {
            None => report.fail(format!(
                "order {order} ({}) got no answer the portal could read within {wait} s",
                case.name
            )),
            Some((Delivery::Delivered, _)) if case.past_deadline => report.fail(format!(
                "order {order} was credited after its deliverBy: the portal had refunded it, so the player would \
                 have the coins and the KP; answer `failed` (e.g. \"received after deliverBy\") without crediting"
            )),
            Some(_) if case.past_deadline => {}
            Some((_, Outcome::Applied)) => {}
            Some((status, outcome)) => report.fail(format!(
                "order {order} ({}): the first result ({}) was {}",
                case.name,
                status.as_str(),
                outcome.as_str()
            )),
        }
        if case.deliveries > 1 && case.outcomes.len() < case.deliveries && first.is_some() {
            report.fail(format!(
                "order {order} came {} times and was answered {} time(s): answer a redelivered order again with \
                 its stored result (a new messageId), without crediting it again",
                case.deliveries,
                case.outcomes.len()
            ));
        }
        if let Some((status, outcome)) = case
            .outcomes
            .iter()
            .skip(1)
            .find(|(_, outcome)| *outcome != Outcome::Duplicate)
        {
            report.fail(format!(
                "order {order} ({}) was answered differently later ({} → {}): deduplicate by orderId and repeat \
                 the first answer",
                case.name,
                status.as_str(),
                outcome.as_str()
            ));
        }
    }
    let total = cases.len();
    if report.passed() {
        report.line(format!(
            "PASS: {total} of {total} orders answered as the portal expects"
        ));
    } else {
        report.line(format!("FAIL: {} problem(s):", report.failures.len()));
        for failure in report.failures.clone() {
            report.line(format!("  - {failure}"));
        }
    }
}

/// The first bytes of a body, for a message that cannot be named otherwise.
fn preview(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let cut: String = text.chars().take(120).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

/// The broker URL without its password.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let credentials = &url[scheme + 3..at];
            let user = credentials.split(':').next().unwrap_or_default();
            format!("{}{user}:***{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_owned(),
    }
}
