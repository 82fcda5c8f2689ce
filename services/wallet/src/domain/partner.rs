//! Pay partners: who is one, and the bonus their top-ups earn (money.md, "Partner status and
//! tiers").

use rust_decimal::{Decimal, prelude::ToPrimitive};

use super::{Kp, Vnd};

/// The partner window: top-ups credited within this many days count.
pub const WINDOW_DAYS: i64 = 28;

/// One order at least this large, credited within the window, makes a player a partner.
const ACTIVATION_ORDER: Vnd = Vnd::new(20_000_000);
/// The fixed bonus of the order that activates partnership.
const ACTIVATION_RATE: BonusRate = BonusRate::from_bps(1500);
/// A partner stays one while the window's sum is at least this.
const MAINTENANCE_SUM: Vnd = Vnd::new(20_000_000);
/// Tiers by the window's sum, highest first.
const TIERS: [(Vnd, BonusRate); 3] = [
    (Vnd::new(100_000_000), BonusRate::from_bps(2500)),
    (Vnd::new(50_000_000), BonusRate::from_bps(2000)),
    (Vnd::new(20_000_000), BonusRate::from_bps(1500)),
];

/// A bonus rate, exact: a decimal fraction, never a float.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct BonusRate(Decimal);

impl BonusRate {
    pub const ZERO: Self = Self(Decimal::ZERO);

    /// From basis points: 1500 is 15%.
    pub const fn from_bps(bps: u32) -> Self {
        Self(Decimal::from_parts(bps, 0, 0, false, 4))
    }

    pub fn bps(self) -> i32 {
        (self.0 * Decimal::from(10_000)).to_i32().unwrap_or(0)
    }

    /// floor(kp × rate).
    pub fn of(self, kp: Kp) -> Kp {
        let bonus = (Decimal::from(kp.get()) * self.0).floor();
        Kp::new(bonus.to_i64().unwrap_or(0).max(0))
    }
}

/// What the top-ups credited within the window add up to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TopupWindow {
    pub sum: Vnd,
    pub largest: Vnd,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PartnerStatus {
    pub is_partner: bool,
    /// The bonus rate of the tier in force; zero for a non-partner.
    pub rate: BonusRate,
    pub pay_amount_last_28_days: Vnd,
}

impl PartnerStatus {
    /// The status now, from the status last found and the window as it is now. Partnership
    /// starts with one large order in the window and lasts while the window's sum holds.
    pub fn recalculate(was_partner: bool, window: TopupWindow) -> Self {
        let is_partner = window.largest >= ACTIVATION_ORDER || (was_partner && window.sum >= MAINTENANCE_SUM);
        let rate = if is_partner {
            TIERS
                .iter()
                .find(|(from, _)| window.sum >= *from)
                .map_or(BonusRate::ZERO, |(_, rate)| *rate)
        } else {
            BonusRate::ZERO
        };
        Self {
            is_partner,
            rate,
            pay_amount_last_28_days: window.sum,
        }
    }
}

/// The partner bonus rate of a top-up of `order` VND for a player whose status before this
/// order is `before`: the tier in force for a partner, the fixed activation bonus for the
/// order that makes a player one, otherwise nothing.
pub fn bonus_rate_for(before: &PartnerStatus, order: Vnd) -> BonusRate {
    if before.is_partner {
        before.rate
    } else if order >= ACTIVATION_ORDER {
        ACTIVATION_RATE
    } else {
        BonusRate::ZERO
    }
}

