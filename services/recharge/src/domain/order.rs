//! A coin order: what the player bought, where it stands, and what a game's answer did to it.

use time::OffsetDateTime;
use uuid::Uuid;

use kid_contracts::game::Delivery;

use super::OrderState;
pub use kid_contracts::messages::order::{
    MSG_AMOUNT_REQUIRED, MSG_AMOUNT_UNKNOWN, MSG_CHARACTER_UNCHECKED, MSG_KEY_REUSED, MSG_NO_CHARACTER,
    MSG_ZONE_REQUIRED, MSG_ZONE_UNKNOWN,
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

/// What a game's answer does to an order standing at `state`: the first answer to an order
/// awaiting delivery decides it (delivered, or failed and refunded); a later one changes
/// nothing. `None` while the order is still paying: it was not sent, so the answer cannot be
/// from a game it was sent to, and it waits for the confirmation.
pub fn answer_effect(state: OrderState, answer: Delivery) -> Option<Effect> {
    Some(match (state, answer) {
        (OrderState::Paying, _) => return None,
        (OrderState::AwaitingDelivery, _) => Effect::Applied,
        (OrderState::Delivered, Delivery::Delivered) | (OrderState::Failed, Delivery::Failed) => {
            Effect::Duplicate
        }
        (OrderState::Failed, Delivery::Delivered) => Effect::Late,
        (OrderState::Delivered, Delivery::Failed) => Effect::Conflicting,
    })
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

#[cfg(test)]
mod tests {
    //! The order's state machine under random events, repeated and out of order: whatever
    //! arrives, an order's KP moves once (settled or refunded), never both, and a decided
    //! order stays decided.

    use proptest::prelude::*;

    use super::*;

    /// What can happen to an order after it is placed.
    #[derive(Debug, Clone, Copy)]
    enum Event {
        /// The wallet's debit is confirmed and the order sent to the game.
        Debited,
        /// A game's answer, as often as a game sends it.
        Answer(Delivery),
        /// The sweeper finds it past its deadline (`fail_overdue` refunds only an order
        /// awaiting delivery).
        Deadline,
    }

    fn event() -> impl Strategy<Value = Event> {
        prop_oneof![
            1 => Just(Event::Debited),
            3 => Just(Event::Answer(Delivery::Delivered)),
            2 => Just(Event::Answer(Delivery::Failed)),
            1 => Just(Event::Deadline),
        ]
    }

    #[derive(Debug, Default)]
    struct Money {
        settled: u32,
        refunded: u32,
    }

    fn apply(state: OrderState, event: Event, money: &mut Money) -> OrderState {
        match event {
            Event::Debited if state == OrderState::Paying => OrderState::AwaitingDelivery,
            Event::Debited => state,
            Event::Answer(answer) => match answer_effect(state, answer) {
                Some(Effect::Applied) if answer == Delivery::Delivered => {
                    money.settled += 1;
                    OrderState::Delivered
                }
                Some(Effect::Applied) => {
                    money.refunded += 1;
                    OrderState::Failed
                }
                _ => state,
            },
            Event::Deadline if state == OrderState::AwaitingDelivery => {
                money.refunded += 1;
                OrderState::Failed
            }
            Event::Deadline => state,
        }
    }

    /// How many random events a run applies: 10^4 here; the reliability suite asks for 10^6.
    fn operations() -> u32 {
        std::env::var("KID_PROPERTY_OPERATIONS")
            .ok()
            .and_then(|value| value.parse().ok())
            .unwrap_or(10_000)
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: operations().div_ceil(16).max(1),
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        #[test]
        fn whatever_arrives_an_orders_kp_moves_once_and_a_decided_order_stays_decided(
            events in prop::collection::vec(event(), 1..32)
        ) {
            let mut state = OrderState::Paying;
            let mut money = Money::default();
            let mut decided: Option<OrderState> = None;
            for event in events {
                state = apply(state, event, &mut money);
                if let Some(first) = decided {
                    prop_assert_eq!(state, first, "a decided order changed");
                }
                if matches!(state, OrderState::Delivered | OrderState::Failed) {
                    decided = Some(state);
                }
                prop_assert!(money.settled + money.refunded <= 1, "KP moved twice: {:?}", money);
            }
            prop_assert_eq!(money.settled == 1, state == OrderState::Delivered);
            prop_assert_eq!(money.refunded == 1, state == OrderState::Failed);
        }
    }
}
