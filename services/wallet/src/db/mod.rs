//! Queries on the wallet schema, each checked against the migrations at build time
//! (`sqlx::query!`, cache in `.sqlx`). Each takes the connection of the caller's transaction.

pub mod adjustments;
mod holds;
mod players;
mod schedule;
mod transactions;

pub use holds::*;
pub use players::*;
pub use schedule::*;
pub use transactions::*;