/// How much of a top-up's bonus a correction takes back: the bonus becomes what the rate
/// gives on the KP that remains after every correction (`remaining` of `credited`), so a card
/// found lower keeps only the bonus its real value earns. `rate` is the one recorded with the
/// bonus; a bonus recorded without one is scaled in proportion.
pub fn bonus_recalled(
    bonus: Kp,
    already_recalled: Kp,
    rate: Option<BonusRate>,
    credited: Kp,
    remaining: Kp,
) -> Kp {
    let kept = match rate {
        Some(rate) => rate.of(remaining),
        None if credited.is_zero() => Kp::ZERO,
        None => {
            let share = i128::from(bonus.get()) * i128::from(remaining.get()) / i128::from(credited.get());
            Kp::new(i64::try_from(share).unwrap_or(0))
        }
    };
    let kept = if kept.get() > bonus.get() { bonus } else { kept };
    Kp::new((bonus.get() - already_recalled.get() - kept.get()).max(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bonus_for(before: &PartnerStatus, order: Vnd, kp: Kp) -> Kp {
        bonus_rate_for(before, order).of(kp)
    }

    fn window(sum: i64, largest: i64) -> TopupWindow {
        TopupWindow {
            sum: Vnd::new(sum),
            largest: Vnd::new(largest),
        }
    }

    #[test]
    fn the_worked_example_activates_at_the_second_order_and_moves_up_a_tier_after_the_third() {
        let start = PartnerStatus::default();
        assert_eq!(
            bonus_for(&start, Vnd::new(19_000_000), Kp::new(19_000_000)),
            Kp::ZERO
        );
        let after_first = PartnerStatus::recalculate(false, window(19_000_000, 19_000_000));
        assert!(!after_first.is_partner);

        let bonus = bonus_for(&after_first, Vnd::new(21_000_000), Kp::new(21_000_000));
        assert_eq!(bonus, Kp::new(3_150_000));
        let after_second = PartnerStatus::recalculate(false, window(40_000_000, 21_000_000));
        assert!(after_second.is_partner);
        assert_eq!(after_second.rate.bps(), 1500);

        let bonus = bonus_for(&after_second, Vnd::new(15_000_000), Kp::new(15_000_000));
        assert_eq!(
            bonus,
            Kp::new(2_250_000),
            "bonused at the tier in force when credited"
        );
        let after_third = PartnerStatus::recalculate(true, window(55_000_000, 21_000_000));
        assert_eq!(after_third.rate.bps(), 2000);
        assert_eq!(
            bonus_for(&after_third, Vnd::new(1_000_000), Kp::new(1_000_000)),
            Kp::new(200_000)
        );
    }

    #[test]
    fn tiers_start_at_their_thresholds() {
        for (sum, bps) in [
            (20_000_000, 1500),
            (49_999_999, 1500),
            (50_000_000, 2000),
            (99_999_999, 2000),
            (100_000_000, 2500),
            (900_000_000, 2500),
        ] {
            let status = PartnerStatus::recalculate(true, window(sum, 0));
            assert_eq!(status.rate.bps(), bps, "sum {sum}");
        }
    }

    #[test]
    fn a_partner_whose_window_falls_below_the_threshold_stops_being_one() {
        let status = PartnerStatus::recalculate(true, window(19_999_999, 5_000_000));
        assert!(!status.is_partner);
        assert_eq!(status.rate, BonusRate::ZERO);
        assert_eq!(status.pay_amount_last_28_days, Vnd::new(19_999_999));
    }

    #[test]
    fn many_small_orders_keep_a_partner_but_never_make_one() {
        let small_orders = window(30_000_000, 10_000_000);
        assert!(PartnerStatus::recalculate(true, small_orders).is_partner);
        assert!(!PartnerStatus::recalculate(false, small_orders).is_partner);
    }

    #[test]
    fn a_correction_takes_back_the_bonus_the_lost_value_earned() {
        // money.md: a 100,000 card at fee 15% gives 85,000 KP, bonused at 25%: 21,250. Found to
        // be worth 50,000: 42,500 KP is recalled, and the bonus becomes 25% of 42,500 = 10,625,
        // so 10,625 of it is recalled too.
        let rate = Some(BonusRate::from_bps(2500));
        let recalled = bonus_recalled(Kp::new(21_250), Kp::ZERO, rate, Kp::new(85_000), Kp::new(42_500));
        assert_eq!(recalled, Kp::new(10_625));
        // A second correction to 20,000 (17,000 KP left): the bonus is 4,250; 6,375 more back.
        let again = bonus_recalled(Kp::new(21_250), recalled, rate, Kp::new(85_000), Kp::new(17_000));
        assert_eq!(again, Kp::new(6_375));
        // A bonus recorded before rates were: in proportion.
        assert_eq!(
            bonus_recalled(Kp::new(21_250), Kp::ZERO, None, Kp::new(85_000), Kp::new(42_500)),
            Kp::new(10_625)
        );
        assert_eq!(
            bonus_recalled(Kp::ZERO, Kp::ZERO, rate, Kp::new(85_000), Kp::ZERO),
            Kp::ZERO
        );
    }

    #[test]
    fn card_bonus_is_floored_once() {
        // money.md: a 100,000 card at 15% fee gives 85,000 KP; at tier 25% the bonus is 21,250.
        assert_eq!(BonusRate::from_bps(2500).of(Kp::new(85_000)), Kp::new(21_250));
        assert_eq!(BonusRate::from_bps(1500).of(Kp::new(7)), Kp::new(1));
    }
}
