//! Recharge's messages: the contract with game teams (`contract`), what it consumes (the
//! games' answers) and what it publishes (orders for games, settlements and refunds).

pub mod consumers;
pub mod contract;
pub mod published;
