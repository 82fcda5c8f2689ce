//! The KP balance.

/// Said to players when a payment is larger than their balance.
pub const MSG_INSUFFICIENT_BALANCE: &str = "Số dư KP của bạn không đủ để thực hiện giao dịch này.";
