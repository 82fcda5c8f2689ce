//! Email verification: a single-use link, valid for 24 hours, sent to the account's address.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    grpc::Error,
    mail::{self, Mail},
};

const LIFETIME_HOURS: i32 = 24;
/// Longer than any token we issue; anything longer is not worth hashing.
const MAX_TOKEN_LENGTH: usize = 128;

/// A new random token (256 bits, URL-safe) and the hash we keep of it.
pub fn new_token() -> (String, Vec<u8>) {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = URL_SAFE_NO_PAD.encode(bytes);
    let hash = token_hash(&token);
    (token, hash)
}

/// Issues a link token of `purpose` for `user_id`, sent to `email` and valid for `hours`;
/// earlier unused tokens of that purpose stop working. Returns the token for the link.
pub async fn issue(
    conn: &mut PgConnection,
    user_id: Uuid,
    purpose: &str,
    email: &str,
    hours: i32,
) -> Result<String, sqlx::Error> {
    sqlx::query(
        "update email_token set used_at = now() where user_id = $1 and purpose = $2 and used_at is null",
    )
    .bind(user_id)
    .bind(purpose)
    .execute(&mut *conn)
    .await?;
    let (token, hash) = new_token();
    sqlx::query(
        "insert into email_token (token_hash, user_id, purpose, email, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(hours => $5))",
    )
    .bind(hash)
    .bind(user_id)
    .bind(purpose)
    .bind(email)
    .bind(hours)
    .execute(conn)
    .await?;
    Ok(token)
}

pub fn token_hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

fn message(username: &str, email: &str, link: &str) -> (String, String) {
    let subject = "Xác minh địa chỉ email tài khoản Kid".to_owned();
    let text = format!(
        "Xin chào {username},\n\n\
         Hãy mở đường dẫn dưới đây để xác minh địa chỉ email {email} cho tài khoản Kid của bạn:\n\n\
         {link}\n\n\
         Đường dẫn có hiệu lực trong {LIFETIME_HOURS} giờ và chỉ dùng được một lần. \
         Nếu bạn không yêu cầu xác minh, hãy bỏ qua email này.\n\n\
         Kid"
    );
    (subject, text)
}

/// Sends a new link to the player's current address; earlier links stop working.
pub async fn send(pool: &PgPool, public_url: &str, user_id: Uuid) -> Result<(), Error> {
    let mut tx = pool.begin().await?;
    let user: Option<(String, String, bool)> = sqlx::query_as(
        "select username, email, verified_at is not null from user_account where id = $1 for update",
    )
    .bind(user_id)
    .fetch_optional(&mut *tx)
    .await?;
    let (username, email, verified) = user.ok_or(Error::UserNotFound)?;
    if verified {
        return Err(Error::AlreadyVerified);
    }
    let token = issue(&mut tx, user_id, "verify_email", &email, LIFETIME_HOURS).await?;
    let link = format!("{}/email-verification/{token}", public_url.trim_end_matches('/'));
    let (subject, text) = message(&username, &email, &link);
    mail::enqueue(&mut tx, &Mail::new(email, subject, text).with_link(link)).await?;
    tx.commit().await?;
    tracing::info!(%user_id, "verification email queued");
    Ok(())
}

/// Uses the token: the account's address is verified if the link is unused, unexpired and was
/// sent to the address the account still has.
pub async fn verify(pool: &PgPool, token: &str) -> Result<Uuid, Error> {
    if token.is_empty() || token.len() > MAX_TOKEN_LENGTH {
        return Err(Error::InvalidLink);
    }
    let mut tx = pool.begin().await?;
    let user_id: Option<Uuid> = sqlx::query_scalar(
        "update email_token t set used_at = now()
         from user_account u
         where t.token_hash = $1 and t.purpose = 'verify_email' and t.used_at is null
           and t.expires_at > now() and u.id = t.user_id and lower(u.email) = lower(t.email)
         returning t.user_id",
    )
    .bind(token_hash(token))
    .fetch_optional(&mut *tx)
    .await?;
    let user_id = user_id.ok_or(Error::InvalidLink)?;
    let verified =
        sqlx::query("update user_account set verified_at = coalesce(verified_at, now()) where id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await;
    match verified {
        Ok(_) => {}
        // Another account verified this address first: it is theirs.
        Err(error)
            if error.as_database_error().and_then(|db| db.constraint())
                == Some("user_account_verified_email_key") =>
        {
            tracing::info!(%user_id, "verification refused: another account verified the address");
            return Err(Error::InvalidLink);
        }
        Err(error) => return Err(error.into()),
    }
    tx.commit().await?;
    tracing::info!(%user_id, "email verified");
    Ok(user_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_only_their_hash_is_kept() {
        let (first, hash) = new_token();
        let (second, _) = new_token();
        assert_eq!(first.len(), 43);
        assert_ne!(first, second);
        assert_eq!(hash, token_hash(&first));
        assert_ne!(hash, first.as_bytes());
    }
}
