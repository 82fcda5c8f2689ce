//! The contract with game teams (docs/game-contract): orders we publish per product, and the
//! delivery results games publish back, on the events exchange. The routing keys and bodies are
//! checked against the AsyncAPI document's schemas by the game-contract tests.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

/// The only version of both messages so far; changes within it are additive.
pub const SCHEMA_VERSION: u32 = 1;

/// `recharge.order.<productCode>`: a game team binds its queue to its own product's key.
pub fn order_routing_key(product_code: &str) -> String {
    format!("recharge.order.{product_code}")
}

/// Every product's orders (the reference game's binding).
pub const ALL_ORDERS: &str = "recharge.order.*";

/// `recharge.result.<productCode>`: games answer here.
pub fn result_routing_key(product_code: &str) -> String {
    format!("recharge.result.{product_code}")
}

pub const ALL_RESULTS: &str = "recharge.result.*";

/// The product a result's routing key names, `recharge.result.<productCode>`.
pub fn result_product(routing_key: &str) -> Option<&str> {
    routing_key.strip_prefix("recharge.result.")
}

/// `recharge.outcome.<productCode>`: what the portal did with each result a game published on
/// `recharge.result.<productCode>`, sent to that same product's game.
pub fn outcome_routing_key(product_code: &str) -> String {
    format!("recharge.outcome.{product_code}")
}

/// What a result did (schemas/result-outcome.json).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The first result for an order awaiting delivery: it decided the order.
    Applied,
    /// The order was already decided the same way: nothing changed.
    Duplicate,
    /// `delivered` after the order was refunded at its deadline: kept for support, never paid.
    Late,
    /// `failed` after the order was delivered: kept, nothing changed.
    Conflicting,
    /// Not read as a result for one of the product's orders: the reason says what to fix.
    Rejected,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::Duplicate => "duplicate",
            Self::Late => "late",
            Self::Conflicting => "conflicting",
            Self::Rejected => "rejected",
        }
    }
}

/// The portal's word on one result (schemas/result-outcome.json), published through the
/// recharge service's outbox on [`outcome_routing_key`] of the product the result came on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultOutcome {
    pub schema_version: u32,
    /// The result's AMQP `message_id` (or, when it had none, its body's `messageId` if that
    /// could be read); `None` when neither was there.
    pub result_message_id: Option<String>,
    /// The result's `orderId`, when its body could be read that far.
    pub order_id: Option<Uuid>,
    pub outcome: Outcome,
    /// What happened, and for `rejected` exactly what to fix.
    pub reason: String,
    #[serde(with = "time::serde::rfc3339")]
    pub occurred_at: OffsetDateTime,
    /// For a result without a `message_id`: the AMQP properties it did carry, so the game can
    /// tell which message it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<BTreeMap<String, String>>,
}

/// An order for a game to credit (schemas/recharge-order.json).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameOrder {
    pub schema_version: u32,
    /// Also the AMQP message id.
    pub message_id: Uuid,
    pub order_id: Uuid,
    /// The KP ledger's credit.pay transaction.
    pub transaction_id: Uuid,
    pub username: String,
    pub product_code: String,
    pub zone_id: i64,
    pub coins: i64,
    pub milestone_bonus: i64,
    pub event_bonus: i64,
    /// What the character receives: coins and both bonuses.
    pub total_coins: i64,
    pub lottery_points: i64,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// After this the order is refunded; a later delivery is not paid again.
    #[serde(with = "time::serde::rfc3339")]
    pub deliver_by: OffsetDateTime,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Delivery {
    Delivered,
    Failed,
}

impl Delivery {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Delivered => "delivered",
            Self::Failed => "failed",
        }
    }
}

/// A game's answer to an order (schemas/recharge-result.json).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameResult {
    pub schema_version: u32,
    pub message_id: String,
    pub order_id: Uuid,
    pub status: Delivery,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub occurred_at: Option<OffsetDateTime>,
}

