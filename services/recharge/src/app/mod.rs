//! The recharge use cases: placing and paying for an order (taking the pool, since the wallet's
//! debit is an outside call no transaction may wait on), applying a game's answer in the
//! inbox's transaction, and the sweeper.

pub mod characters;
pub mod giftcodes;
pub mod orders;
pub mod results;
pub mod support;
pub mod sweeper;
