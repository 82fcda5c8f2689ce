//! What the support console asks of identity about players: finding them, and locking an
//! account (recorded in the audit log with its state before and after).

use kid_contracts::messages::staff::MSG_PLAYER_NOT_FOUND;
use kid_platform::{audit, auth::StaffActor};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::Error;
use crate::db::{self, users::FoundPlayer};

/// The most players one look-up answers.
const MAX_FOUND: i64 = 50;

pub async fn find_players(
    pool: &PgPool,
    query: &str,
    exact: &[String],
    limit: u32,
) -> Result<Vec<FoundPlayer>, Error> {
    // PostgreSQL stores no NUL character, so no account holds one.
    let query = if query.contains('\0') { "" } else { query.trim() };
    let exact: Vec<String> = exact
        .iter()
        .filter(|value| !value.contains('\0'))
        .map(|value| value.trim().to_lowercase())
        .collect();
    if query.is_empty() && exact.is_empty() {
        return Ok(Vec::new());
    }
    let limit = if limit == 0 {
        20
    } else {
        i64::from(limit).min(MAX_FOUND)
    };
    let mut conn = pool.acquire().await?;
    Ok(db::users::find_players(&mut conn, query, &exact, limit).await?)
}

/// Locks the account with `reason`, or unlocks it when `reason` is empty.
pub async fn set_lock(
    pool: &PgPool,
    staff: &StaffActor,
    user_id: Uuid,
    reason: &str,
) -> Result<FoundPlayer, Error> {
    let reason = Some(reason.trim()).filter(|reason| !reason.is_empty());
    let mut tx = pool.begin().await?;
    let (was_locked, was_reason) = db::users::set_locked(&mut tx, user_id, reason)
        .await?
        .ok_or(Error::NotFound(MSG_PLAYER_NOT_FOUND))?;
    let action = if reason.is_some() {
        "player.lock"
    } else {
        "player.unlock"
    };
    audit::record(
        &mut tx,
        staff,
        action,
        &format!("player:{user_id}"),
        Some(&json!({ "locked": was_locked.is_some(), "reason": was_reason })),
        Some(&json!({ "locked": reason.is_some(), "reason": reason })),
    )
    .await?;
    let id = user_id.to_string();
    let found = db::users::find_players(&mut tx, "", std::slice::from_ref(&id), 1)
        .await?
        .pop()
        .ok_or(Error::NotFound(MSG_PLAYER_NOT_FOUND))?;
    tx.commit().await?;
    tracing::info!(%user_id, staff = staff.username, locked = reason.is_some(), "account lock changed by support");
    Ok(found)
}
