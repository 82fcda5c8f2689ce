//! Players' accounts.

use sqlx::PgConnection;
use time::{Date, OffsetDateTime};
use uuid::Uuid;

#[derive(Debug, Clone)]
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

pub async fn find_user(conn: &mut PgConnection, id: Uuid) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as!(
        UserRow,
        "select id, username, email, dob, first_name, middle_name, last_name, language, phone_number,
                mfa_enabled, created_at, verified_at, password_changed_at
         from user_account where id = $1 and closed_at is null",
        id
    )
    .fetch_optional(conn)
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

pub async fn insert_user(conn: &mut PgConnection, user: &NewUser<'_>) -> Result<UserRow, InsertError> {
    sqlx::query_as!(
        UserRow,
        "insert into user_account (id, username, email, password_hash, dob, receive_newsletter)
         values ($1, $2, $3, $4, $5, $6)
         returning id, username, email, dob, first_name, middle_name, last_name, language, phone_number,
                   mfa_enabled, created_at, verified_at, password_changed_at",
        user.id,
        user.username,
        user.email,
        user.password_hash,
        user.dob,
        user.receive_newsletter
    )
    .fetch_one(conn)
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
pub async fn username_taken(conn: &mut PgConnection, username: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select exists (select 1 from user_account where lower(username) = lower($1)) as "taken!""#,
        username
    )
    .fetch_one(conn)
    .await
}

/// Whether an account other than `except` names `email`, regardless of case.
pub async fn email_held_by_another(
    conn: &mut PgConnection,
    email: &str,
    except: Uuid,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select exists (select 1 from user_account where lower(email) = lower($1) and id <> $2) as "held!""#,
        email,
        except
    )
    .fetch_one(conn)
    .await
}

/// What a sign-in needs of the account named `username` (regardless of case), closed or not:
/// a closed account's sign-in is refused with its own message, once the password is right.
pub struct SignInAccount {
    pub id: Uuid,
    pub password_hash: String,
    pub closed_at: Option<OffsetDateTime>,
    pub locked_at: Option<OffsetDateTime>,
}

pub async fn sign_in_account(
    conn: &mut PgConnection,
    username: &str,
) -> Result<Option<SignInAccount>, sqlx::Error> {
    sqlx::query_as!(
        SignInAccount,
        "select id, password_hash, closed_at, locked_at from user_account
          where lower(username) = lower($1) and erased_at is null",
        username
    )
    .fetch_optional(conn)
    .await
}

/// Who an account is, for the mail sent to it. No password hash: only the calls that check
/// the password read it (`password_hash`).
#[derive(Debug, Clone)]
pub struct Addressee {
    pub id: Uuid,
    pub username: String,
    pub email: String,
    pub verified: bool,
}

/// The account, locked until the transaction ends when `lock` (a link or code is issued for it).
pub async fn addressee(conn: &mut PgConnection, id: Uuid) -> Result<Option<Addressee>, sqlx::Error> {
    sqlx::query_as!(
        Addressee,
        r#"select id, username, email, verified_at is not null as "verified!"
           from user_account where id = $1 and closed_at is null for update"#,
        id
    )
    .fetch_optional(conn)
    .await
}

/// The account named `username` regardless of case, locked until the transaction ends.
pub async fn addressee_by_username(
    conn: &mut PgConnection,
    username: &str,
) -> Result<Option<Addressee>, sqlx::Error> {
    sqlx::query_as!(
        Addressee,
        r#"select id, username, email, verified_at is not null as "verified!"
           from user_account where lower(username) = lower($1) and closed_at is null for update"#,
        username
    )
    .fetch_optional(conn)
    .await
}

/// The account's password hash, for checking the password it has now.
pub async fn password_hash(conn: &mut PgConnection, id: Uuid) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar!(
        "select password_hash from user_account where id = $1 and closed_at is null",
        id
    )
    .fetch_optional(conn)
    .await
}

