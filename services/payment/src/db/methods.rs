//! Methods, card brands and fees (configuration rows), and players' transfer contents.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::methods::{CardFee, CardProvider, TransferMethod};

pub async fn transfer_methods(conn: &mut PgConnection) -> Result<Vec<TransferMethod>, sqlx::Error> {
    sqlx::query_as!(
        TransferMethod,
        r#"select code, type as kind, name, exchange_rate::text as "exchange_rate!", account_name,
                  account_number, mobile_account_number, bank_bin
           from transfer_method where enabled order by type, position, code"#
    )
    .fetch_all(conn)
    .await
}

/// The enabled method known by `code` or by its name, as a bank feed spells it.
pub async fn transfer_method(
    conn: &mut PgConnection,
    code: &str,
) -> Result<Option<TransferMethod>, sqlx::Error> {
    sqlx::query_as!(
        TransferMethod,
        r#"select code, type as kind, name, exchange_rate::text as "exchange_rate!", account_name,
                  account_number, mobile_account_number, bank_bin
           from transfer_method where enabled and (code = lower($1) or lower(name) = lower($1))"#,
        code
    )
    .fetch_optional(conn)
    .await
}

pub async fn card_providers(conn: &mut PgConnection) -> Result<Vec<CardProvider>, sqlx::Error> {
    sqlx::query_as!(
        CardProvider,
        r#"select code, name, exchange_rate::text as "exchange_rate!", payable_values, pin_length,
                  serial_length, enabled
           from card_provider order by position, code"#
    )
    .fetch_all(conn)
    .await
}

pub async fn card_provider(conn: &mut PgConnection, code: &str) -> Result<Option<CardProvider>, sqlx::Error> {
    sqlx::query_as!(
        CardProvider,
        r#"select code, name, exchange_rate::text as "exchange_rate!", payable_values, pin_length,
                  serial_length, enabled
           from card_provider where code = lower($1)"#,
        code
    )
    .fetch_optional(conn)
    .await
}

pub async fn card_fees(conn: &mut PgConnection) -> Result<Vec<CardFee>, sqlx::Error> {
    sqlx::query_as!(
        CardFee,
        r#"select provider, value, fee_percent::text as "fee_percent!" from card_fee
           order by provider, value"#
    )
    .fetch_all(conn)
    .await
}

/// The fee for a card of `value`: the table's row for that face value, or for the highest face
/// value below it (a card worth less than declared is charged as the value it is), or below the
/// smallest face value, that one's.
pub async fn card_fee(
    conn: &mut PgConnection,
    provider: &str,
    value: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select fee_percent::text as "fee!" from card_fee where provider = $1
           order by value <= $2 desc, case when value <= $2 then -value else value end
           limit 1"#,
        provider,
        value
    )
    .fetch_optional(conn)
    .await
}

pub async fn syntax_of(conn: &mut PgConnection, user_id: Uuid) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!("select syntax from payment_syntax where user_id = $1", user_id)
        .fetch_optional(conn)
        .await
}

/// Gives `user_id` the transfer content `syntax`; nothing when the player has one or another
/// player has this one.
pub async fn insert_syntax(conn: &mut PgConnection, user_id: Uuid, syntax: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into payment_syntax (user_id, syntax) values ($1, $2) on conflict do nothing",
        user_id,
        syntax
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The players whose transfer content is one of `syntaxes`.
pub async fn players_with_syntax(
    conn: &mut PgConnection,
    syntaxes: &[String],
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar!(
        "select distinct user_id from payment_syntax where syntax = any($1)",
        syntaxes
    )
    .fetch_all(conn)
    .await
}

/// Replaces the aggregator's price list with `fees` (provider, value, fee and penalty percent);
/// lines of brands Kid does not sell are left out. How many lines it keeps.
pub async fn replace_aggregator_fees(
    conn: &mut PgConnection,
    fees: &[(String, i64, String, Option<String>)],
) -> Result<u64, sqlx::Error> {
    let providers: Vec<String> = fees.iter().map(|fee| fee.0.clone()).collect();
    let values: Vec<i64> = fees.iter().map(|fee| fee.1).collect();
    let percents: Vec<String> = fees.iter().map(|fee| fee.2.clone()).collect();
    let penalties: Vec<Option<String>> = fees.iter().map(|fee| fee.3.clone()).collect();
    sqlx::query!("delete from aggregator_fee")
        .execute(&mut *conn)
        .await?;
    let kept = sqlx::query!(
        r#"insert into aggregator_fee (provider, value, fee_percent, penalty_percent)
           select f.provider, f.value, f.fee::numeric, f.penalty::numeric
           from unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) as f(provider, value, fee, penalty)
           where exists (select 1 from card_provider p where p.code = f.provider)
           on conflict (provider, value) do update
               set fee_percent = excluded.fee_percent, penalty_percent = excluded.penalty_percent,
                   fetched_at = now()"#,
        &providers,
        &values,
        &percents,
        &penalties as &[Option<String>]
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(kept)
}
