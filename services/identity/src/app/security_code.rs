//! Security codes: six digits mailed to the account's address to confirm an action, valid for
//! ten minutes, once. Five wrong tries an hour per action: a new code keeps the tries already
//! spent, so asking again and again buys no more guesses.

use rand::Rng;
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::Error;
use crate::{
    db::{self, codes::StoredCode},
    events::mail::{self, Mail},
};

pub const LENGTH: usize = kid_contracts::limits::SECURITY_CODE_LENGTH;
const LIFETIME_MINUTES: i32 = 10;
const MAX_ATTEMPTS: i32 = 5;

/// The spec's action enumeration (section 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    ConfirmEmail,
    ConfirmPhoneNumber,
    ConfirmPayment,
    ConfirmChangePassword,
    ConfirmChangeEmail,
    ApproveLogin,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ConfirmEmail => "confirm.email",
            Self::ConfirmPhoneNumber => "confirm.phone_number",
            Self::ConfirmPayment => "confirm.payment",
            Self::ConfirmChangePassword => "confirm.change_password",
            Self::ConfirmChangeEmail => "confirm.change_email",
            Self::ApproveLogin => "approve.login",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        [
            Self::ConfirmEmail,
            Self::ConfirmPhoneNumber,
            Self::ConfirmPayment,
            Self::ConfirmChangePassword,
            Self::ConfirmChangeEmail,
            Self::ApproveLogin,
        ]
        .into_iter()
        .find(|action| action.as_str() == value)
    }
}

/// Bound to the player and the action, so a code for one action never confirms another.
fn code_hash(user_id: Uuid, action: Action, code: &str) -> Vec<u8> {
    let mut hasher = Sha256::new();
    hasher.update(user_id.as_bytes());
    hasher.update(action.as_str().as_bytes());
    hasher.update(code.as_bytes());
    hasher.finalize().to_vec()
}

/// Mails a new code for `action` to the player's address, replacing any earlier one.
pub async fn send(pool: &PgPool, user_id: Uuid, action: Action) -> Result<(), Error> {
    let code = format!("{:06}", rand::rng().random_range(0..1_000_000));
    let mut tx = pool.begin().await?;
    let account = db::users::addressee(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let (username, email) = (account.username, account.email);
    let hash = code_hash(user_id, action, &code);
    db::codes::replace(&mut tx, user_id, action.as_str(), &hash, LIFETIME_MINUTES).await?;
    let text = format!(
        "Xin chào {username},\n\n\
         Mã bảo mật của bạn là: {code}\n\n\
         Mã có hiệu lực trong {LIFETIME_MINUTES} phút và chỉ dùng được một lần. \
         Không chia sẻ mã này với bất kỳ ai, kể cả nhân viên Kid.\n\n\
         Kid"
    );
    let mail = Mail::new(email, "Mã bảo mật tài khoản Kid", text).with_code(code);
    mail::enqueue(&mut tx, user_id, &mail).await?;
    tx.commit().await?;
    tracing::info!(%user_id, action = action.as_str(), "security code queued");
    Ok(())
}

/// Uses the code for `action` in the caller's transaction. A wrong code counts a try; after
/// five within the hour no code is accepted until the hour is over, and once used or expired
/// none until a new one is sent. The right code starts the tries over.
pub async fn consume(
    conn: &mut PgConnection,
    user_id: Uuid,
    action: Action,
    code: &str,
) -> Result<bool, sqlx::Error> {
    let Some(StoredCode {
        code_hash: stored,
        attempts,
        live,
    }) = db::codes::lock(conn, user_id, action.as_str()).await?
    else {
        return Ok(false);
    };
    if !live || attempts >= MAX_ATTEMPTS {
        if live {
            tracing::info!(%user_id, action = action.as_str(), "security code refused: tries spent for the hour");
        }
        return Ok(false);
    }
    let matches = code.len() == LENGTH && code_hash(user_id, action, code) == stored;
    if matches {
        db::codes::mark_used(conn, user_id, action.as_str()).await?;
    } else {
        db::codes::count_try(conn, user_id, action.as_str()).await?;
    }
    Ok(matches)
}
