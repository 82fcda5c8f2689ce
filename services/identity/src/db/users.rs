//! Queries on the identity schema.

use sqlx::PgPool;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: Uuid,
    pub username: String,
    pub email: String,
    pub dob: Date,
    pub first_name: String,
    pub middle_name: String,
    pub last_name: String,
    pub language: String,
    pub phone_number: String,
    pub mfa_enabled: bool,
    pub created_at: OffsetDateTime,
    pub verified_at: Option<OffsetDateTime>,
    pub password_changed_at: Option<OffsetDateTime>,
}

pub async fn find_user(pool: &PgPool, id: Uuid) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as(
        "select id, username, email, dob, first_name, middle_name, last_name, language, phone_number,
                mfa_enabled, created_at, verified_at, password_changed_at
         from user_account where id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub struct NewUser<'a> {
    pub id: Uuid,
    pub username: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub dob: Date,
    pub receive_newsletter: bool,
}

/// Which unique field a failed insert collided on.
#[derive(Debug, PartialEq, Eq)]
pub enum Taken {
    Username,
}

pub enum InsertError {
    Taken(Taken),
    Database(sqlx::Error),
}

pub async fn insert_user(pool: &PgPool, user: &NewUser<'_>) -> Result<UserRow, InsertError> {
    sqlx::query_as(
        "insert into user_account (id, username, email, password_hash, dob, receive_newsletter)
         values ($1, $2, $3, $4, $5, $6)
         returning id, username, email, dob, first_name, middle_name, last_name, language, phone_number,
                   mfa_enabled, created_at, verified_at, password_changed_at",
    )
    .bind(user.id)
    .bind(user.username)
    .bind(user.email)
    .bind(user.password_hash)
    .bind(user.dob)
    .bind(user.receive_newsletter)
    .fetch_one(pool)
    .await
    .map_err(
        |error| match error.as_database_error().and_then(|db| db.constraint()) {
            Some("user_account_username_key") => InsertError::Taken(Taken::Username),
            _ => InsertError::Database(error),
        },
    )
}

/// Whether `username` already belongs to an account, regardless of case. (An address may be
/// named by several accounts until one verifies it: see the migration
/// `email_unique_once_verified`.)
pub async fn username_taken(pool: &PgPool, username: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("select exists (select 1 from user_account where lower(username) = lower($1))")
        .bind(username)
        .fetch_one(pool)
        .await
}

/// Whether an account other than `except` names `email`, regardless of case.
pub async fn email_held_by_another(
    conn: &mut sqlx::PgConnection,
    email: &str,
    except: Uuid,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar(
        "select exists (select 1 from user_account where lower(email) = lower($1) and id <> $2)",
    )
    .bind(email)
    .bind(except)
    .fetch_one(conn)
    .await
}

/// The account's id and password hash, by username regardless of case.
pub async fn credentials(pool: &PgPool, username: &str) -> Result<Option<(Uuid, String)>, sqlx::Error> {
    sqlx::query_as("select id, password_hash from user_account where lower(username) = lower($1)")
        .bind(username)
        .fetch_optional(pool)
        .await
}
