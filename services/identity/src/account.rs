//! A signed-in player looking after the account: profile and password.

use sqlx::PgPool;
use uuid::Uuid;

use crate::{
    db::{self, UserRow},
    domain::{FieldErrors, Password, PasswordHasher, ProfileChange, Strength, password},
    grpc::Error,
    mail::{self, Mail},
};

const MSG_CURRENT_REQUIRED: &str = "Hãy nhập vào mật khẩu cũ.";
const MSG_CURRENT_WRONG: &str = "Mật khẩu cũ không chính xác.";

pub async fn update_profile(pool: &PgPool, user_id: Uuid, change: &ProfileChange) -> Result<UserRow, Error> {
    let (first, middle, last) = match &change.name {
        Some(name) => (Some(&name.first), Some(&name.middle), Some(&name.last)),
        None => (None, None, None),
    };
    let updated = sqlx::query(
        "update user_account
         set first_name = coalesce($2, first_name), middle_name = coalesce($3, middle_name),
             last_name = coalesce($4, last_name), language = coalesce($5, language),
             phone_number = coalesce($6, phone_number)
         where id = $1",
    )
    .bind(user_id)
    .bind(first)
    .bind(middle)
    .bind(last)
    .bind(&change.language)
    .bind(&change.phone_number)
    .execute(pool)
    .await?
    .rows_affected();
    if updated == 0 {
        return Err(Error::UserNotFound);
    }
    tracing::info!(%user_id, "profile updated");
    db::find_user(pool, user_id).await?.ok_or(Error::UserNotFound)
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
    let password = errors.take(
        "password",
        Password::parse_for(new_password, Strength::Medium, &password::CHANGE),
    );
    errors.take(
        "passwordConfirm",
        Password::confirm_for(confirmation, new_password, &password::CHANGE),
    );
    let (Some(password), true) = (password, errors.is_empty()) else {
        return Err(Error::Validation(errors));
    };
    let stored: Option<(String, String, String)> =
        sqlx::query_as("select password_hash, username, email from user_account where id = $1")
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
    let (stored_hash, username, email) = stored.ok_or(Error::UserNotFound)?;
    if !hasher.verify(current, Some(&stored_hash)).await? {
        tracing::info!(%user_id, outcome = "wrong current password", "password change refused");
        let mut errors = FieldErrors::default();
        errors.add("currentPassword", MSG_CURRENT_WRONG);
        return Err(Error::Validation(errors));
    }
    let password_hash = hasher.hash(&password).await?;
    let mut tx = pool.begin().await?;
    sqlx::query("update user_account set password_hash = $2, password_changed_at = now() where id = $1")
        .bind(user_id)
        .bind(&password_hash)
        .execute(&mut *tx)
        .await?;
    let text = format!(
        "Xin chào {username},\n\n\
         Mật khẩu tài khoản Kid của bạn vừa được thay đổi, và các phiên đăng nhập khác đã được đăng xuất. \
         Nếu không phải bạn thực hiện, hãy đặt lại mật khẩu và liên hệ bộ phận hỗ trợ ngay.\n\n\
         Kid"
    );
    let mail = Mail {
        id: Uuid::now_v7(),
        to: email,
        subject: "Mật khẩu tài khoản Kid đã được thay đổi".into(),
        text,
        link: None,
        code: None,
    };
    mail::enqueue(&mut tx, &mail).await?;
    tx.commit().await?;
    tracing::info!(%user_id, "password changed");
    Ok(())
}
