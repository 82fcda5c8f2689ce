//! Email verification: a single-use link, valid for 24 hours, sent to the account's address.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::Error;
use crate::{
    db::{self, tokens::NewToken},
    events::mail::{self, Mail},
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
    db::tokens::expire(conn, user_id, purpose).await?;
    let (token, hash) = new_token();
    let new = NewToken {
        hash: &hash,
        user_id,
        purpose,
        email,
        hours,
    };
    db::tokens::insert(conn, new).await?;
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
    let account = db::users::addressee(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let (username, email) = (account.username, account.email);
    if account.verified {
        return Err(Error::AlreadyVerified);
    }
    let token = issue(&mut tx, user_id, "verify_email", &email, LIFETIME_HOURS).await?;
    let link = format!("{}/email-verification/{token}", public_url.trim_end_matches('/'));
    let (subject, text) = message(&username, &email, &link);
    mail::enqueue(&mut tx, user_id, &Mail::new(email, subject, text).with_link(link)).await?;
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
    let user_id = db::tokens::use_verification(&mut tx, &token_hash(token))
        .await?
        .ok_or(Error::InvalidLink)?;
    match db::users::mark_verified(&mut tx, user_id).await {
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
