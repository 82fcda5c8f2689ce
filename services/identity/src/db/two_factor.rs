//! A player's authenticator (TOTP) secret and recovery codes.

use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

pub struct TotpRow {
    pub secret: Vec<u8>,
    pub confirmed_at: Option<OffsetDateTime>,
}

/// Keeps a new secret for the player, replacing one not yet confirmed; `false` when two-factor
/// is already on (the confirmed secret stays).
pub async fn start(conn: &mut PgConnection, user_id: Uuid, secret: &[u8]) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "insert into totp_credential (user_id, secret) values ($1, $2)
         on conflict (user_id) do update
            set secret = excluded.secret, last_step = null, created_at = now()
          where totp_credential.confirmed_at is null",
        user_id,
        secret
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn find(conn: &mut PgConnection, user_id: Uuid) -> Result<Option<TotpRow>, sqlx::Error> {
    sqlx::query_as!(
        TotpRow,
        "select secret, confirmed_at from totp_credential where user_id = $1",
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// Takes `step`'s code as used: `false` when a code of this step or a later one was already
/// accepted (a replay).
pub async fn accept_step(conn: &mut PgConnection, user_id: Uuid, step: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "update totp_credential set last_step = $2
          where user_id = $1 and (last_step is null or last_step < $2)",
        user_id,
        step
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Turns two-factor on with the secret started; `false` when none is waiting.
pub async fn confirm(conn: &mut PgConnection, user_id: Uuid) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "update totp_credential set confirmed_at = now()
          where user_id = $1 and confirmed_at is null",
        user_id
    )
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(false);
    }
    set_enabled(conn, user_id, true).await?;
    Ok(true)
}

/// Turns two-factor off: the secret and every recovery code are deleted.
pub async fn remove(conn: &mut PgConnection, user_id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query!("delete from recovery_code where user_id = $1", user_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("delete from totp_credential where user_id = $1", user_id)
        .execute(&mut *conn)
        .await?;
    set_enabled(conn, user_id, false).await
}

async fn set_enabled(conn: &mut PgConnection, user_id: Uuid, enabled: bool) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update user_account set mfa_enabled = $2 where id = $1",
        user_id,
        enabled
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Replaces the player's recovery codes with these hashes.
pub async fn replace_recovery_codes(
    conn: &mut PgConnection,
    user_id: Uuid,
    hashes: &[Vec<u8>],
) -> Result<(), sqlx::Error> {
    sqlx::query!("delete from recovery_code where user_id = $1", user_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "insert into recovery_code (user_id, code_hash) select $1, unnest($2::bytea[])",
        user_id,
        hashes
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Uses the recovery code of this hash: `false` when it is not the player's or already used.
pub async fn use_recovery_code(
    conn: &mut PgConnection,
    user_id: Uuid,
    hash: &[u8],
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "update recovery_code set used_at = now()
          where user_id = $1 and code_hash = $2 and used_at is null",
        user_id,
        hash
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn recovery_codes_left(conn: &mut PgConnection, user_id: Uuid) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select count(*) as "left!" from recovery_code where user_id = $1 and used_at is null"#,
        user_id
    )
    .fetch_one(conn)
    .await
}
