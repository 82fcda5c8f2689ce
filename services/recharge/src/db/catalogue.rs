//! The catalogue as stored: products, their servers, payable values and events.

use std::str::FromStr;

use rust_decimal::Decimal;
use sqlx::PgConnection;

use crate::domain::{
    EventKind,
    catalogue::{
        Event, FAILING_ZONE, LOSING_ZONE, NO_CHARACTER_ZONE, PayableValue, Product, RechargeInfo, Zone,
    },
};

pub async fn products(conn: &mut PgConnection) -> Result<Vec<Product>, sqlx::Error> {
    sqlx::query_as!(
        Product,
        "select code, name, logo_img, coin_name, home_page_url from product order by position, code"
    )
    .fetch_all(conn)
    .await
}

pub async fn product(conn: &mut PgConnection, code: &str) -> Result<Option<Product>, sqlx::Error> {
    sqlx::query_as!(
        Product,
        "select code, name, logo_img, coin_name, home_page_url from product where code = $1",
        code
    )
    .fetch_optional(conn)
    .await
}

/// The product and its catalogue as of now, or `None` for an unknown product.
pub async fn recharge_info(conn: &mut PgConnection, code: &str) -> Result<Option<RechargeInfo>, sqlx::Error> {
    let Some(product) = product(conn, code).await? else {
        return Ok(None);
    };
    let zones = sqlx::query_as!(
        Zone,
        "select id, description from zone where product_code = $1 order by id",
        code
    )
    .fetch_all(&mut *conn)
    .await?;
    let payable_values = sqlx::query_as!(
        PayableValue,
        "select credit, coins_received, coins_bonus from payable_value where product_code = $1 order by credit",
        code
    )
    .fetch_all(&mut *conn)
    .await?;
    let rows = sqlx::query!(
        r#"select name, type as kind, rate::text as "rate!", starts_at, ends_at from recharge_event
           where product_code = $1 and starts_at <= now() and now() < ends_at
           order by starts_at, id"#,
        code
    )
    .fetch_all(&mut *conn)
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

/// Development data on every product: zone 99, which the reference game always fails, so
/// refunds can be seen; zone 98, where it has no character, so a refused check can; zone 97,
/// where it loses each order's first delivery, so support's resend can. Idempotent.
pub async fn seed_test_zones(conn: &mut PgConnection) -> Result<u64, sqlx::Error> {
    let added = sqlx::query!(
        "insert into zone (product_code, id, description)
         select code, zone.id, zone.description from product
         cross join (values ($1::bigint, 'Máy chủ thử nghiệm (luôn thất bại)'),
                            ($2::bigint, 'Máy chủ thử nghiệm (chưa có nhân vật)'),
                            ($3::bigint, 'Máy chủ thử nghiệm (lần gửi đầu bị mất)')) as zone (id, description)
         on conflict do nothing",
        FAILING_ZONE,
        NO_CHARACTER_ZONE,
        LOSING_ZONE
    )
    .execute(conn)
    .await?;
    Ok(added.rows_affected())
}