/// The accounts naming `email` regardless of case, the verified one first, then the oldest.
pub async fn addressees_by_email(
    conn: &mut PgConnection,
    email: &str,
) -> Result<Vec<Addressee>, sqlx::Error> {
    sqlx::query_as!(
        Addressee,
        r#"select id, username, email, verified_at is not null as "verified!"
           from user_account where lower(email) = lower($1) and closed_at is null
           order by verified_at is null, created_at"#,
        email
    )
    .fetch_all(conn)
    .await
}

/// What a signed-in player may change of the profile; `None` keeps the stored value.
pub struct ProfileUpdate<'a> {
    pub first_name: Option<&'a str>,
    pub middle_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub language: Option<&'a str>,
    pub phone_number: Option<&'a str>,
}

/// False when there is no such account.
pub async fn update_profile(
    conn: &mut PgConnection,
    id: Uuid,
    update: ProfileUpdate<'_>,
) -> Result<bool, sqlx::Error> {
    let updated = sqlx::query!(
        "update user_account
         set first_name = coalesce($2, first_name), middle_name = coalesce($3, middle_name),
             last_name = coalesce($4, last_name), language = coalesce($5, language),
             phone_number = coalesce($6, phone_number)
         where id = $1",
        id,
        update.first_name,
        update.middle_name,
        update.last_name,
        update.language,
        update.phone_number
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(updated == 1)
}

pub async fn set_password(conn: &mut PgConnection, id: Uuid, password_hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update user_account set password_hash = $2, password_changed_at = now() where id = $1",
        id,
        password_hash
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Replaces the password's hash by another of the same password (its normalised form), unless
/// the password changed since `old` was read; when it was last changed stays as it was.
pub async fn replace_password_hash(
    conn: &mut PgConnection,
    id: Uuid,
    old: &str,
    new: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update user_account set password_hash = $3 where id = $1 and password_hash = $2",
        id,
        old,
        new
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Moves the account to `email`, unverified.
pub async fn set_email(conn: &mut PgConnection, id: Uuid, email: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update user_account set email = $2, verified_at = null where id = $1",
        id,
        email
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Verifies the account's address; fails on `user_account_verified_email_key` when another
/// account verified it first.
pub async fn mark_verified(conn: &mut PgConnection, id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update user_account set verified_at = coalesce(verified_at, now()) where id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Closes the account now; answers when (the first closing's time, if it was already closed
/// by a request racing this one).
pub async fn close(conn: &mut PgConnection, id: Uuid) -> Result<OffsetDateTime, sqlx::Error> {
    sqlx::query_scalar!(
        r#"update user_account set closed_at = coalesce(closed_at, now()) where id = $1
           returning closed_at as "closed_at!""#,
        id
    )
    .fetch_one(conn)
    .await
}

/// Accounts closed before `closed_before` and not yet erased, oldest first, locked.
pub async fn due_for_erasure(
    conn: &mut PgConnection,
    closed_before: OffsetDateTime,
    limit: i64,
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query_scalar!(
        "select id from user_account
          where closed_at < $1 and erased_at is null
          order by closed_at limit $2 for update skip locked",
        closed_before,
        limit
    )
    .fetch_all(conn)
    .await
}

/// Erases a closed account's personal data: the row keeps its id (the ledger's opaque id) with
/// placeholders derived from it and no lock; its history, passkeys, two-factor, tokens, codes,
/// support tickets and the mail written to it (at any address) are deleted. Answers the ids of
/// the ticket images whose rows went, whose files the caller removes after the commit.
pub async fn erase(
    conn: &mut PgConnection,
    id: Uuid,
    username: &str,
    email: &str,
) -> Result<Vec<Uuid>, sqlx::Error> {
    sqlx::query!(
        "delete from mail_message
          where user_id = $1
             or (user_id is null
                 and lower(to_address) = (select lower(email) from user_account where id = $1))",
        id
    )
    .execute(&mut *conn)
    .await?;
    // Their support tickets, the conversations and the images' rows (the caller removes the
    // files once this commits).
    sqlx::query!(
        "delete from ticket_message
          where ticket_id in (select id from support_ticket where user_id = $1)",
        id
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("delete from support_ticket where user_id = $1", id)
        .execute(&mut *conn)
        .await?;
    let images = sqlx::query_scalar!(
        "delete from ticket_attachment where user_id = $1 returning id",
        id
    )
    .fetch_all(&mut *conn)
    .await?;
    sqlx::query!("delete from sign_in where user_id = $1", id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("delete from passkey where user_id = $1", id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("delete from passkey_ceremony where user_id = $1", id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("delete from recovery_code where user_id = $1", id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("delete from totp_credential where user_id = $1", id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("delete from email_token where user_id = $1", id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!("delete from security_code where user_id = $1", id)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "update user_account
            set username = $2, email = $3, password_hash = '', dob = date '1900-01-01',
                first_name = '', middle_name = '', last_name = '', phone_number = '',
                language = 'vi-VN', receive_newsletter = false, mfa_enabled = false,
                locked_at = null, locked_reason = null, erased_at = now()
          where id = $1",
        id,
        username,
        email
    )
    .execute(conn)
    .await?;
    Ok(images)
}

/// Whether the player asked for the newsletter.
pub async fn receives_newsletter(conn: &mut PgConnection, id: Uuid) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar!("select receive_newsletter from user_account where id = $1", id)
        .fetch_one(conn)
        .await
}

/// A player as the support console finds them.
#[derive(Debug, Clone)]
pub struct FoundPlayer {
    pub id: Uuid,
    pub username: String,
    pub email: String,
    pub phone_number: String,
    pub created_at: OffsetDateTime,
    pub closed_at: Option<OffsetDateTime>,
    pub locked_at: Option<OffsetDateTime>,
    pub locked_reason: Option<String>,
}

/// Players whose username, email or phone number is `query` (a username also by its start), or
/// whose id or username is one of `exact`; closed accounts included, erased ones not.
pub async fn find_players(
    conn: &mut PgConnection,
    query: &str,
    exact: &[String],
    limit: i64,
) -> Result<Vec<FoundPlayer>, sqlx::Error> {
    sqlx::query_as!(
        FoundPlayer,
        r#"select id, username, email, phone_number, created_at, closed_at, locked_at, locked_reason
           from user_account
           where erased_at is null and (
                 ($1 <> '' and (lower(username) = lower($1) or lower(email) = lower($1)
                                or phone_number = $1 or lower(username) like lower($1) || '%'
                                or id::text = lower($1)))
              or lower(username) = any($2) or id::text = any($2))
           order by lower(username) = lower($1) desc, username
           limit $3"#,
        query,
        exact,
        limit
    )
    .fetch_all(conn)
    .await
}

/// Locks (with `reason`) or unlocks the account; its state before, when it exists.
pub async fn set_locked(
    conn: &mut PgConnection,
    id: Uuid,
    reason: Option<&str>,
) -> Result<Option<(Option<OffsetDateTime>, Option<String>)>, sqlx::Error> {
    let before = sqlx::query!(
        "select locked_at, locked_reason from user_account where id = $1 and erased_at is null for update",
        id
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(before) = before else {
        return Ok(None);
    };
    sqlx::query!(
        "update user_account
            set locked_at = case when $2::text is null then null else coalesce(locked_at, now()) end,
                locked_reason = $2
          where id = $1",
        id,
        reason
    )
    .execute(conn)
    .await?;
    Ok(Some((before.locked_at, before.locked_reason)))
}

/// When support locked the account and why (both `None` when it is not locked).
pub async fn lock_of(
    conn: &mut PgConnection,
    id: Uuid,
) -> Result<(Option<OffsetDateTime>, Option<String>), sqlx::Error> {
    let row = sqlx::query!(
        "select locked_at, locked_reason from user_account where id = $1",
        id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map_or((None, None), |row| (row.locked_at, row.locked_reason)))
}

/// Whether support locked the account.
pub async fn is_locked(conn: &mut PgConnection, id: Uuid) -> Result<bool, sqlx::Error> {
    let locked = sqlx::query_scalar!(
        r#"select locked_at is not null as "locked!" from user_account where id = $1"#,
        id
    )
    .fetch_optional(conn)
    .await?;
    Ok(locked.unwrap_or(false))
}
