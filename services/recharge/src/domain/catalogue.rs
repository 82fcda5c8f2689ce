//! The game catalogue: products, their servers, payable values and the events active now.

use rust_decimal::Decimal;
use time::OffsetDateTime;

use super::{ActiveEvent, EventKind};

/// The zone every product gets in development: the reference game fails its orders.
pub const FAILING_ZONE: i64 = 99;

/// The zone every product gets in development where the reference game has no character for
/// anyone: orders there are refused before any KP moves.
pub const NO_CHARACTER_ZONE: i64 = 98;

/// The zone every product gets in development where the reference game loses the first
/// delivery of each order (taken off the queue, never answered): what support's resend is for.
pub const LOSING_ZONE: i64 = 97;

#[derive(Debug, Clone)]
pub struct Product {
    pub code: String,
    pub name: String,
    pub logo_img: String,
    pub coin_name: String,
    pub home_page_url: String,
}

#[derive(Debug, Clone)]
pub struct Zone {
    pub id: i64,
    pub description: String,
}

#[derive(Debug, Clone, Copy)]
pub struct PayableValue {
    pub credit: i64,
    pub coins_received: i64,
    pub coins_bonus: i64,
}

#[derive(Debug, Clone)]
pub struct Event {
    pub name: String,
    pub kind: EventKind,
    pub rate: Decimal,
    pub starts_at: OffsetDateTime,
    pub ends_at: OffsetDateTime,
}

impl Event {
    pub fn active(&self) -> ActiveEvent {
        ActiveEvent {
            kind: self.kind,
            rate: self.rate,
        }
    }
}

/// A product with everything its recharge screen shows.
#[derive(Debug, Clone)]
pub struct RechargeInfo {
    pub product: Product,
    pub zones: Vec<Zone>,
    pub payable_values: Vec<PayableValue>,
    /// Only the events active now.
    pub events: Vec<Event>,
}

impl RechargeInfo {
    pub fn zone(&self, id: i64) -> Option<&Zone> {
        self.zones.iter().find(|zone| zone.id == id)
    }

    pub fn payable_value(&self, credit: i64) -> Option<PayableValue> {
        self.payable_values
            .iter()
            .copied()
            .find(|value| value.credit == credit)
    }

    pub fn active_events(&self) -> Vec<ActiveEvent> {
        self.events.iter().map(Event::active).collect()
    }
}
