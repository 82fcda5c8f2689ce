//! Phone and game cards: what a card order must hold, and the KP a card's value credits.

pub use kid_contracts::messages::card::{
    MSG_PIN_REQUIRED, MSG_PROVIDER_REQUIRED, MSG_PROVIDER_UNKNOWN, MSG_SERIAL_REQUIRED, MSG_VALUE_REQUIRED,
    msg_pin_length, msg_serial_length, msg_unsupported,
};
use rust_decimal::{Decimal, prelude::ToPrimitive};

pub const MIN_VALUE: i64 = 10_000;
pub const MAX_VALUE: i64 = 5_000_000;

/// KP a card credits: floor(value × (100 − fee%) / 100 × exchangeRate), floored once.
pub fn kp_for(value: i64, fee_percent: Decimal, exchange_rate: Decimal) -> Option<i64> {
    let hundred = Decimal::ONE_HUNDRED;
    let exact = Decimal::from(value)
        .checked_mul(hundred.checked_sub(fee_percent)?)?
        .checked_div(hundred)?
        .checked_mul(exchange_rate)?;
    exact.floor().to_i64()
}

/// KP a transfer credits: floor(amount × exchangeRate).
pub fn kp_for_transfer(amount_vnd: i64, exchange_rate: Decimal) -> Option<i64> {
    Decimal::from(amount_vnd)
        .checked_mul(exchange_rate)?
        .floor()
        .to_i64()
}

/// What the aggregator reports of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Good at the declared value.
    Success,
    /// Good, but worth `real_value`, not what was declared.
    WrongAmount,
    Invalid,
    /// The aggregator could not check it (its status 4): not credited, the player may send it
    /// again.
    Maintenance,
}

impl Outcome {
    pub fn error_code(self) -> Option<&'static str> {
        match self {
            Self::Success => None,
            Self::WrongAmount => Some("WRONG_AMOUNT"),
            Self::Invalid => Some("INVALID"),
            Self::Maintenance => Some("MAINTENANCE"),
        }
    }

    /// Whether the card credits KP.
    pub fn credits(self) -> bool {
        matches!(self, Self::Success | Self::WrongAmount)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_kp_follows_money_md() {
        // fee 15%, rate 1: a 100,000 card gives 85,000 KP.
        assert_eq!(kp_for(100_000, Decimal::from(15), Decimal::ONE), Some(85_000));
        // Floored once, at the end: 12.5% of 10,000 is 1,250 → 8,750; × 1.05 = 9,187.5 → 9,187.
        assert_eq!(
            kp_for(10_000, Decimal::new(125, 1), Decimal::new(105, 2)),
            Some(9_187)
        );
        assert_eq!(kp_for(33_333, Decimal::from(14), Decimal::ONE), Some(28_666));
    }

    #[test]
    fn transfer_kp_is_the_amount_times_the_rate_floored() {
        assert_eq!(kp_for_transfer(500_000, Decimal::ONE), Some(500_000));
        assert_eq!(kp_for_transfer(10_001, Decimal::new(15, 1)), Some(15_001));
    }
}
