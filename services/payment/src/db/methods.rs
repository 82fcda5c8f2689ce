//! What a player can top up with: banks and e-wallets (with the player's own transfer content
//! and its VietQR code), card brands with their face values, and the card fee table.

use rust_decimal::Decimal;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::domain::{syntax, vietqr};

/// How often a new transfer content is drawn when the first collides with another player's.
const SYNTAX_ATTEMPTS: usize = 8;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TransferMethod {
    pub code: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub name: String,
    pub exchange_rate: String,
    pub account_name: String,
    pub account_number: String,
    pub mobile_account_number: String,
    pub bank_bin: Option<String>,
}

impl TransferMethod {
    pub fn rate(&self) -> Decimal {
        self.exchange_rate.parse().unwrap_or(Decimal::ZERO).normalize()
    }

    /// The VietQR payload for a transfer to this account carrying `content`, when the method
    /// takes VietQR.
    pub fn qr_code_data(&self, content: &str) -> Option<String> {
        let bin = self.bank_bin.as_deref()?;
        vietqr::Transfer {
            bank_bin: bin,
            account_number: &self.account_number,
            amount_vnd: None,
            content,
        }
        .encode()
        .inspect_err(|error| tracing::error!(method = %self.code, %error, "cannot build the VietQR code"))
        .ok()
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CardProvider {
    pub code: String,
    pub name: String,
    pub exchange_rate: String,
    pub payable_values: Vec<i64>,
    pub pin_length: i32,
    pub serial_length: i32,
    pub enabled: bool,
}

impl CardProvider {
    pub fn rate(&self) -> Decimal {
        self.exchange_rate.parse().unwrap_or(Decimal::ZERO).normalize()
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CardFee {
    pub provider: String,
    pub value: i64,
    pub fee_percent: String,
}

pub async fn transfer_methods(conn: &mut PgConnection) -> Result<Vec<TransferMethod>, sqlx::Error> {
    sqlx::query_as(
        "select code, type, name, exchange_rate::text as exchange_rate, account_name, account_number,
                mobile_account_number, bank_bin
         from transfer_method where enabled order by type, position, code",
    )
    .fetch_all(conn)
    .await
}

pub async fn transfer_method(
    conn: &mut PgConnection,
    code: &str,
) -> Result<Option<TransferMethod>, sqlx::Error> {
    sqlx::query_as(
        "select code, type, name, exchange_rate::text as exchange_rate, account_name, account_number,
                mobile_account_number, bank_bin
         from transfer_method where enabled and (code = lower($1) or lower(name) = lower($1))",
    )
    .bind(code)
    .fetch_optional(conn)
    .await
}

pub async fn card_providers(conn: &mut PgConnection) -> Result<Vec<CardProvider>, sqlx::Error> {
    sqlx::query_as(
        "select code, name, exchange_rate::text as exchange_rate, payable_values, pin_length, serial_length, enabled
         from card_provider order by position, code",
    )
    .fetch_all(conn)
    .await
}

pub async fn card_provider(conn: &mut PgConnection, code: &str) -> Result<Option<CardProvider>, sqlx::Error> {
    sqlx::query_as(
        "select code, name, exchange_rate::text as exchange_rate, payable_values, pin_length, serial_length, enabled
         from card_provider where code = lower($1)",
    )
    .bind(code)
    .fetch_optional(conn)
    .await
}

pub async fn card_fees(conn: &mut PgConnection) -> Result<Vec<CardFee>, sqlx::Error> {
    sqlx::query_as(
        "select provider, value, fee_percent::text as fee_percent from card_fee order by provider, value",
    )
    .fetch_all(conn)
    .await
}

/// The fee for a card of `value`: the table's row for that face value, or for the highest face
/// value below it (a card worth less than declared is charged as the value it is).
pub async fn card_fee(
    conn: &mut PgConnection,
    provider: &str,
    value: i64,
) -> Result<Option<Decimal>, sqlx::Error> {
    let fee: Option<String> = sqlx::query_scalar(
        "select fee_percent::text from card_fee where provider = $1 and value <= $2
         order by value desc limit 1",
    )
    .bind(provider)
    .bind(value)
    .fetch_optional(&mut *conn)
    .await?;
    let fee = match fee {
        Some(fee) => Some(fee),
        // Below the smallest face value: its fee.
        None => {
            sqlx::query_scalar(
                "select fee_percent::text from card_fee where provider = $1 order by value limit 1",
            )
            .bind(provider)
            .fetch_optional(conn)
            .await?
        }
    };
    Ok(fee.and_then(|fee| fee.parse().ok()))
}

/// The player's transfer content, drawn on first use.
pub async fn payment_syntax(pool: &PgPool, user_id: Uuid) -> Result<String, sqlx::Error> {
    for _ in 0..SYNTAX_ATTEMPTS {
        let existing: Option<String> =
            sqlx::query_scalar("select syntax from payment_syntax where user_id = $1")
                .bind(user_id)
                .fetch_optional(pool)
                .await?;
        if let Some(syntax) = existing {
            return Ok(syntax);
        }
        // Either conflict (this player meanwhile, or another player's content) leaves no row;
        // the next round reads the first or draws again.
        sqlx::query("insert into payment_syntax (user_id, syntax) values ($1, $2) on conflict do nothing")
            .bind(user_id)
            .bind(syntax::generate())
            .execute(pool)
            .await?;
    }
    Err(sqlx::Error::Protocol(
        "no free transfer content after several draws".into(),
    ))
}

/// The player whose transfer content `content` carries: none when it carries no known
/// content, or the contents of two different players (support sorts that out).
pub async fn player_for_content(conn: &mut PgConnection, content: &str) -> Result<Option<Uuid>, sqlx::Error> {
    let candidates = syntax::candidates(content);
    if candidates.is_empty() {
        return Ok(None);
    }
    let players: Vec<Uuid> =
        sqlx::query_scalar("select distinct user_id from payment_syntax where syntax = any($1)")
            .bind(&candidates)
            .fetch_all(conn)
            .await?;
    Ok(match players.as_slice() {
        [player] => Some(*player),
        _ => None,
    })
}
