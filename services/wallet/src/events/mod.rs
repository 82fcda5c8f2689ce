//! The wallet's events: what it publishes (`published`, written by the ledger) and what it
//! consumes (`consumers`, which call the ledger), apart so neither depends on the other's side.

mod consumers;
pub mod published;

pub use consumers::{
    consume_ledger_events, consume_partner_recalculations, partner_queue, run_daily_schedule,
    schedule_daily_recalculation,
};
