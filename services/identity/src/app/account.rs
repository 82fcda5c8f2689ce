//! A signed-in player looking after the account: profile and password.

use sqlx::PgPool;
use uuid::Uuid;

use super::{
    Error,
    security_code::{self, Action},
};
use crate::{
    db::{self, UserRow, users::ProfileUpdate},
    domain::{Email, FieldErrors, Password, PasswordHasher, ProfileChange, password},
    events::mail::{self, Mail},
};
use kid_contracts::messages::account::{
    MSG_CODE_REQUIRED, MSG_CODE_WRONG, MSG_CURRENT_REQUIRED, MSG_CURRENT_WRONG, MSG_EMAIL_INVALID,
    MSG_EMAIL_SAME, MSG_PASSWORD_NOW_REQUIRED, MSG_PASSWORD_NOW_WRONG,
};

/// Confirms a sensitive step (`action`, for the log) with the password the account has now,
/// given in `field`: missing or wrong is that field's error.
pub async fn confirm_password(
    pool: &PgPool,
    hasher: &PasswordHasher,
    user_id: Uuid,
    field: &'static str,
    password: &str,
    action: &str,
) -> Result<(), Error> {
    if password.is_empty() {
        return Err(Error::Validation(FieldErrors::one(
            field,
            MSG_PASSWORD_NOW_REQUIRED,
        )));
    }
    let stored_hash = db::users::password_hash(&mut *pool.acquire().await?, user_id).await?;
    if !hasher.verify(password, stored_hash.as_deref()).await? {
        tracing::info!(%user_id, outcome = "wrong password", action, "refused");
        return Err(Error::Validation(FieldErrors::one(field, MSG_PASSWORD_NOW_WRONG)));
    }
    Ok(())
}

pub async fn update_profile(pool: &PgPool, user_id: Uuid, change: &ProfileChange) -> Result<UserRow, Error> {
    let name = change.name.as_ref();
    let update = ProfileUpdate {
        first_name: name.map(|name| name.first.as_str()),
        middle_name: name.map(|name| name.middle.as_str()),
        last_name: name.map(|name| name.last.as_str()),
        language: change.language.as_deref(),
        phone_number: change.phone_number.as_deref(),
    };
    let mut conn = pool.acquire().await?;
    if !db::users::update_profile(&mut conn, user_id, update).await? {
        return Err(Error::UserNotFound);
    }
    tracing::info!(%user_id, "profile updated");
    db::users::find_user(&mut conn, user_id)
        .await?
        .ok_or(Error::UserNotFound)
}

