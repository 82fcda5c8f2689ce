//! The payment use cases: card orders, bank-feed notifications and transfer contents. Each
//! one's writes and the events it publishes share one transaction. A card order spans the
//! aggregator's answer, an outside call no transaction may wait on, so it takes the pool.

pub mod bank_feed;
pub mod cards;
pub mod matching;
pub mod methods;
