//! Players' passkeys and the WebAuthn ceremonies waiting for an answer.

use serde_json::Value;
use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

pub struct PasskeyRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub name: String,
    pub passkey: Value,
    pub created_at: OffsetDateTime,
    pub last_used_at: Option<OffsetDateTime>,
}

pub struct NewPasskey<'a> {
    pub user_id: Uuid,
    pub credential_id: &'a [u8],
    pub name: &'a str,
    pub passkey: Value,
}

/// Keeps a new passkey; `None` when its credential is already registered (to anyone).
pub async fn insert(conn: &mut PgConnection, new: NewPasskey<'_>) -> Result<Option<PasskeyRow>, sqlx::Error> {
    sqlx::query_as!(
        PasskeyRow,
        "insert into passkey (id, user_id, credential_id, name, passkey)
         values ($1, $2, $3, $4, $5)
         on conflict (credential_id) do nothing
         returning id, user_id, name, passkey, created_at, last_used_at",
        Uuid::now_v7(),
        new.user_id,
        new.credential_id,
        new.name,
        new.passkey
    )
    .fetch_optional(conn)
    .await
}

/// The player's passkeys, oldest first.
pub async fn of_user(conn: &mut PgConnection, user_id: Uuid) -> Result<Vec<PasskeyRow>, sqlx::Error> {
    sqlx::query_as!(
        PasskeyRow,
        "select id, user_id, name, passkey, created_at, last_used_at
           from passkey where user_id = $1 order by created_at, id",
        user_id
    )
    .fetch_all(conn)
    .await
}

/// How many passkeys the player has.
pub async fn count(conn: &mut PgConnection, user_id: Uuid) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select count(*) as "count!" from passkey where user_id = $1"#,
        user_id
    )
    .fetch_one(conn)
    .await
}

/// Notes a sign-in with the passkey and keeps its record as the sign-in left it (the counter).
pub async fn used(conn: &mut PgConnection, id: Uuid, passkey: Value) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update passkey set passkey = $2, last_used_at = now() where id = $1",
        id,
        passkey
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes one of the player's passkeys; `false` when they have no such passkey.
pub async fn remove(conn: &mut PgConnection, user_id: Uuid, id: Uuid) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!("delete from passkey where id = $1 and user_id = $2", id, user_id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Keeps a ceremony's state until `expires_at`, and drops ceremonies already past theirs.
pub async fn start_ceremony(
    conn: &mut PgConnection,
    user_id: Option<Uuid>,
    kind: &str,
    state: Value,
    expires_at: OffsetDateTime,
) -> Result<Uuid, sqlx::Error> {
    sqlx::query!("delete from passkey_ceremony where expires_at < now()")
        .execute(&mut *conn)
        .await?;
    let id = Uuid::now_v7();
    sqlx::query!(
        "insert into passkey_ceremony (id, user_id, kind, state, expires_at) values ($1, $2, $3, $4, $5)",
        id,
        user_id,
        kind,
        state,
        expires_at
    )
    .execute(conn)
    .await?;
    Ok(id)
}

/// Uses up a ceremony of `kind` (for `user_id`, or nobody's) that has not expired: its state.
pub async fn take_ceremony(
    conn: &mut PgConnection,
    id: Uuid,
    user_id: Option<Uuid>,
    kind: &str,
) -> Result<Option<Value>, sqlx::Error> {
    sqlx::query_scalar!(
        "delete from passkey_ceremony
          where id = $1 and user_id is not distinct from $2 and kind = $3 and expires_at >= now()
          returning state",
        id,
        user_id,
        kind
    )
    .fetch_optional(conn)
    .await
}

/// The player's passkey of credential `credential_id`: its id and record.
pub async fn find(
    conn: &mut PgConnection,
    user_id: Uuid,
    credential_id: &[u8],
) -> Result<Option<(Uuid, Value)>, sqlx::Error> {
    let row = sqlx::query!(
        "select id, passkey from passkey where user_id = $1 and credential_id = $2",
        user_id,
        credential_id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|row| (row.id, row.passkey)))
}
