//! The sign-in history: sign-ins and refused attempts, per player.

use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

pub struct NewSignIn<'a> {
    pub user_id: Uuid,
    pub ip: &'a str,
    pub user_agent: &'a str,
    pub device_hash: Option<&'a [u8]>,
    pub method: &'a str,
    pub failure: Option<&'a str>,
    pub session_handle: Option<&'a str>,
}

pub async fn insert(conn: &mut PgConnection, row: &NewSignIn<'_>) -> Result<Uuid, sqlx::Error> {
    let id = Uuid::now_v7();
    sqlx::query!(
        "insert into sign_in (id, user_id, ip, user_agent, device_hash, method, failure, session_handle)
         values ($1, $2, $3, $4, $5, $6, $7, $8)",
        id,
        row.user_id,
        row.ip,
        row.user_agent,
        row.device_hash,
        row.method,
        row.failure,
        row.session_handle
    )
    .execute(conn)
    .await?;
    Ok(id)
}

/// What the player's earlier sign-ins say about a device: whether any signed in from it, and
/// whether they ever signed in at all.
pub struct Seen {
    pub device: bool,
    pub any: bool,
}

pub async fn seen(
    conn: &mut PgConnection,
    user_id: Uuid,
    device_hash: Option<&[u8]>,
) -> Result<Seen, sqlx::Error> {
    let row = sqlx::query!(
        r#"select coalesce(bool_or(device_hash = $2), false) as "device!",
                  count(*) > 0 as "any!"
             from sign_in where user_id = $1 and failure is null"#,
        user_id,
        device_hash
    )
    .fetch_one(conn)
    .await?;
    Ok(Seen {
        device: row.device,
        any: row.any,
    })
}

pub async fn set_end_token(conn: &mut PgConnection, id: Uuid, token_hash: &[u8]) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update sign_in set end_token_hash = $2 where id = $1",
        id,
        token_hash
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Uses up an end-session link made after `since`: the player and the session it names.
pub async fn use_end_token(
    conn: &mut PgConnection,
    token_hash: &[u8],
    since: OffsetDateTime,
) -> Result<Option<(Uuid, String)>, sqlx::Error> {
    let row = sqlx::query!(
        r#"update sign_in set end_token_hash = null
            where end_token_hash = $1 and occurred_at > $2
        returning user_id, session_handle as "session_handle!""#,
        token_hash,
        since
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|row| (row.user_id, row.session_handle)))
}

pub struct SignInRow {
    pub id: Uuid,
    pub occurred_at: OffsetDateTime,
    pub ip: String,
    pub user_agent: String,
    pub method: String,
    pub failure: Option<String>,
}

/// The player's latest `limit` sign-ins and refused attempts, newest first.
pub async fn latest(
    conn: &mut PgConnection,
    user_id: Uuid,
    limit: i64,
) -> Result<Vec<SignInRow>, sqlx::Error> {
    sqlx::query_as!(
        SignInRow,
        "select id, occurred_at, ip, user_agent, method, failure
           from sign_in where user_id = $1
          order by occurred_at desc, id desc limit $2",
        user_id,
        limit
    )
    .fetch_all(conn)
    .await
}
