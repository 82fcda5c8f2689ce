//! Staff of the support console.

use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct StaffRow {
    pub id: Uuid,
    pub username: String,
    pub role: String,
    pub created_at: OffsetDateTime,
    pub signed_in_at: Option<OffsetDateTime>,
    pub disabled_at: Option<OffsetDateTime>,
}

/// What signing in checks.
pub struct StaffCredentials {
    pub id: Uuid,
    pub password_hash: String,
    pub totp_secret: Vec<u8>,
}

pub struct NewStaff<'a> {
    pub id: Uuid,
    pub username: &'a str,
    pub password_hash: &'a str,
    pub totp_secret: &'a [u8],
    pub role: &'a str,
}

/// `false` when the username is taken.
pub async fn insert(conn: &mut PgConnection, staff: &NewStaff<'_>) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "insert into staff_account (id, username, password_hash, totp_secret, role)
         values ($1, $2, $3, $4, $5) on conflict (username) do nothing",
        staff.id,
        staff.username,
        staff.password_hash,
        staff.totp_secret,
        staff.role
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<StaffRow>, sqlx::Error> {
    sqlx::query_as!(
        StaffRow,
        "select id, username, role, created_at, signed_in_at, disabled_at from staff_account where id = $1",
        id
    )
    .fetch_optional(conn)
    .await
}

pub async fn list(conn: &mut PgConnection) -> Result<Vec<StaffRow>, sqlx::Error> {
    sqlx::query_as!(
        StaffRow,
        "select id, username, role, created_at, signed_in_at, disabled_at from staff_account order by username"
    )
    .fetch_all(conn)
    .await
}

/// The credentials of an enabled staff member, by username.
pub async fn credentials_of(
    conn: &mut PgConnection,
    username: &str,
) -> Result<Option<StaffCredentials>, sqlx::Error> {
    sqlx::query_as!(
        StaffCredentials,
        "select id, password_hash, totp_secret from staff_account
          where username = $1 and disabled_at is null",
        username
    )
    .fetch_optional(conn)
    .await
}

/// The credentials of an enabled staff member, by id.
pub async fn credentials(conn: &mut PgConnection, id: Uuid) -> Result<Option<StaffCredentials>, sqlx::Error> {
    sqlx::query_as!(
        StaffCredentials,
        "select id, password_hash, totp_secret from staff_account where id = $1 and disabled_at is null",
        id
    )
    .fetch_optional(conn)
    .await
}

/// Takes `step`'s app code as used: `false` for a replay (this step or a later one was accepted).
pub async fn accept_step(conn: &mut PgConnection, id: Uuid, step: i64) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "update staff_account set totp_last_step = $2
          where id = $1 and (totp_last_step is null or totp_last_step < $2)",
        id,
        step
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub async fn signed_in(conn: &mut PgConnection, id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query!("update staff_account set signed_in_at = now() where id = $1", id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Sets the role and whether the member is disabled; the row as it was, when it exists.
pub async fn update(
    conn: &mut PgConnection,
    id: Uuid,
    role: &str,
    disabled: bool,
) -> Result<Option<StaffRow>, sqlx::Error> {
    sqlx::query_as!(
        StaffRow,
        "update staff_account set role = $2,
                disabled_at = case when $3 then coalesce(disabled_at, now()) else null end
          where id = $1
          returning id, username, role, created_at, signed_in_at, disabled_at",
        id,
        role,
        disabled
    )
    .fetch_optional(conn)
    .await
}
