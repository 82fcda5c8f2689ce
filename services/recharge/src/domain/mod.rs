//! Recharge's types and rules, without I/O: the catalogue, orders and what a game's answer
//! does to one, and the coin a payment buys (money.md, "Paying for game coin"): the payable
//! value's coins and milestone bonus, the bonus coin of active coin-bonus events, and the
//! lottery points of active lottery events. Rates are exact decimals; each result is floored once.

use rust_decimal::{Decimal, prelude::ToPrimitive};

pub mod catalogue;
pub mod order;

/// Where a coin order stands, as `recharge_order.status` keeps it: `paying` until the wallet
/// confirms the debit, then `awaiting_delivery` until the game answers (or its deadline
/// passes), then `delivered` or `failed` (refunded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum OrderState {
    Paying,
    AwaitingDelivery,
    Delivered,
    Failed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// `recharge.bonus_coin`, config coinBonusRate.
    BonusCoin,
    /// `recharge.bonus_lottery_point`, config extpointRate.
    LotteryPoint,
}

impl EventKind {
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "recharge.bonus_coin" => Some(Self::BonusCoin),
            "recharge.bonus_lottery_point" => Some(Self::LotteryPoint),
            _ => None,
        }
    }
}

/// An active event's kind and rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActiveEvent {
    pub kind: EventKind,
    pub rate: Decimal,
}

/// What one payable value pays out, with the events active when it is bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Payout {
    pub coins: i64,
    pub milestone_bonus: i64,
    pub event_bonus: i64,
    pub lottery_points: i64,
}

impl Payout {
    pub fn total_coins(&self) -> i64 {
        self.coins + self.milestone_bonus + self.event_bonus
    }
}

fn floor(value: Decimal) -> i64 {
    value.floor().to_i64().unwrap_or(0)
}

/// Event bonus coin = floor(coinsReceived × coinBonusRate).
pub fn event_bonus(coins_received: i64, coin_bonus_rate: Decimal) -> i64 {
    floor(Decimal::from(coins_received) * coin_bonus_rate)
}

/// Lottery points = floor(coins ÷ 100) × (extpointRate × 100): extpointRate × 100 points for
/// every whole 100 coin, the product floored once.
pub fn lottery_points(coins: i64, extpoint_rate: Decimal) -> i64 {
    floor(Decimal::from(coins / 100) * extpoint_rate * Decimal::ONE_HUNDRED)
}

/// The payout of `coins_received` and its `coins_bonus`. Each active event counts on its own;
/// bonuses are computed on the coins bought, not on other bonuses.
pub fn payout(coins_received: i64, coins_bonus: i64, events: &[ActiveEvent]) -> Payout {
    let mut payout = Payout {
        coins: coins_received,
        milestone_bonus: coins_bonus,
        ..Payout::default()
    };
    for event in events {
        match event.kind {
            EventKind::BonusCoin => payout.event_bonus += event_bonus(coins_received, event.rate),
            EventKind::LotteryPoint => payout.lottery_points += lottery_points(coins_received, event.rate),
        }
    }
    payout
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn rate(value: &str) -> Decimal {
        Decimal::from_str(value).unwrap()
    }

    #[test]
    fn the_event_bonus_is_the_rate_of_the_coins_bought_floored() {
        assert_eq!(event_bonus(1_000, rate("0.1")), 100);
        assert_eq!(event_bonus(205, rate("0.1")), 20, "20.5 floors to 20");
        assert_eq!(event_bonus(199, rate("0.05")), 9, "9.95 floors to 9");
        assert_eq!(event_bonus(20, rate("0.05")), 1);
        assert_eq!(event_bonus(19, rate("0.05")), 0);
    }

    #[test]
    fn lottery_points_count_whole_hundreds_of_coin() {
        // extpointRate 0.05: 5 points for every 100 coin.
        assert_eq!(lottery_points(1_000, rate("0.05")), 50);
        assert_eq!(lottery_points(199, rate("0.05")), 5, "only the whole 100 counts");
        assert_eq!(lottery_points(99, rate("0.05")), 0);
        // extpointRate 0.2: 20 points per 100 coin.
        assert_eq!(lottery_points(500, rate("0.2")), 100);
        // A rate whose ×100 is not whole: floor(3 × 5.5) = 16, floored once, not 3 × 5.
        assert_eq!(lottery_points(300, rate("0.055")), 16);
    }

    #[test]
    fn a_payout_adds_each_active_event_and_keeps_the_milestone_apart() {
        let events = [
            ActiveEvent {
                kind: EventKind::BonusCoin,
                rate: rate("0.05"),
            },
            ActiveEvent {
                kind: EventKind::LotteryPoint,
                rate: rate("0.2"),
            },
        ];
        let payout = payout(500, 50, &events);
        assert_eq!(
            payout,
            Payout {
                coins: 500,
                milestone_bonus: 50,
                event_bonus: 25,
                lottery_points: 100
            }
        );
        assert_eq!(payout.total_coins(), 575);
        // With no event only the payable value's own coins.
        assert_eq!(
            super::payout(200, 0, &[]),
            Payout {
                coins: 200,
                ..Payout::default()
            }
        );
        // Two coin-bonus events both count, each floored.
        let two = [
            ActiveEvent {
                kind: EventKind::BonusCoin,
                rate: rate("0.1"),
            },
            ActiveEvent {
                kind: EventKind::BonusCoin,
                rate: rate("0.05"),
            },
        ];
        assert_eq!(super::payout(1_010, 0, &two).event_bonus, 101 + 50);
    }

    #[test]
    fn event_types_parse_from_their_catalogue_names() {
        assert_eq!(
            EventKind::parse("recharge.bonus_coin"),
            Some(EventKind::BonusCoin)
        );
        assert_eq!(
            EventKind::parse("recharge.bonus_lottery_point"),
            Some(EventKind::LotteryPoint)
        );
        assert_eq!(EventKind::parse("recharge.other"), None);
    }
}
