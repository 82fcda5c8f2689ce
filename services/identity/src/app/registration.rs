//! Opening an account and signing in.

use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{
    Error, account,
    sign_ins::{self, Attempt, Failure, Method},
};
use crate::{
    db::{self, InsertError, NewUser, Taken, UserRow},
    domain::{Dob, Email, FieldErrors, Password, PasswordHasher, Strength, Username, hasher::Verdict},
};
use kid_contracts::messages::registration::MSG_USERNAME_TAKEN;

/// A registration form as the player sent it.
pub struct Registration<'a> {
    pub username: &'a str,
    pub email: &'a str,
    pub password: &'a str,
    pub password_confirm: &'a str,
    pub dob: &'a str,
    pub receive_newsletter: bool,
}

/// Opens an account: every field checked (the username's owner told, the address's not), the
/// password hashed, and the address's owner mailed when another account already names it.
pub async fn register(
    pool: &PgPool,
    hasher: &PasswordHasher,
    request: &Registration<'_>,
) -> Result<UserRow, Error> {
    let mut errors = FieldErrors::default();
    let email = errors.take("email", Email::parse(request.email));
    let dob = errors.take("dob", Dob::parse(request.dob, OffsetDateTime::now_utc().date()));
    let username = errors.take("username", Username::parse(request.username));
    let password = errors.take(
        "password",
        Password::parse(request.password, Strength::Medium)
            .and_then(|password| password.not_personal(request.username, request.email)),
    );
    errors.take(
        "passwordConfirm",
        Password::confirm(request.password_confirm, request.password),
    );
    // The username is the sign-in handle a player must pick anew, so it is told; whether
    // the address has an account is not (its owner is mailed instead, below).
    if let Some(username) = &username
        && db::users::username_taken(&mut *pool.acquire().await?, username.as_str()).await?
    {
        record_taken(&mut errors, &Taken::Username);
    }
    let (Some(email), Some(dob), Some(username), Some(password), true) =
        (email, dob, username, password, errors.is_empty())
    else {
        return Err(Error::Validation(errors));
    };
    let password_hash = hasher.hash(&password).await?;
    let new_user = NewUser {
        id: Uuid::now_v7(),
        username: username.as_str(),
        email: email.as_str(),
        password_hash: &password_hash,
        dob: dob.date(),
        receive_newsletter: request.receive_newsletter,
    };
    match db::users::insert_user(&mut *pool.acquire().await?, &new_user).await {
        Ok(row) => {
            tracing::info!(user_id = %row.id, "account registered");
            account::tell_address_owner(pool, row.id, &row.email).await?;
            Ok(row)
        }
        // Someone took the name between the check and the insert.
        Err(InsertError::Taken(field)) => {
            let mut errors = FieldErrors::default();
            record_taken(&mut errors, &field);
            Err(Error::Validation(errors))
        }
        Err(InsertError::Database(error)) => Err(error.into()),
    }
}

/// The account `username` names when `password` is its password. An unknown name costs the
/// same hashing time as a wrong password. A wrong password for a known account goes into its
/// sign-in history; so does the sign-in when no second factor is asked for.
pub async fn authenticate(
    pool: &PgPool,
    hasher: &PasswordHasher,
    public_url: &str,
    username: &str,
    password: &str,
    attempt: &Attempt<'_>,
) -> Result<UserRow, Error> {
    let username = Username::normalise_for_lookup(username);
    let account = db::users::sign_in_account(&mut *pool.acquire().await?, &username).await?;
    let stored = account.as_ref().map(|account| account.password_hash.as_str());
    let verdict = hasher.check(password, stored).await?;
    let client_ip = attempt.ip;
    let locked = account
        .as_ref()
        .is_some_and(|account| account.locked_at.is_some());
    let credentials = account.map(|account| {
        let closed = account.closed_at;
        ((account.id, account.password_hash), closed)
    });
    match credentials {
        // Only the password's owner learns that support locked the account.
        Some(((id, _), None)) if locked && verdict != Verdict::Wrong => {
            tracing::info!(user_id = %id, client_ip, outcome = "locked", "sign-in attempt");
            Err(Error::AccountLocked)
        }
        // Only the password's owner learns that the account is closed.
        Some(((id, _), Some(_))) if verdict != Verdict::Wrong => {
            tracing::info!(user_id = %id, client_ip, outcome = "closed", "sign-in attempt");
            Err(Error::AccountClosed)
        }
        Some(((id, stored), None)) if verdict != Verdict::Wrong => {
            tracing::info!(user_id = %id, client_ip, outcome = "success", "sign-in attempt");
            if verdict == Verdict::RightUnnormalised {
                let renewed = hasher.rehash(password).await?;
                db::users::replace_password_hash(&mut *pool.acquire().await?, id, &stored, &renewed).await?;
                tracing::info!(user_id = %id, "password hash renewed, normalised");
            }
            let user = db::users::find_user(&mut *pool.acquire().await?, id)
                .await?
                .ok_or(Error::UserNotFound)?;
            if !user.mfa_enabled {
                sign_ins::record_sign_in(pool, public_url, id, attempt, Method::Password).await?;
            }
            Ok(user)
        }
        Some(((id, _), _)) => {
            tracing::info!(user_id = %id, client_ip, outcome = "failure", "sign-in attempt");
            sign_ins::record_failure(pool, id, attempt, Method::Password, Failure::WrongPassword).await?;
            Err(Error::InvalidCredentials)
        }
        None => {
            tracing::info!(client_ip, outcome = "failure", "sign-in attempt");
            Err(Error::InvalidCredentials)
        }
    }
}

fn record_taken(errors: &mut FieldErrors, field: &Taken) {
    match field {
        Taken::Username => errors.add("username", MSG_USERNAME_TAKEN),
    }
}
