//! Amounts as whole numbers: KP in points, VND in dong, game coin in coins. Never negative,
//! never a float. And the idempotency key every money call is keyed by, with its one rule.

use std::fmt;

macro_rules! amount {
    ($name:ident, $unit:literal) => {
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(i64);

        impl $name {
            pub const ZERO: Self = Self(0);

            /// `value` must not be negative; see [`Self::parse`] for untrusted input.
            pub const fn new(value: i64) -> Self {
                assert!(value >= 0, "amounts are never negative");
                Self(value)
            }

            /// An amount from a request: `None` when negative.
            pub fn parse(value: i64) -> Option<Self> {
                (value >= 0).then_some(Self(value))
            }

            pub const fn get(self) -> i64 {
                self.0
            }

            pub fn is_zero(self) -> bool {
                self.0 == 0
            }

            pub fn checked_add(self, other: Self) -> Option<Self> {
                self.0.checked_add(other.0).map(Self)
            }

            pub fn saturating_add(self, other: Self) -> Self {
                Self(self.0.saturating_add(other.0))
            }

            pub fn saturating_sub(self, other: Self) -> Self {
                Self(self.0.saturating_sub(other.0).max(0))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{} {}", self.0, $unit)
            }
        }
    };
}

amount!(Kp, "KP");
amount!(Vnd, "VND");
amount!(Coins, "coins");

/// The longest idempotency key anyone may send us.
pub const MAX_KEY_LENGTH: usize = 128;

/// The key a caller retries a money operation with: the same key moves money once. One rule
/// for every door (the REST header, the recharge and wallet calls): 1 to 128 printable ASCII
/// characters, no spaces.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

impl IdempotencyKey {
    /// `None` when `value` breaks the rule.
    pub fn parse(value: &str) -> Option<Self> {
        let valid =
            !value.is_empty() && value.len() <= MAX_KEY_LENGTH && value.chars().all(|c| c.is_ascii_graphic());
        valid.then(|| Self(value.to_owned()))
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negative_amounts_from_requests_are_refused() {
        assert_eq!(Kp::parse(-1), None);
        assert_eq!(Kp::parse(0), Some(Kp::ZERO));
        assert_eq!(Vnd::parse(500_000).map(Vnd::get), Some(500_000));
    }

    #[test]
    fn an_idempotency_key_is_1_to_128_printable_ascii_characters() {
        assert!(IdempotencyKey::parse("order-1").is_some());
        assert!(IdempotencyKey::parse(&"k".repeat(128)).is_some());
        assert_eq!(IdempotencyKey::parse(""), None);
        assert_eq!(IdempotencyKey::parse(&"k".repeat(129)), None);
        assert_eq!(IdempotencyKey::parse("two words"), None);
        assert_eq!(IdempotencyKey::parse("mã-đơn"), None);
        assert_eq!(IdempotencyKey::parse("tab\tkey"), None);
    }

    #[test]
    fn arithmetic_never_overflows_or_goes_below_zero() {
        assert_eq!(Kp::new(i64::MAX).checked_add(Kp::new(1)), None);
        assert_eq!(Kp::new(5).saturating_sub(Kp::new(9)), Kp::ZERO);
        assert_eq!(
            Coins::new(i64::MAX).saturating_add(Coins::new(1)),
            Coins::new(i64::MAX)
        );
    }
}
