//! The sign-in history: each sign-in and each refused attempt at a known account, with where it
//! came from; and a mail when a sign-in comes from a device the player never signed in from,
//! with a single-use link that ends the session it opened.

use sha2::{Digest, Sha256};
use sqlx::PgPool;
use time::{Duration, OffsetDateTime, UtcOffset, macros::format_description};
use uuid::Uuid;

use super::{
    Error,
    verification::{new_token, token_hash},
};
use crate::{
    db::{
        self,
        sign_ins::{NewSignIn, SignInRow},
    },
    domain::device,
    events::mail::{self, Mail},
};

/// How many sign-ins the player's history shows.
pub const HISTORY_LENGTH: i64 = 50;

/// How long the mailed link that ends a new device's session works.
const END_LINK_DAYS: i64 = 7;

/// Where an attempt came from, as the gateway saw it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Attempt<'a> {
    pub ip: &'a str,
    pub user_agent: &'a str,
    /// The browser's long-lived device cookie; empty when it sent none.
    pub device_id: &'a str,
    /// The handle of the session the gateway opens if this attempt signs in.
    pub session_handle: &'a str,
}

impl Attempt<'_> {
    fn device_hash(&self) -> Option<Vec<u8>> {
        (!self.device_id.is_empty()).then(|| Sha256::digest(self.device_id.as_bytes()).to_vec())
    }
}

/// How the player proved who they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Password,
    Totp,
    RecoveryCode,
    Passkey,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Password => "password",
            Self::Totp => "totp",
            Self::RecoveryCode => "recovery_code",
            Self::Passkey => "passkey",
        }
    }
}

/// Why an attempt at a known account was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    WrongPassword,
    WrongCode,
}

impl Failure {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::WrongPassword => "wrong_password",
            Self::WrongCode => "wrong_code",
        }
    }
}

pub async fn record_failure(
    pool: &PgPool,
    user_id: Uuid,
    attempt: &Attempt<'_>,
    method: Method,
    failure: Failure,
) -> Result<(), Error> {
    let device_hash = attempt.device_hash();
    let row = NewSignIn {
        user_id,
        ip: attempt.ip,
        user_agent: attempt.user_agent,
        device_hash: device_hash.as_deref(),
        method: method.as_str(),
        failure: Some(failure.as_str()),
        session_handle: None,
    };
    db::sign_ins::insert(&mut *pool.acquire().await?, &row).await?;
    Ok(())
}

/// Records a sign-in; when the player signed in before but never from this device, mails
/// them where it came from and a link that ends its session.
pub async fn record_sign_in(
    pool: &PgPool,
    public_url: &str,
    user_id: Uuid,
    attempt: &Attempt<'_>,
    method: Method,
) -> Result<(), Error> {
    let device_hash = attempt.device_hash();
    let mut tx = pool.begin().await?;
    // The account's row, locked first: sign-ins of one player are recorded one at a time (two
    // at once from one new device mail once), and no two wait on each other's row locks (the
    // history's foreign key share-locks the row).
    let account = db::users::addressee(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let seen = db::sign_ins::seen(&mut tx, user_id, device_hash.as_deref()).await?;
    let row = NewSignIn {
        user_id,
        ip: attempt.ip,
        user_agent: attempt.user_agent,
        device_hash: device_hash.as_deref(),
        method: method.as_str(),
        failure: None,
        session_handle: Some(attempt.session_handle).filter(|handle| !handle.is_empty()),
    };
    let id = db::sign_ins::insert(&mut tx, &row).await?;
    if seen.any && !seen.device && row.session_handle.is_some() {
        let (token, hash) = new_token();
        db::sign_ins::set_end_token(&mut tx, id, &hash).await?;
        let link = format!("{}/end-session/{token}", public_url.trim_end_matches('/'));
        let text = new_device_message(&account.username, attempt, OffsetDateTime::now_utc(), &link);
        let mail = Mail::new(account.email, "Đăng nhập Kid từ một thiết bị mới", text).with_link(link);
        mail::enqueue(&mut tx, user_id, &mail).await?;
        tracing::info!(%user_id, "sign-in from a new device: mail queued");
    }
    tx.commit().await?;
    Ok(())
}

fn new_device_message(username: &str, attempt: &Attempt<'_>, at: OffsetDateTime, link: &str) -> String {
    let vietnam = UtcOffset::from_hms(7, 0, 0).unwrap_or(UtcOffset::UTC);
    let when = at
        .to_offset(vietnam)
        .format(format_description!("[hour]:[minute] ngày [day]/[month]/[year]"))
        .unwrap_or_default();
    let device = device::describe(attempt.user_agent);
    let ip = attempt.ip;
    format!(
        "Xin chào {username},\n\n\
         Tài khoản Kid của bạn vừa được đăng nhập từ một thiết bị chưa từng dùng trước đây:\n\n\
         Thời gian: {when} (giờ Việt Nam)\n\
         Thiết bị: {device}\n\
         Địa chỉ IP: {ip}\n\n\
         Nếu đó là bạn, bạn không cần làm gì thêm. Nếu không phải bạn, hãy mở đường dẫn dưới đây \
         để đăng xuất phiên đăng nhập đó, rồi đổi mật khẩu và bật xác thực hai lớp:\n\n\
         {link}\n\n\
         Đường dẫn có hiệu lực trong {END_LINK_DAYS} ngày và chỉ dùng được một lần.\n\n\
         Kid"
    )
}

/// Uses up a mailed end-session link: the player and the handle of the session to end.
pub async fn use_end_link(pool: &PgPool, token: &str) -> Result<(Uuid, String), Error> {
    if token.is_empty() || token.len() > 100 {
        return Err(Error::InvalidEndLink);
    }
    let since = OffsetDateTime::now_utc() - Duration::days(END_LINK_DAYS);
    let used = db::sign_ins::use_end_token(&mut *pool.acquire().await?, &token_hash(token), since).await?;
    let (user_id, handle) = used.ok_or(Error::InvalidEndLink)?;
    tracing::info!(%user_id, "session ended from the new-device mail");
    Ok((user_id, handle))
}

/// The player's latest sign-ins and refused attempts, newest first.
pub async fn history(pool: &PgPool, user_id: Uuid) -> Result<Vec<SignInRow>, Error> {
    Ok(db::sign_ins::latest(&mut *pool.acquire().await?, user_id, HISTORY_LENGTH).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_new_device_mail_says_when_where_and_how_to_end_it() {
        let attempt = Attempt {
            ip: "203.0.113.9",
            user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                         Chrome/120.0.0.0 Safari/537.36",
            device_id: "d",
            session_handle: "h",
        };
        let at = OffsetDateTime::from_unix_timestamp(1_764_000_000).expect("time");
        let text = new_device_message("minhanh", &attempt, at, "https://kid.example/end-session/t");
        assert!(text.contains("Xin chào minhanh"), "{text}");
        assert!(
            text.contains("Thời gian: 23:00 ngày 24/11/2025 (giờ Việt Nam)"),
            "{text}"
        );
        assert!(text.contains("Thiết bị: Chrome 120 trên Windows 10"), "{text}");
        assert!(text.contains("Địa chỉ IP: 203.0.113.9"), "{text}");
        assert!(text.contains("https://kid.example/end-session/t"), "{text}");
    }
}
