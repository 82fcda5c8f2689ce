//! The game catalogue as stored: products, their servers, payable values and events.

use std::str::FromStr;

use rust_decimal::Decimal;
use sqlx::{PgExecutor, PgPool};
use time::OffsetDateTime;

use crate::domain::{ActiveEvent, EventKind};

/// The zone every product gets in development: the reference game fails its orders.
pub const FAILING_ZONE: i64 = 99;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Product {
    pub code: String,
    pub name: String,
    pub logo_img: String,
    pub coin_name: String,
    pub home_page_url: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Zone {
    pub id: i64,
    pub description: String,
}

#[derive(Debug, Clone, Copy, sqlx::FromRow)]
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

pub async fn products(pool: &PgPool) -> Result<Vec<Product>, sqlx::Error> {
    sqlx::query_as(
        "select code, name, logo_img, coin_name, home_page_url from product order by position, code",
    )
    .fetch_all(pool)
    .await
}

pub async fn product(pool: &PgPool, code: &str) -> Result<Option<Product>, sqlx::Error> {
    sqlx::query_as("select code, name, logo_img, coin_name, home_page_url from product where code = $1")
        .bind(code)
        .fetch_optional(pool)
        .await
}

#[derive(sqlx::FromRow)]
struct EventRow {
    name: String,
    kind: String,
    rate: String,
    starts_at: OffsetDateTime,
    ends_at: OffsetDateTime,
}

/// The product and its catalogue as of now, or `None` for an unknown product.
pub async fn recharge_info(pool: &PgPool, code: &str) -> Result<Option<RechargeInfo>, sqlx::Error> {
    let Some(product) = product(pool, code).await? else {
        return Ok(None);
    };
    let zones = sqlx::query_as("select id, description from zone where product_code = $1 order by id")
        .bind(code)
        .fetch_all(pool)
        .await?;
    let payable_values = sqlx::query_as(
        "select credit, coins_received, coins_bonus from payable_value where product_code = $1 order by credit",
    )
    .bind(code)
    .fetch_all(pool)
    .await?;
    let rows: Vec<EventRow> = sqlx::query_as(
        "select name, type as kind, rate::text as rate, starts_at, ends_at from recharge_event
         where product_code = $1 and starts_at <= now() and now() < ends_at
         order by starts_at, id",
    )
    .bind(code)
    .fetch_all(pool)
    .await?;
    let mut events = Vec::with_capacity(rows.len());
    for row in rows {
        let (Some(kind), Ok(rate)) = (EventKind::parse(&row.kind), Decimal::from_str(&row.rate)) else {
            // The table's checks make this unreachable; an event we cannot read is not offered.
            tracing::error!(
                product = code,
                event = row.name,
                "recharge event unreadable; skipped"
            );
            continue;
        };
        events.push(Event {
            name: row.name,
            kind,
            rate,
            starts_at: row.starts_at,
            ends_at: row.ends_at,
        });
    }
    Ok(Some(RechargeInfo {
        product,
        zones,
        payable_values,
        events,
    }))
}

/// Development data: a zone 99 on every product, which the reference game always fails, so
/// refunds can be seen. Idempotent.
pub async fn seed_failing_zones<'e>(executor: impl PgExecutor<'e>) -> Result<u64, sqlx::Error> {
    let added = sqlx::query(
        "insert into zone (product_code, id, description)
         select code, $1, 'Máy chủ thử nghiệm (luôn thất bại)' from product
         on conflict do nothing",
    )
    .bind(FAILING_ZONE)
    .execute(executor)
    .await?;
    Ok(added.rows_affected())
}
