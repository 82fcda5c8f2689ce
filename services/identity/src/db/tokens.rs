//! Single-use links mailed to players (email verification, password reset), kept as hashes.

use sqlx::PgConnection;
use uuid::Uuid;

/// Ends every unused link of `purpose` for the account.
pub async fn expire(conn: &mut PgConnection, user_id: Uuid, purpose: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update email_token set used_at = now() where user_id = $1 and purpose = $2 and used_at is null",
        user_id,
        purpose
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Ends every unused link of the account, whatever it was for.
pub async fn expire_all(conn: &mut PgConnection, user_id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update email_token set used_at = now() where user_id = $1 and used_at is null",
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub struct NewToken<'a> {
    pub hash: &'a [u8],
    pub user_id: Uuid,
    pub purpose: &'a str,
    pub email: &'a str,
    pub hours: i32,
}

pub async fn insert(conn: &mut PgConnection, token: NewToken<'_>) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into email_token (token_hash, user_id, purpose, email, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(hours => $5))",
        token.hash,
        token.user_id,
        token.purpose,
        token.email,
        token.hours
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether the hash names an unused, unexpired reset link.
pub async fn reset_is_live(conn: &mut PgConnection, hash: &[u8]) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select exists (select 1 from email_token
           where token_hash = $1 and purpose = 'reset_password' and used_at is null and expires_at > now())
           as "live!""#,
        hash
    )
    .fetch_one(conn)
    .await
}

/// The account a reset link was for: the link is used up. `None` for an unknown, used or
/// expired link.
pub async fn use_reset(
    conn: &mut PgConnection,
    hash: &[u8],
) -> Result<Option<(Uuid, String, String)>, sqlx::Error> {
    let row = sqlx::query!(
        "update email_token t set used_at = now()
         from user_account u
         where t.token_hash = $1 and t.purpose = 'reset_password' and t.used_at is null
           and t.expires_at > now() and u.id = t.user_id
         returning u.id, u.username, u.email",
        hash
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|row| (row.id, row.username, row.email)))
}

/// The account a verification link was for, when it was sent to the address the account still
/// has: the link is used up. `None` for an unknown, used or expired link.
pub async fn use_verification(conn: &mut PgConnection, hash: &[u8]) -> Result<Option<Uuid>, sqlx::Error> {
    sqlx::query_scalar!(
        "update email_token t set used_at = now()
         from user_account u
         where t.token_hash = $1 and t.purpose = 'verify_email' and t.used_at is null
           and t.expires_at > now() and u.id = t.user_id and lower(u.email) = lower(t.email)
         returning t.user_id",
        hash
    )
    .fetch_optional(conn)
    .await
}
