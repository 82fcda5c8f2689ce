//! Security codes mailed to confirm an action, kept as hashes with their tries.

use sqlx::PgConnection;
use uuid::Uuid;

/// Stores a new code for the action, replacing any earlier one; tries made within the hour
/// still count.
pub async fn replace(
    conn: &mut PgConnection,
    user_id: Uuid,
    action: &str,
    code_hash: &[u8],
    lifetime_minutes: i32,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into security_code (user_id, action, code_hash, expires_at)
         values ($1, $2, $3, now() + make_interval(mins => $4))
         on conflict (user_id, action) do update
         set code_hash = excluded.code_hash, expires_at = excluded.expires_at,
             attempts = case when security_code.tries_since > now() - interval '1 hour'
                             then security_code.attempts else 0 end,
             tries_since = case when security_code.tries_since > now() - interval '1 hour'
                                then security_code.tries_since else now() end,
             used_at = null, created_at = now()",
        user_id,
        action,
        code_hash,
        lifetime_minutes
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The stored code for the action, locked until the transaction ends.
pub struct StoredCode {
    pub code_hash: Vec<u8>,
    pub attempts: i32,
    /// Unused and unexpired.
    pub live: bool,
}

pub async fn lock(
    conn: &mut PgConnection,
    user_id: Uuid,
    action: &str,
) -> Result<Option<StoredCode>, sqlx::Error> {
    sqlx::query_as!(
        StoredCode,
        r#"select code_hash, attempts, used_at is null and expires_at > now() as "live!" from security_code
           where user_id = $1 and action = $2 for update"#,
        user_id,
        action
    )
    .fetch_optional(conn)
    .await
}

/// The right code: used, and the tries start over.
pub async fn mark_used(conn: &mut PgConnection, user_id: Uuid, action: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update security_code set used_at = now(), attempts = 0, tries_since = now()
         where user_id = $1 and action = $2",
        user_id,
        action
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A wrong code: one more try counted.
pub async fn count_try(conn: &mut PgConnection, user_id: Uuid, action: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update security_code set attempts = attempts + 1 where user_id = $1 and action = $2",
        user_id,
        action
    )
    .execute(conn)
    .await?;
    Ok(())
}
