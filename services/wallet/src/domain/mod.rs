//! The money rules of `money.md`, as pure functions over integer amounts.

mod partner;
pub mod payload;

pub use kid_contracts::money::{Kp, Vnd};
pub use partner::{BonusRate, PartnerStatus, TopupWindow, WINDOW_DAYS, bonus_rate_for, bonus_recalled};

/// An aggregator's correction of a top-up known by its key (it may not be credited yet).
#[derive(Debug, Clone)]
pub struct Correction {
    pub key: String,
    pub topup_key: String,
    pub user_id: uuid::Uuid,
    pub kp: Kp,
    pub corrected_amount: Option<Vnd>,
}

/// Where a ledger transaction stands, as `ledger_transaction.status` keeps it: a top-up or a
/// coin payment is `pending` until its outcome, then `success` or `failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum TxStatus {
    Pending,
    Success,
    Failed,
}

/// How an incoming amount of KP meets the player's debt: the debt is settled first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settlement {
    pub settles_debt: Kp,
    pub reaches_balance: Kp,
}

pub fn settle(incoming: Kp, debt: Kp) -> Settlement {
    let settles_debt = incoming.min(debt);
    Settlement {
        settles_debt,
        reaches_balance: incoming.saturating_sub(settles_debt),
    }
}

/// How a recall of `kp` meets the balance: it takes what the balance holds, the rest is debt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recall {
    pub from_balance: Kp,
    pub to_debt: Kp,
}

pub fn recall(balance: Kp, kp: Kp) -> Recall {
    let from_balance = kp.min(balance);
    Recall {
        from_balance,
        to_debt: kp.saturating_sub(from_balance),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recall_larger_than_the_balance_leaves_debt_that_the_next_top_up_settles_first() {
        let taken = recall(Kp::new(10_000), Kp::new(30_000));
        assert_eq!(taken.from_balance, Kp::new(10_000));
        assert_eq!(taken.to_debt, Kp::new(20_000));
        let next = settle(Kp::new(50_000), taken.to_debt);
        assert_eq!(next.settles_debt, Kp::new(20_000));
        assert_eq!(next.reaches_balance, Kp::new(30_000));
    }

    #[test]
    fn a_top_up_smaller_than_the_debt_reaches_nothing_of_the_balance() {
        let next = settle(Kp::new(5_000), Kp::new(20_000));
        assert_eq!(next.settles_debt, Kp::new(5_000));
        assert_eq!(next.reaches_balance, Kp::ZERO);
    }

    #[test]
    fn a_covered_recall_adds_no_debt() {
        let taken = recall(Kp::new(50_000), Kp::new(30_000));
        assert_eq!(taken.from_balance, Kp::new(30_000));
        assert_eq!(taken.to_debt, Kp::ZERO);
    }
}