/// Changes the password after checking the current one, and mails the player that it changed.
pub async fn change_password(
    pool: &PgPool,
    hasher: &PasswordHasher,
    user_id: Uuid,
    current: &str,
    new_password: &str,
    confirmation: &str,
) -> Result<(), Error> {
    let mut errors = FieldErrors::default();
    if current.is_empty() {
        errors.add("currentPassword", MSG_CURRENT_REQUIRED);
    }

    let password = Password::take_confirmed(errors, new_password, confirmation, &password::ON_CHANGE)
        .map_err(Error::Validation)?;
    let mut conn = pool.acquire().await?;
    let account = db::users::addressee(&mut conn, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let stored_hash = db::users::password_hash(&mut conn, user_id).await?;
    drop(conn);
    let (username, email) = (account.username, account.email);
    let password = password
        .not_personal(&username, &email)
        .map_err(|message| Error::Validation(FieldErrors::one("password", message)))?;
    if !hasher.verify(current, stored_hash.as_deref()).await? {
        tracing::info!(%user_id, outcome = "wrong current password", "password change refused");
        let mut errors = FieldErrors::default();
        errors.add("currentPassword", MSG_CURRENT_WRONG);
        return Err(Error::Validation(errors));
    }
    let password_hash = hasher.hash(&password).await?;
    let mut tx = pool.begin().await?;
    db::users::set_password(&mut tx, user_id, &password_hash).await?;
    let text = format!(
        "Xin chào {username},\n\n\
         Mật khẩu tài khoản Kid của bạn vừa được thay đổi, và các phiên đăng nhập khác đã được đăng xuất. \
         Nếu không phải bạn thực hiện, hãy đặt lại mật khẩu và liên hệ bộ phận hỗ trợ ngay.\n\n\
         Kid"
    );
    let mail = Mail::new(email, "Mật khẩu tài khoản Kid đã được thay đổi", text);
    mail::enqueue(&mut tx, user_id, &mail).await?;
    tx.commit().await?;
    tracing::info!(%user_id, "password changed");
    Ok(())
}

fn one(field: &'static str, message: &str) -> Error {
    let mut errors = FieldErrors::default();
    errors.add(field, message);
    Error::Validation(errors)
}

/// Moves the account to a new address, which starts unverified. While the current address is
/// verified, a security code for `confirm.change_email` mailed to it is required; while it is
/// not, the current password (a stolen session alone must not move the account). Every reset
/// or verification link sent before stops working, and the old address is told.
pub async fn change_email(
    pool: &PgPool,
    hasher: &PasswordHasher,
    user_id: Uuid,
    raw_email: &str,
    code: &str,
    current_password: &str,
) -> Result<UserRow, Error> {
    let email = match Email::parse(raw_email) {
        Ok(email) => email,
        Err(message) if raw_email.trim().is_empty() => return Err(one("email", &message)),
        Err(_) => return Err(one("email", MSG_EMAIL_INVALID)),
    };
    let current = db::users::addressee(&mut *pool.acquire().await?, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let (username, old_email, verified) = (current.username, current.email, current.verified);
    if old_email.eq_ignore_ascii_case(email.as_str()) {
        return Err(one("email", MSG_EMAIL_SAME));
    }
    if verified {
        let code = code.trim();
        if code.is_empty() {
            return Err(one("securityCode", MSG_CODE_REQUIRED));
        }
        if code.chars().count() != security_code::LENGTH {
            return Err(one(
                "securityCode",
                &format!("Mã bảo mật phải có {} ký tự", security_code::LENGTH),
            ));
        }
        // The try counts whatever happens next, so it commits on its own.
        let mut tx = pool.begin().await?;
        let accepted = security_code::consume(&mut tx, user_id, Action::ConfirmChangeEmail, code).await?;
        tx.commit().await?;
        if !accepted {
            tracing::info!(%user_id, "email change refused: wrong or expired code");
            return Err(one("securityCode", MSG_CODE_WRONG));
        }
    } else {
        confirm_password(
            pool,
            hasher,
            user_id,
            "currentPassword",
            current_password,
            "email change",
        )
        .await?;
    }
    let mut tx = pool.begin().await?;
    // Links mailed before (a reset to the old address above all) die with the address.
    db::tokens::expire_all(&mut tx, user_id).await?;
    db::users::set_email(&mut tx, user_id, email.as_str()).await?;
    // Whether the address has another account is told to its owner only, by mail.
    if db::users::email_held_by_another(&mut tx, email.as_str(), user_id).await? {
        mail::enqueue_to_address(&mut tx, &address_owner_notice(email.as_str())).await?;
    }
    let text = format!(
        "Xin chào {username},\n\n\
         Địa chỉ email của tài khoản Kid của bạn vừa được đổi sang {new}. \
         Nếu không phải bạn thực hiện, hãy liên hệ bộ phận hỗ trợ ngay.\n\n\
         Kid",
        new = email.as_str()
    );
    let notice = Mail::new(old_email, "Địa chỉ email tài khoản Kid đã được thay đổi", text);
    mail::enqueue(&mut tx, user_id, &notice).await?;
    tx.commit().await?;
    tracing::info!(%user_id, "email changed");
    db::users::find_user(&mut *pool.acquire().await?, user_id)
        .await?
        .ok_or(Error::UserNotFound)
}

/// The mail to an address another account already names, when one more account names it.
fn address_owner_notice(email: &str) -> Mail {
    let text = "Xin chào,\n\n\
         Địa chỉ email này vừa được dùng cho một tài khoản Kid, trong khi nó đã gắn với một tài khoản \
         Kid khác. Nếu là bạn và bạn quên tên đăng nhập, hãy dùng chức năng Quên tên đăng nhập. \
         Nếu không phải bạn, hãy bỏ qua email này: không ai có thể xác minh địa chỉ của bạn \
         mà không đọc được hộp thư này.\n\n\
         Kid"
    .to_owned();
    Mail::new(
        email.to_owned(),
        "Địa chỉ email của bạn vừa được dùng cho tài khoản Kid",
        text,
    )
}

/// After a registration: tells the address's owner when another account already names it.
pub async fn tell_address_owner(pool: &PgPool, user_id: Uuid, email: &str) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    if db::users::email_held_by_another(&mut tx, email, user_id).await? {
        mail::enqueue_to_address(&mut tx, &address_owner_notice(email)).await?;
        tracing::info!(%user_id, "registered with an address another account names; its owner is told");
    }
    tx.commit().await?;
    Ok(())
}
