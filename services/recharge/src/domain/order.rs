//! A coin order: what the player bought, where it stands, and what a game's answer did to it.

use time::OffsetDateTime;
use uuid::Uuid;

use super::OrderState;
pub use kid_contracts::messages::order::{
    MSG_AMOUNT_REQUIRED, MSG_AMOUNT_UNKNOWN, MSG_KEY_REUSED, MSG_ZONE_REQUIRED, MSG_ZONE_UNKNOWN,
};

/// Why the game's order failed when it never answered.
pub const REASON_DEADLINE: &str = "no answer before the delivery deadline";

#[derive(Debug, Clone)]
pub struct Order {
    pub id: Uuid,
    pub user_id: Uuid,
    pub idempotency_key: String,
    pub username: String,
    pub product_code: String,
    pub zone_id: i64,
    pub credit: i64,
    pub coins: i64,
    pub milestone_bonus: i64,
    pub event_bonus: i64,
    pub lottery_points: i64,
    pub status: OrderState,
    pub transaction_id: Option<Uuid>,
    pub failure_reason: Option<String>,
    pub deliver_by: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// How long after its deadline the sweeper may refund an order and still be on time: it
/// sweeps every few seconds, and the coin-order SLO (deploy/README.md) allows two minutes.
pub const REFUND_GRACE: time::Duration = time::Duration::minutes(2);

impl Order {
    pub fn total_coins(&self) -> i64 {
        self.coins + self.milestone_bonus + self.event_bonus
    }

    /// Counts the order finished now (`recharge_orders_finished_total{outcome, in_time}`):
    /// delivered, or refunded (the game failed it, or it reached its deadline). The coin-order
    /// SLO's events; those not `in_time` (after `deliver_by` and its grace) are its bad ones.
    pub fn count_finished(&self, outcome: &'static str) {
        let in_time = self
            .deliver_by
            .is_none_or(|deliver_by| OffsetDateTime::now_utc() <= deliver_by + REFUND_GRACE);
        metrics::counter!(
            "recharge_orders_finished_total",
            "outcome" => outcome,
            "in_time" => if in_time { "true" } else { "false" }
        )
        .increment(1);
    }
}

/// A player's submission.
#[derive(Debug, Clone)]
pub struct NewOrder {
    pub key: String,
    pub user_id: Uuid,
    pub username: String,
    pub product_code: String,
    pub zone_id: i64,
    pub credit: i64,
}

/// What a game's answer did to its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// It decided the order.
    Applied,
    /// The order was already decided the same way.
    Duplicate,
    /// A delivery after the order was refunded: kept for support, never paid again.
    Late,
    /// A failure after the order was delivered: kept, changes nothing.
    Conflicting,
    UnknownOrder,
    /// An answer published on another product's routing key than the order's: a game answers
    /// only for its own orders, so it is kept with what it claimed and changes nothing.
    Rejected,
}

impl Effect {
    /// As `game_result.effect` keeps it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::Duplicate => "duplicate",
            Self::Late => "late",
            Self::Conflicting => "conflicting",
            Self::UnknownOrder => "unknown_order",
            Self::Rejected => "rejected",
        }
    }
}
