//! Payment's types and rules, without I/O: the outside parties' protocols, transfer contents, VietQR codes, card
//! arithmetic, the methods players pay with and the statuses the tables keep.

pub mod bank_feed;
pub mod card;
pub mod casso;
pub mod charging;
pub mod methods;
pub mod sepay;
pub mod syntax;
pub mod vietqr;

/// Where a card order stands, as `card_order.status` keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum CardStatus {
    /// Sent to the aggregator; its result has not come.
    Pending,
    Success,
    Failed,
}

/// What became of a bank-feed notification, as `bank_feed_record.status` keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "snake_case")]
pub enum TransferStatus {
    /// Matched to a player and sent to the wallet.
    Credited,
    /// Kept for support to match by hand.
    Unmatched,
    /// Not an incoming transfer.
    Ignored,
    /// Not a notification we could read.
    Malformed,
}
