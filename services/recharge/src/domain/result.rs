//! A game's result as the portal reads it (docs/game-contract/schemas/recharge-result.json),
//! and the outcome the game is told on `recharge.outcome.<productCode>`. Without I/O, so the
//! recharge service and the game sandbox (`kid-game-sandbox`) decide alike.

use std::sync::LazyLock;

use kid_contracts::game::{Delivery, GameResult, Outcome};
use serde::Deserialize as _;
use serde_json::Value;
use uuid::Uuid;

use super::order::Effect;

/// The contract's schema of a result, as game teams read it.
pub const SCHEMA_SOURCE: &str = include_str!("../../../../docs/game-contract/schemas/recharge-result.json");

static SCHEMA: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(SCHEMA_SOURCE).expect("the result schema is JSON");
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the result schema compiles")
});

/// At most this many schema errors are named in one outcome.
const ERRORS_NAMED: usize = 5;

/// Why a result without an AMQP `message_id` was not read.
pub const REASON_NO_MESSAGE_ID: &str = "the result has no AMQP message_id property, so it was dead-lettered unread: \
     set message_id to the body's messageId (new for each result message) and publish the result again";

/// A result the portal could not take as one: what to fix, and what of it could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub reason: String,
    /// The body's `messageId` and `orderId`, when the body was JSON that had them.
    pub message_id: Option<String>,
    pub order_id: Option<Uuid>,
}

/// Reads a result's body as the contract says: JSON, valid against the result schema.
pub fn read(body: &[u8]) -> Result<GameResult, Unreadable> {
    let value: Value = serde_json::from_slice(body).map_err(|error| Unreadable {
        reason: format!(
            "the body is not JSON ({error}): publish the whole result as one UTF-8 JSON object, \
             with a new messageId"
        ),
        message_id: None,
        order_id: None,
    })?;
    let unreadable = |reason: String| Unreadable {
        reason,
        message_id: value["messageId"].as_str().map(str::to_owned),
        order_id: value["orderId"].as_str().and_then(|id| id.parse().ok()),
    };
    let errors: Vec<String> = SCHEMA
        .iter_errors(&value)
        .map(|error| {
            let path = error.instance_path().to_string();
            let at = if path.is_empty() {
                "the body".to_owned()
            } else {
                path
            };
            format!("{at}: {error}")
        })
        .collect();
    if !errors.is_empty() {
        let named = errors
            .iter()
            .take(ERRORS_NAMED)
            .cloned()
            .collect::<Vec<_>>()
            .join("; ");
        let more = errors.len().saturating_sub(ERRORS_NAMED);
        let more = if more > 0 {
            format!(" (and {more} more)")
        } else {
            String::new()
        };
        return Err(unreadable(format!(
            "the body does not match schemas/recharge-result.json: {named}{more}; \
             fix it and publish the result again with a new messageId"
        )));
    }
    GameResult::deserialize(&value)
        .map_err(|error| unreadable(format!("the body could not be read as a result ({error})")))
}

/// The outcome a read result gets from `effect`, and its reason; `claimed_product` is the
/// product of the routing key it came on.
pub fn outcome(effect: Effect, result: &GameResult, claimed_product: &str) -> (Outcome, String) {
    let order = result.order_id;
    match effect {
        Effect::Applied => match result.status {
            Delivery::Delivered => (
                Outcome::Applied,
                "the first result for this order: it is delivered and complete".to_owned(),
            ),
            Delivery::Failed => (
                Outcome::Applied,
                "the first result for this order: it failed and the player's KP is refunded".to_owned(),
            ),
        },
        Effect::Duplicate => (
            Outcome::Duplicate,
            format!(
                "the order was already {}; this result changed nothing",
                match result.status {
                    Delivery::Delivered => "delivered",
                    Delivery::Failed => "failed and refunded",
                }
            ),
        ),
        Effect::Late => (
            Outcome::Late,
            "delivered after the order was refunded (no result came before its deliverBy): kept for \
             support and not paid again; take the coins back, Kid support contacts you with the \
             orderId and transactionId"
                .to_owned(),
        ),
        Effect::Conflicting => (
            Outcome::Conflicting,
            "failed after the order was delivered: kept, nothing changed, the coins stay on the character"
                .to_owned(),
        ),
        Effect::UnknownOrder => (
            Outcome::Rejected,
            format!(
                "no order {order} was sent to {claimed_product}: answer only the orders you received, \
                 with their orderId"
            ),
        ),
        Effect::Rejected => (
            Outcome::Rejected,
            format!(
                "order {order} is not a {claimed_product} order: answer each order only on its own \
                 product's key, recharge.result.<its productCode>; nothing changed"
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn body(value: &Value) -> Vec<u8> {
        serde_json::to_vec(value).unwrap()
    }

    fn delivered() -> Value {
        json!({
            "schemaVersion": 1,
            "messageId": "m-1",
            "orderId": "058658a6-a5b2-4ac3-ad0b-5c7cf5901a2c",
            "status": "delivered",
            "occurredAt": "2025-06-01T02:30:02Z"
        })
    }

    #[test]
    fn the_contracts_examples_are_read() {
        for example in [
            include_str!("../../../../docs/game-contract/examples/result-delivered.json"),
            include_str!("../../../../docs/game-contract/examples/result-failed.json"),
        ] {
            assert!(read(example.as_bytes()).is_ok(), "{example}");
        }
        assert_eq!(read(&body(&delivered())).unwrap().status, Delivery::Delivered);
    }

    #[test]
    fn a_truncated_body_is_named_not_json() {
        let whole = body(&delivered());
        let refused = read(&whole[..whole.len() / 2]).unwrap_err();
        assert!(
            refused
                .reason
                .starts_with("the body is not JSON (EOF while parsing"),
            "{}",
            refused.reason
        );
        assert_eq!(refused.message_id, None);
    }

    #[test]
    fn each_schema_failure_names_the_field_and_keeps_the_ids() {
        let mut pending = delivered();
        pending["status"] = json!("pending");
        let refused = read(&body(&pending)).unwrap_err();
        assert!(
            refused.reason.contains("/status: \"pending\" is not one of"),
            "{}",
            refused.reason
        );
        assert_eq!(refused.message_id.as_deref(), Some("m-1"));
        assert_eq!(
            refused.order_id,
            Some("058658a6-a5b2-4ac3-ad0b-5c7cf5901a2c".parse().unwrap())
        );

        let mut failed = delivered();
        failed["status"] = json!("failed");
        let refused = read(&body(&failed)).unwrap_err();
        assert!(
            refused.reason.contains("\"reason\" is a required property"),
            "{}",
            refused.reason
        );

        let mut wrong = delivered();
        wrong["orderId"] = json!("order-1");
        wrong["schemaVersion"] = json!(2);
        wrong["occurredAt"] = json!("yesterday");
        let refused = read(&body(&wrong)).unwrap_err();
        for named in ["/orderId", "/schemaVersion", "/occurredAt"] {
            assert!(refused.reason.contains(named), "{named} in {}", refused.reason);
        }
        assert_eq!(refused.order_id, None);
    }
}
