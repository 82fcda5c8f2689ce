//! The daily partner recalculation: who claims the day, and whom it recalculates.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::WINDOW_DAYS;

/// Claims `job` for today (the database's date): true for the one caller that claims it; a
/// concurrent claimer waits for the first to commit and then gets false.
pub async fn claim_daily_run(conn: &mut PgConnection, job: &str) -> Result<bool, sqlx::Error> {
    let claimed = sqlx::query!(
        "insert into scheduled_run (job, period) values ($1, current_date) on conflict do nothing",
        job
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(claimed == 1)
}

/// Players whose partner figures the sliding window can change: partners, and anyone with a
/// top-up credited within the window (plus a day, so the day it leaves is seen).
pub async fn players_in_window(conn: &mut PgConnection) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select user_id as "user_id!" from player where is_pay_partner or pay_amount_last_28_days > 0
           union
           select distinct user_id from ledger_transaction
           where credited_at > now() - make_interval(days => $1)"#,
        WINDOW_DAYS as i32 + 1
    )
    .fetch_all(conn)
    .await
}
