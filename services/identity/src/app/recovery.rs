//! Recovery: a password-reset link (1 hour, single use) mailed for a username, and the
//! username mailed for an email address. Neither says whether an account exists: an unknown
//! name or address quietly sends nothing.

use sqlx::PgPool;
use uuid::Uuid;

use super::{
    Error,
    verification::{issue, token_hash},
};
use crate::{
    db,
    domain::{FieldErrors, Password, PasswordHasher, Username, password},
    events::mail::{self, Mail},
};

const RESET_LIFETIME_HOURS: i32 = 1;
const MAX_TOKEN_LENGTH: usize = 128;

/// Mails a reset link to the account named `username`, if there is one; earlier links stop
/// working.
pub async fn send_reset(pool: &PgPool, public_url: &str, username: &str) -> Result<(), Error> {
    let username = Username::normalise_for_lookup(username);
    let mut tx = pool.begin().await?;
    let Some(account) = db::users::addressee_by_username(&mut tx, &username).await? else {
        return Ok(());
    };
    let (user_id, username, email) = (account.id, account.username, account.email);
    let token = issue(&mut tx, user_id, "reset_password", &email, RESET_LIFETIME_HOURS).await?;
    let link = format!(
        "{}/recovery/forgot-password/{token}",
        public_url.trim_end_matches('/')
    );
    let text = format!(
        "Xin chào {username},\n\n\
         Chúng tôi nhận được yêu cầu đặt lại mật khẩu cho tài khoản Kid của bạn. \
         Hãy mở đường dẫn dưới đây để đặt mật khẩu mới:\n\n\
         {link}\n\n\
         Đường dẫn có hiệu lực trong {RESET_LIFETIME_HOURS} giờ và chỉ dùng được một lần. \
         Nếu bạn không yêu cầu, hãy bỏ qua email này: mật khẩu của bạn vẫn giữ nguyên.\n\n\
         Kid"
    );
    let mail = Mail::new(email, "Đặt lại mật khẩu tài khoản Kid", text).with_link(link);
    mail::enqueue(&mut tx, user_id, &mail).await?;
    tx.commit().await?;
    tracing::info!(%user_id, "password reset email queued");
    Ok(())
}

fn usable_hash(token: &str) -> Option<Vec<u8>> {
    (!token.is_empty() && token.len() <= MAX_TOKEN_LENGTH).then(|| token_hash(token))
}

/// Whether `token` is an unused, unexpired reset link.
pub async fn check_reset(pool: &PgPool, token: &str) -> Result<bool, Error> {
    let Some(hash) = usable_hash(token) else {
        return Ok(false);
    };
    Ok(db::tokens::reset_is_live(&mut *pool.acquire().await?, &hash).await?)
}

/// Sets a new strong password with a reset link, which is then used up, and mails the player
/// that it changed. Returns the player, whose sessions the caller ends.
pub async fn reset(
    pool: &PgPool,
    hasher: &PasswordHasher,
    token: &str,
    new_password: &str,
    confirmation: &str,
) -> Result<Uuid, Error> {
    let password = Password::take_confirmed(
        FieldErrors::default(),
        new_password,
        confirmation,
        &password::ON_RESET,
    )
    .map_err(Error::Validation)?;
    let hash = usable_hash(token).ok_or(Error::InvalidResetLink)?;
    // Hashed before the transaction: argon2 takes a while and holds no lock.
    let password_hash = hasher.hash(&password).await?;
    let mut tx = pool.begin().await?;
    let used = db::tokens::use_reset(&mut tx, &hash).await?;
    let (user_id, username, email) = used.ok_or(Error::InvalidResetLink)?;
    // Only now is it known whose password it is; refused, the transaction is dropped and the
    // link stays usable.
    if let Err(message) = password.not_personal(&username, &email) {
        return Err(Error::Validation(FieldErrors::one("password", message)));
    }
    db::users::set_password(&mut tx, user_id, &password_hash).await?;
    let text = format!(
        "Xin chào {username},\n\n\
         Mật khẩu tài khoản Kid của bạn vừa được đặt lại, và mọi phiên đăng nhập đã được đăng xuất. \
         Nếu không phải bạn thực hiện, hãy liên hệ bộ phận hỗ trợ ngay.\n\n\
         Kid"
    );
    let mail = Mail::new(email, "Mật khẩu tài khoản Kid đã được thay đổi", text);
    mail::enqueue(&mut tx, user_id, &mail).await?;
    tx.commit().await?;
    tracing::info!(%user_id, "password reset");
    Ok(user_id)
}

/// Mails the usernames of the accounts naming `email`, if there are any, to that address.
pub async fn recover_username(pool: &PgPool, email: &str) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    let accounts = db::users::addressees_by_email(&mut tx, email.trim()).await?;
    let Some((user_id, email)) = accounts.first().map(|first| (first.id, first.email.clone())) else {
        return Ok(());
    };
    let usernames: Vec<&str> = accounts.iter().map(|account| account.username.as_str()).collect();
    let text = format!(
        "Xin chào,\n\n\
         Tên đăng nhập của tài khoản Kid gắn với địa chỉ email này là: {}\n\n\
         Nếu bạn không yêu cầu, hãy bỏ qua email này.\n\n\
         Kid",
        usernames.join(", ")
    );
    let mail = Mail::new(email, "Tên đăng nhập tài khoản Kid của bạn", text);
    mail::enqueue_to_address(&mut tx, &mail).await?;
    tx.commit().await?;
    tracing::info!(%user_id, accounts = accounts.len(), "username reminder queued");
    Ok(())
}
