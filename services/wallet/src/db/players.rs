//! Players, their two accounts and the system accounts, and their partner figures.

use std::collections::HashMap;

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::{Kp, TopupWindow, Vnd, WINDOW_DAYS};

/// The ids of the system accounts, which never change once migrated.
#[derive(Debug, Clone)]
pub struct SystemAccounts(HashMap<String, i64>);

impl SystemAccounts {
    pub async fn load(conn: &mut PgConnection) -> Result<Self, sqlx::Error> {
        let rows = sqlx::query!("select purpose, id from account where user_id is null")
            .fetch_all(conn)
            .await?;
        Ok(Self(rows.into_iter().map(|row| (row.purpose, row.id)).collect()))
    }

    pub fn get(&self, purpose: &str) -> Result<i64, sqlx::Error> {
        self.0
            .get(purpose)
            .copied()
            .ok_or_else(|| sqlx::Error::RowNotFound)
    }
}

/// A player's row, locked for the rest of the transaction, with their balances.
#[derive(Debug, Clone)]
pub struct PlayerRow {
    pub user_id: Uuid,
    pub kp_account_id: i64,
    pub debt_account_id: i64,
    pub balance: i64,
    /// Positive: what the player owes.
    pub debt: i64,
    pub is_pay_partner: bool,
    pub partner_bonus_bps: i32,
    pub pay_amount_last_28_days: i64,
}

impl PlayerRow {
    pub fn balance(&self) -> Kp {
        Kp::parse(self.balance).unwrap_or_default()
    }

    pub fn debt(&self) -> Kp {
        Kp::parse(self.debt).unwrap_or_default()
    }
}

/// Locks the player's row, the first thing every money operation of that player does, so
/// operations of one player run one after the other. The balance rows are locked too: after
/// waiting for a lock, PostgreSQL re-reads only the rows it locked, so a balance read through
/// an unlocked join would be the one from before the wait.
pub async fn lock_player(conn: &mut PgConnection, user_id: Uuid) -> Result<Option<PlayerRow>, sqlx::Error> {
    sqlx::query_as!(
        PlayerRow,
        r#"select p.user_id, p.kp_account_id, p.debt_account_id, kp.balance as "balance!",
                  -debt.balance as "debt!", p.is_pay_partner, p.partner_bonus_bps, p.pay_amount_last_28_days
           from player p
           join account kp on kp.id = p.kp_account_id
           join account debt on debt.id = p.debt_account_id
           where p.user_id = $1
           for update"#,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// The player's row without a lock, for reading.
pub async fn find_player(conn: &mut PgConnection, user_id: Uuid) -> Result<Option<PlayerRow>, sqlx::Error> {
    sqlx::query_as!(
        PlayerRow,
        r#"select p.user_id, p.kp_account_id, p.debt_account_id, kp.balance as "balance!",
                  -debt.balance as "debt!", p.is_pay_partner, p.partner_bonus_bps, p.pay_amount_last_28_days
           from player p
           join account kp on kp.id = p.kp_account_id
           join account debt on debt.id = p.debt_account_id
           where p.user_id = $1"#,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// Locks the player's row, creating the player and their two accounts the first time.
pub async fn lock_or_create_player(conn: &mut PgConnection, user_id: Uuid) -> Result<PlayerRow, sqlx::Error> {
    if let Some(player) = lock_player(conn, user_id).await? {
        return Ok(player);
    }
    // A concurrent first top-up of the same player waits here on the unique (user_id, purpose)
    // and then inserts nothing; either way the row exists afterwards.
    sqlx::query!(
        "with kp as (
             insert into account (user_id, purpose, balance) values ($1, 'kp', 0)
             on conflict do nothing returning id
         ), debt as (
             insert into account (user_id, purpose, balance) values ($1, 'debt', 0)
             on conflict do nothing returning id
         )
         insert into player (user_id, kp_account_id, debt_account_id)
         select $1, kp.id, debt.id from kp, debt
         on conflict do nothing",
        user_id
    )
    .execute(&mut *conn)
    .await?;
    lock_player(conn, user_id).await?.ok_or(sqlx::Error::RowNotFound)
}

/// The player's top-ups credited within the partner window, as of now.
pub async fn topup_window(conn: &mut PgConnection, user_id: Uuid) -> Result<TopupWindow, sqlx::Error> {
    let window = sqlx::query!(
        r#"select coalesce(sum(counted_vnd), 0)::bigint as "sum!", coalesce(max(counted_vnd), 0)::bigint as "largest!"
           from ledger_transaction
           where user_id = $1 and parent_id is null and status = 'success'
             and credited_at > now() - make_interval(days => $2)"#,
        user_id,
        WINDOW_DAYS as i32
    )
    .fetch_one(conn)
    .await?;
    Ok(TopupWindow {
        sum: Vnd::parse(window.sum).unwrap_or_default(),
        largest: Vnd::parse(window.largest).unwrap_or_default(),
    })
}

pub async fn store_partner_status(
    conn: &mut PgConnection,
    user_id: Uuid,
    is_partner: bool,
    bonus_bps: i32,
    pay_amount: Vnd,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update player set is_pay_partner = $2, partner_bonus_bps = $3, pay_amount_last_28_days = $4,
                partner_recalculated_at = now()
         where user_id = $1",
        user_id,
        is_partner,
        bonus_bps,
        pay_amount.get()
    )
    .execute(conn)
    .await?;
    Ok(())
}
