//! Recharge's messages: what it consumes (the games' answers) and what it publishes (orders for
//! games, settlements and refunds). The contract with game teams is `kid_contracts::game`.

pub mod consumers;
pub mod published;
