//! Staff of the support console.

use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct StaffRow {
    pub id: Uuid,
    pub username: String,
    pub role: String,
    /// Where enrolment links go; `None` for members made before there were any.
    pub email: Option<String>,
    pub created_at: OffsetDateTime,
    pub signed_in_at: Option<OffsetDateTime>,
    pub disabled_at: Option<OffsetDateTime>,
    /// An enrolment link is open: the member has not set their own password and app yet.
    pub enrolment_pending: bool,
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
    pub email: Option<&'a str>,
}

/// Why a member was not added.
#[derive(Debug, PartialEq, Eq)]
pub enum Taken {
    Username,
    Email,
}

/// Adds a member, unless their username or address is another member's.
pub async fn insert(conn: &mut PgConnection, staff: &NewStaff<'_>) -> Result<Result<(), Taken>, sqlx::Error> {
    let done = sqlx::query!(
        "insert into staff_account (id, username, password_hash, totp_secret, role, email)
         values ($1, $2, $3, $4, $5, $6) on conflict do nothing",
        staff.id,
        staff.username,
        staff.password_hash,
        staff.totp_secret,
        staff.role,
        staff.email
    )
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 1 {
        return Ok(Ok(()));
    }
    let username_taken = sqlx::query_scalar!(
        r#"select exists(select from staff_account where username = $1) as "taken!""#,
        staff.username
    )
    .fetch_one(conn)
    .await?;
    Ok(Err(if username_taken {
        Taken::Username
    } else {
        Taken::Email
    }))
}

pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<StaffRow>, sqlx::Error> {
    sqlx::query_as!(
        StaffRow,
        r#"select id, username, role, email, created_at, signed_in_at, disabled_at,
                exists(select from staff_enrolment where staff_id = staff_account.id) as "enrolment_pending!"
           from staff_account where id = $1"#,
        id
    )
    .fetch_optional(conn)
    .await
}

pub async fn list(conn: &mut PgConnection) -> Result<Vec<StaffRow>, sqlx::Error> {
    sqlx::query_as!(
        StaffRow,
        r#"select id, username, role, email, created_at, signed_in_at, disabled_at,
                exists(select from staff_enrolment where staff_id = staff_account.id) as "enrolment_pending!"
           from staff_account order by username"#
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
        r#"update staff_account set role = $2,
                disabled_at = case when $3 then coalesce(disabled_at, now()) else null end
          where id = $1
          returning id, username, role, email, created_at, signed_in_at, disabled_at,
                exists(select from staff_enrolment where staff_id = staff_account.id) as "enrolment_pending!""#,
        id,
        role,
        disabled
    )
    .fetch_optional(conn)
    .await
}

/// Replaces the member's password hash and app secret (sealed), forgetting the last app step.
pub async fn set_credentials(
    conn: &mut PgConnection,
    id: Uuid,
    password_hash: &str,
    totp_secret: &[u8],
    last_step: Option<i64>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update staff_account set password_hash = $2, totp_secret = $3, totp_last_step = $4 where id = $1",
        id,
        password_hash,
        totp_secret,
        last_step
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Opens the member's enrolment, replacing an earlier one (whose link stops working).
pub async fn open_enrolment(
    conn: &mut PgConnection,
    id: Uuid,
    token_hash: &[u8],
    totp_secret: &[u8],
    hours: i32,
) -> Result<OffsetDateTime, sqlx::Error> {
    sqlx::query_scalar!(
        "insert into staff_enrolment (staff_id, token_hash, totp_secret, expires_at)
         values ($1, $2, $3, now() + make_interval(hours => $4))
         on conflict (staff_id) do update
            set token_hash = excluded.token_hash, totp_secret = excluded.totp_secret,
                expires_at = excluded.expires_at, created_at = now()
         returning expires_at",
        id,
        token_hash,
        totp_secret,
        hours
    )
    .fetch_one(conn)
    .await
}

/// An open, unexpired enrolment and its member.
pub struct EnrolmentRow {
    pub staff_id: Uuid,
    pub username: String,
    pub email: Option<String>,
    pub totp_secret: Vec<u8>,
    pub expires_at: OffsetDateTime,
}

pub async fn enrolment(
    conn: &mut PgConnection,
    token_hash: &[u8],
) -> Result<Option<EnrolmentRow>, sqlx::Error> {
    sqlx::query_as!(
        EnrolmentRow,
        "select e.staff_id, s.username, s.email, e.totp_secret, e.expires_at
           from staff_enrolment e join staff_account s on s.id = e.staff_id
          where e.token_hash = $1 and e.expires_at > now()",
        token_hash
    )
    .fetch_optional(conn)
    .await
}

/// Uses the enrolment of `token_hash` up: `true` when it was still open and unexpired (and is
/// now gone), `false` when another request used it first or it expired.
pub async fn close_enrolment(conn: &mut PgConnection, token_hash: &[u8]) -> Result<bool, sqlx::Error> {
    let done = sqlx::query!(
        "delete from staff_enrolment where token_hash = $1 and expires_at > now()",
        token_hash
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}
