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
