//! What waits on something else: refused payments (the key's answer for good) and corrections
//! held until their top-up is credited.

use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::{Correction, Kp, Vnd};

/// The user and the KP of a debit keyed `key` that was refused, if one was.
pub async fn refused_payment(conn: &mut PgConnection, key: &str) -> Result<Option<(Uuid, i64)>, sqlx::Error> {
    let refused = sqlx::query!(
        "select user_id, kp from refused_payment where idempotency_key = $1",
        key
    )
    .fetch_optional(conn)
    .await?;
    Ok(refused.map(|row| (row.user_id, row.kp)))
}

pub async fn refuse_payment(
    conn: &mut PgConnection,
    key: &str,
    user_id: Uuid,
    kp: Kp,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into refused_payment (idempotency_key, user_id, kp) values ($1, $2, $3)
         on conflict do nothing",
        key,
        user_id,
        kp.get()
    )
    .execute(conn)
    .await
    .map(drop)
}

/// Holds a correction until its top-up is credited; a redelivered one is held once.
pub async fn hold_correction(conn: &mut PgConnection, correction: &Correction) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into held_correction (idempotency_key, topup_key, user_id, kp, corrected_amount_vnd)
         values ($1, $2, $3, $4, $5) on conflict do nothing",
        correction.key,
        correction.topup_key,
        correction.user_id,
        correction.kp.get(),
        correction.corrected_amount.map(Vnd::get)
    )
    .execute(conn)
    .await
    .map(drop)
}

/// The corrections held for the top-up keyed `topup_key`, oldest first.
pub async fn held_corrections(
    conn: &mut PgConnection,
    topup_key: &str,
) -> Result<Vec<Correction>, sqlx::Error> {
    let rows = sqlx::query!(
        "select idempotency_key, user_id, kp, corrected_amount_vnd from held_correction
         where topup_key = $1 order by held_at, idempotency_key",
        topup_key
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| Correction {
            key: row.idempotency_key,
            topup_key: topup_key.to_owned(),
            user_id: row.user_id,
            kp: Kp::new(row.kp),
            corrected_amount: row.corrected_amount_vnd.and_then(Vnd::parse),
        })
        .collect())
}

/// Ends the hold of the correction keyed `key`, in the transaction that recalls it.
pub async fn release_held_correction(conn: &mut PgConnection, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query!("delete from held_correction where idempotency_key = $1", key)
        .execute(conn)
        .await
        .map(drop)
}

pub async fn held_correction_failed(
    conn: &mut PgConnection,
    key: &str,
    error: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update held_correction set last_error = $2 where idempotency_key = $1",
        key,
        error
    )
    .execute(conn)
    .await
    .map(drop)
}