/// `character.check.<productCode>`: before any KP moves, the recharge service asks the game of
/// the product whether the player has a character on the chosen zone. A request and a reply:
/// the query carries AMQP `reply_to` (which names [`character_answer_routing_key`]) and
/// `correlation_id`, and the game publishes its [`CharacterAnswer`] to the portal's exchange
/// with that routing key and the same `correlation_id`. (Not to the default exchange: a game's
/// user may not write there, where any queue is reachable by name.) Queries are transient and
/// expire with the asker's deadline: a game that is down misses none it could still have
/// answered.
pub fn character_routing_key(product_code: &str) -> String {
    format!("character.check.{product_code}")
}

/// `character.answer.<productCode>`: where the game of the product answers character checks,
/// on the portal's exchange. A game's broker user may publish only its own product's key, and
/// the recharge service takes an answer only on the key of the product it asked.
pub fn character_answer_routing_key(product_code: &str) -> String {
    format!("character.answer.{product_code}")
}

/// Every product's character checks (the reference game's binding).
pub const ALL_CHARACTER_CHECKS: &str = "character.check.*";

/// Every product's character answers (the recharge service's binding).
pub const ALL_CHARACTER_ANSWERS: &str = "character.answer.*";

/// Does `username` have a character on `zoneId`? (schemas/character-query.json)
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CharacterQuery {
    pub schema_version: u32,
    /// Also the AMQP message id.
    pub message_id: Uuid,
    pub username: String,
    pub product_code: String,
    pub zone_id: i64,
}

/// The game's answer (schemas/character-answer.json): the character's name when it has one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CharacterAnswer {
    pub schema_version: u32,
    pub found: bool,
    /// The character's name as the game shows it (when `found`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `giftcode.grant.<productCode>`: in-game items a player redeemed a giftcode for, for the
/// game of the product to put on the character. Published like an order (persistent, from the
/// redemption's transaction through the outbox); the game answers on
/// [`giftcode_result_routing_key`].
pub fn giftcode_grant_routing_key(product_code: &str) -> String {
    format!("giftcode.grant.{product_code}")
}

/// Every product's giftcode grants (the reference game's binding).
pub const ALL_GIFTCODE_GRANTS: &str = "giftcode.grant.*";

/// The product a giftcode grant's routing key names, `giftcode.grant.<productCode>`.
pub fn giftcode_grant_product(routing_key: &str) -> Option<&str> {
    routing_key.strip_prefix("giftcode.grant.")
}

/// `giftcode.result.<productCode>`: games acknowledge grants here.
pub fn giftcode_result_routing_key(product_code: &str) -> String {
    format!("giftcode.result.{product_code}")
}

pub const ALL_GIFTCODE_RESULTS: &str = "giftcode.result.*";

/// The product a giftcode result's routing key names, `giftcode.result.<productCode>`.
pub fn giftcode_result_product(routing_key: &str) -> Option<&str> {
    routing_key.strip_prefix("giftcode.result.")
}

/// One kind of item, in the game's own id and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GiftItem {
    pub item_id: String,
    pub name: String,
    pub quantity: i64,
}

/// Items for a game to put on a character (schemas/giftcode-grant.json).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GiftcodeGrant {
    pub schema_version: u32,
    /// Also the AMQP message id.
    pub message_id: Uuid,
    /// The redemption; deduplicate by this.
    pub grant_id: Uuid,
    pub username: String,
    pub product_code: String,
    pub zone_id: i64,
    /// The campaign's name, as the player saw it.
    pub campaign: String,
    pub items: Vec<GiftItem>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// A game's acknowledgement of a grant (schemas/giftcode-result.json).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GiftcodeResult {
    pub schema_version: u32,
    pub message_id: String,
    pub grant_id: Uuid,
    pub status: Delivery,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub occurred_at: Option<OffsetDateTime>,
}
