//! Recharge's types and rules, without I/O: the catalogue, orders and what a game's answer
//! does to one, and the coin a payment buys (money.md, "Paying for game coin"): the payable
//! value's coins and milestone bonus, the bonus coin of active coin-bonus events, and the
//! lottery points of active lottery events. Rates are exact decimals; each result is floored once.

use kid_contracts::money::Coins;
use rust_decimal::{Decimal, prelude::ToPrimitive};

pub mod catalogue;
pub mod order;
pub mod result;

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

impl OrderState {
    /// As stored and as the player's data export says it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Paying => "paying",
            Self::AwaitingDelivery => "awaiting_delivery",
            Self::Delivered => "delivered",
            Self::Failed => "failed",
        }
    }
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
    pub coins: Coins,
    pub milestone_bonus: Coins,
    pub event_bonus: Coins,
    /// Points, not coin.
    pub lottery_points: i64,
}

impl Payout {
    /// What the character receives: coins and both bonuses; `None` past what an i64 holds.
    pub fn total_coins(&self) -> Option<Coins> {
        self.coins
            .checked_add(self.milestone_bonus)?
            .checked_add(self.event_bonus)
    }
}

fn floor(value: Decimal) -> i64 {
    value.floor().to_i64().unwrap_or(0)
}

/// Event bonus coin = floor(coinsReceived × coinBonusRate).
pub fn event_bonus(coins_received: Coins, coin_bonus_rate: Decimal) -> Coins {
    Coins::parse(floor(Decimal::from(coins_received.get()) * coin_bonus_rate)).unwrap_or_default()
}

/// Lottery points = floor(coins ÷ 100) × (extpointRate × 100): extpointRate × 100 points for
/// every whole 100 coin, the product floored once.
pub fn lottery_points(coins: Coins, extpoint_rate: Decimal) -> i64 {
    floor(Decimal::from(coins.get() / 100) * extpoint_rate * Decimal::ONE_HUNDRED)
}

/// The payout of `coins_received` and its `coins_bonus`. Each active event counts on its own;
/// bonuses are computed on the coins bought, not on other bonuses.
pub fn payout(coins_received: Coins, coins_bonus: Coins, events: &[ActiveEvent]) -> Payout {
    let mut payout = Payout {
        coins: coins_received,
        milestone_bonus: coins_bonus,
        ..Payout::default()
    };
    for event in events {
        match event.kind {
            EventKind::BonusCoin => {
                payout.event_bonus = payout
                    .event_bonus
                    .saturating_add(event_bonus(coins_received, event.rate));
            }
            EventKind::LotteryPoint => {
                payout.lottery_points = payout
                    .lottery_points
                    .saturating_add(lottery_points(coins_received, event.rate));
            }
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

    fn c(value: i64) -> Coins {
        Coins::new(value)
    }

    #[test]
    fn the_event_bonus_is_the_rate_of_the_coins_bought_floored() {
        assert_eq!(event_bonus(c(1_000), rate("0.1")), c(100));
        assert_eq!(event_bonus(c(205), rate("0.1")), c(20), "20.5 floors to 20");
        assert_eq!(event_bonus(c(199), rate("0.05")), c(9), "9.95 floors to 9");
        assert_eq!(event_bonus(c(20), rate("0.05")), c(1));
        assert_eq!(event_bonus(c(19), rate("0.05")), c(0));
    }

    #[test]
    fn lottery_points_count_whole_hundreds_of_coin() {
        // extpointRate 0.05: 5 points for every 100 coin.
        assert_eq!(lottery_points(c(1_000), rate("0.05")), 50);
        assert_eq!(
            lottery_points(c(199), rate("0.05")),
            5,
            "only the whole 100 counts"
        );
        assert_eq!(lottery_points(c(99), rate("0.05")), 0);
        // extpointRate 0.2: 20 points per 100 coin.
        assert_eq!(lottery_points(c(500), rate("0.2")), 100);
        // A rate whose ×100 is not whole: floor(3 × 5.5) = 16, floored once, not 3 × 5.
        assert_eq!(lottery_points(c(300), rate("0.055")), 16);
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
        let payout = payout(c(500), c(50), &events);
        assert_eq!(
            payout,
            Payout {
                coins: c(500),
                milestone_bonus: c(50),
                event_bonus: c(25),
                lottery_points: 100
            }
        );
        assert_eq!(payout.total_coins(), Some(c(575)));
        // With no event only the payable value's own coins.
        assert_eq!(
            super::payout(c(200), c(0), &[]),
            Payout {
                coins: c(200),
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
        assert_eq!(super::payout(c(1_010), c(0), &two).event_bonus, c(101 + 50));
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
