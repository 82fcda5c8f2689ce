//! Two-factor sign-in with an authenticator app (TOTP, RFC 6238: SHA-1, six digits, 30-second
//! steps, one step of skew either way) and ten single-use recovery codes.
//!
//! A code is accepted once: the step it matched is recorded and a code of that step or an
//! earlier one is refused after it (RFC 6238, section 5.2). Recovery codes are 16 letters of an
//! unambiguous alphabet (≈ 78 random bits), kept as SHA-256 of the player's id and the code.
//! Turning two-factor on or off mails the account's address, so neither happens silently.
//! Secrets are sealed at rest (AES-256-GCM under `identity.totp_key`, bound to the player).
//! Guessing is throttled where the codes arrive (the gateway), as passwords are.

use rand::seq::IndexedRandom;
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use totp_rs::{Builder, Totp};
use uuid::Uuid;

use super::{
    Error, account,
    sign_ins::{self, Attempt, Failure, Method},
};
use crate::{
    db::{self, UserRow},
    domain::{FieldErrors, PasswordHasher},
    events::mail::{self, Mail},
};
use kid_contracts::messages::{
    account::MSG_PASSWORD_NOW_REQUIRED,
    two_factor::{MSG_ALREADY_ENABLED, MSG_CODE_REQUIRED, MSG_CODE_WRONG, MSG_NOT_ENABLED, MSG_NOT_STARTED},
};
use kid_platform::seal::Seal;

/// The name authenticator apps show beside the account.
const ISSUER: &str = "Kid";
const SECRET_BYTES: usize = 20;
pub const RECOVERY_CODES: usize = 10;
const RECOVERY_LENGTH: usize = 16;
/// No 0/O, 1/I/L, U/V look-alikes.
const RECOVERY_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTWXYZ23456789";

/// Seals TOTP secrets at rest (`kid_platform::seal`) under `identity.totp_key`, with the
/// player's id as associated data (a sealed secret moved to another player's row does not open).
#[derive(Clone)]
pub struct SecretSeal(Seal);

impl SecretSeal {
    pub fn new(key: &SecretString) -> Self {
        Self(Seal::new(key.expose_secret().as_bytes()))
    }

    pub(crate) fn seal(&self, user_id: Uuid, secret: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(self.0.seal(user_id.as_bytes(), secret))
    }

    pub(crate) fn open(&self, user_id: Uuid, sealed: &[u8]) -> Result<Vec<u8>, Error> {
        self.0
            .open(user_id.as_bytes(), sealed)
            .map_err(|_| Error::Internal("a TOTP secret does not open under identity.totp_key".into()))
    }
}

/// What the player types into (or scans with) the authenticator app.
pub struct Enrolment {
    pub secret: String,
    pub otpauth_url: String,
}

/// A second factor accepted at sign-in.
pub struct Verified {
    pub user: UserRow,
    pub recovery_code_used: bool,
    pub recovery_codes_left: i64,
}

/// A code as typed: six digits from the app, or a recovery code (case, spaces and dashes
/// ignored).
#[derive(Debug, PartialEq, Eq)]
enum Code {
    Totp(String),
    Recovery(String),
}

fn parse(typed: &str) -> Option<Code> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if code.is_empty() {
        None
    } else if code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) {
        Some(Code::Totp(code))
    } else {
        Some(Code::Recovery(code))
    }
}

pub(crate) fn totp(secret: Vec<u8>, account: &str) -> Result<Totp, Error> {
    Builder::new()
        .with_secret(secret)
        .with_issuer(Some(ISSUER))
        .with_account_name(account)
        .build()
        .map_err(|error| Error::Internal(format!("TOTP: {error}")))
}

fn recovery_hash(user_id: Uuid, code: &str) -> Vec<u8> {
    let mut hasher = Sha256::new();
    hasher.update(user_id.as_bytes());
    hasher.update(code.as_bytes());
    hasher.finalize().to_vec()
}

fn new_recovery_code() -> String {
    let mut rng = rand::rng();
    let letters: Vec<u8> = (0..RECOVERY_LENGTH)
        .filter_map(|_| RECOVERY_ALPHABET.choose(&mut rng).copied())
        .collect();
    letters
        .chunks(4)
        .map(|group| String::from_utf8_lossy(group).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

fn wrong_code() -> Error {
    Error::Validation(FieldErrors::one("code", MSG_CODE_WRONG))
}

/// A new secret for the player's app, replacing one not yet confirmed.
pub async fn start(
    pool: &PgPool,
    seal: &SecretSeal,
    hasher: &PasswordHasher,
    user_id: Uuid,
    password: &str,
) -> Result<Enrolment, Error> {
    // A stolen session must not put the thief's app on the account (the owner would be locked
    // out for good): the password first, as for a passkey.
    account::confirm_password(
        pool,
        hasher,
        user_id,
        "password",
        password,
        "two-factor enrolment",
    )
    .await?;
    let mut conn = pool.acquire().await?;
    let user = db::users::find_user(&mut conn, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let secret: Vec<u8> = {
        let mut bytes = vec![0u8; SECRET_BYTES];
        rand::Rng::fill(&mut rand::rng(), bytes.as_mut_slice());
        bytes
    };
    if !db::two_factor::start(&mut conn, user_id, &seal.seal(user_id, &secret)?).await? {
        return Err(Error::Precondition(MSG_ALREADY_ENABLED));
    }
    let totp = totp(secret, &user.username)?;
    Ok(Enrolment {
        secret: totp.secret().to_base32(),
        otpauth_url: totp
            .to_url()
            .map_err(|error| Error::Internal(format!("otpauth URL: {error}")))?,
    })
}

/// Turns two-factor on with a code from the app; answers the recovery codes, shown only now.
pub async fn confirm(
    pool: &PgPool,
    seal: &SecretSeal,
    user_id: Uuid,
    typed: &str,
) -> Result<Vec<String>, Error> {
    let Some(Code::Totp(code)) = parse(typed) else {
        return Err(if typed.trim().is_empty() {
            Error::Validation(FieldErrors::one("code", MSG_CODE_REQUIRED))
        } else {
            wrong_code()
        });
    };
    let mut tx = pool.begin().await?;
    let account = db::users::addressee(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let stored = db::two_factor::find(&mut tx, user_id).await?;
    let Some(stored) = stored.filter(|stored| stored.confirmed_at.is_none()) else {
        return Err(Error::Precondition(MSG_NOT_STARTED));
    };
    let step = totp(seal.open(user_id, &stored.secret)?, &account.username)?
        .check_current(&code)
        .ok_or_else(wrong_code)?;
    db::two_factor::accept_step(&mut tx, user_id, step_number(step)?).await?;
    if !db::two_factor::confirm(&mut tx, user_id).await? {
        return Err(Error::Precondition(MSG_NOT_STARTED));
    }
    let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
    let hashes: Vec<Vec<u8>> = codes
        .iter()
        .map(|code| recovery_hash(user_id, &code.replace('-', "")))
        .collect();
    db::two_factor::replace_recovery_codes(&mut tx, user_id, &hashes).await?;
    let text = format!(
        "Xin chào {},\n\n\
         Xác thực hai lớp vừa được bật cho tài khoản Kid của bạn: từ nay mỗi lần đăng nhập cần thêm \
         mã từ ứng dụng xác thực. Nếu không phải bạn thực hiện, hãy đổi mật khẩu và liên hệ bộ phận hỗ trợ ngay.\n\n\
         Kid",
        account.username
    );
    mail::enqueue(
        &mut tx,
        user_id,
        &Mail::new(account.email, "Xác thực hai lớp đã được bật", text),
    )
    .await?;
    tx.commit().await?;
    tracing::info!(%user_id, "two-factor turned on");
    Ok(codes)
}

pub(crate) fn step_number(step: u64) -> Result<i64, Error> {
    i64::try_from(step).map_err(|_| Error::Internal("TOTP step out of range".into()))
}

/// Which kind of code a player gave as their second factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redeemed {
    AppCode,
    RecoveryCode,
}

/// Takes a code of the player's as their second factor, once: a code from the app (its step
/// not used before) or an unused recovery code. `None`: not a good code.
async fn redeem(
    conn: &mut sqlx::PgConnection,
    seal: &SecretSeal,
    user_id: Uuid,
    username: &str,
    typed: &str,
) -> Result<Option<Redeemed>, Error> {
    let Some(stored) = db::two_factor::find(conn, user_id)
        .await?
        .filter(|stored| stored.confirmed_at.is_some())
    else {
        return Err(Error::Precondition(MSG_NOT_ENABLED));
    };
    match parse(typed) {
        Some(Code::Totp(code)) => {
            match totp(seal.open(user_id, &stored.secret)?, username)?.check_current(&code) {
                Some(step) => Ok(db::two_factor::accept_step(conn, user_id, step_number(step)?)
                    .await?
                    .then_some(Redeemed::AppCode)),
                None => Ok(None),
            }
        }
        Some(Code::Recovery(code)) => {
            let used =
                db::two_factor::use_recovery_code(conn, user_id, &recovery_hash(user_id, &code)).await?;
            Ok(used.then_some(Redeemed::RecoveryCode))
        }
        None => Ok(None),
    }
}

/// The second step of a sign-in. A wrong, replayed or used code is `SecondFactorRefused`.
/// Either way it goes into the player's sign-in history.
pub async fn verify(
    pool: &PgPool,
    seal: &SecretSeal,
    public_url: &str,
    user_id: Uuid,
    typed: &str,
    attempt: &Attempt<'_>,
) -> Result<Verified, Error> {
    let client_ip = attempt.ip;
    // One transaction: a code redeemed for a sign-in that is then refused is not spent.
    let mut tx = pool.begin().await?;
    let user = db::users::find_user(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let Some(redeemed) = redeem(&mut tx, seal, user_id, &user.username, typed).await? else {
        drop(tx);
        tracing::info!(%user_id, client_ip, outcome = "failure", "second factor");
        sign_ins::record_failure(pool, user_id, attempt, Method::Totp, Failure::WrongCode).await?;
        return Err(Error::SecondFactorRefused);
    };
    // Support may have locked the account between the password and the code: the right code
    // does not finish a sign-in the password alone would now be refused.
    if db::users::is_locked(&mut tx, user_id).await? {
        tracing::info!(%user_id, client_ip, outcome = "locked", "second factor");
        return Err(Error::AccountLocked);
    }
    let recovery_codes_left = db::two_factor::recovery_codes_left(&mut tx, user_id).await?;
    tx.commit().await?;
    let recovery_code_used = redeemed == Redeemed::RecoveryCode;
    tracing::info!(%user_id, client_ip, recovery_code_used, outcome = "success", "second factor");
    let method = match redeemed {
        Redeemed::AppCode => Method::Totp,
        Redeemed::RecoveryCode => Method::RecoveryCode,
    };
    sign_ins::record_sign_in(pool, public_url, user_id, attempt, method).await?;
    Ok(Verified {
        user,
        recovery_code_used,
        recovery_codes_left,
    })
}

/// Turns two-factor off: needs the password and a code (from the app, or a recovery code).
pub async fn disable(
    pool: &PgPool,
    seal: &SecretSeal,
    hasher: &PasswordHasher,
    user_id: Uuid,
    password: &str,
    typed: &str,
) -> Result<(), Error> {
    let mut errors = FieldErrors::default();
    if password.is_empty() {
        errors.add("password", MSG_PASSWORD_NOW_REQUIRED);
    }
    if typed.trim().is_empty() {
        errors.add("code", MSG_CODE_REQUIRED);
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    account::confirm_password(pool, hasher, user_id, "password", password, "two-factor removal").await?;
    let mut tx = pool.begin().await?;
    let account = db::users::addressee(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    if redeem(&mut tx, seal, user_id, &account.username, typed)
        .await?
        .is_none()
    {
        tracing::info!(%user_id, outcome = "wrong code", "two-factor removal refused");
        return Err(wrong_code());
    }
    db::two_factor::remove(&mut tx, user_id).await?;
    let text = format!(
        "Xin chào {},\n\n\
         Xác thực hai lớp vừa được tắt cho tài khoản Kid của bạn: từ nay chỉ cần mật khẩu để đăng nhập. \
         Nếu không phải bạn thực hiện, hãy đổi mật khẩu, bật lại xác thực hai lớp và liên hệ bộ phận hỗ trợ ngay.\n\n\
         Kid",
        account.username
    );
    mail::enqueue(
        &mut tx,
        user_id,
        &Mail::new(account.email, "Xác thực hai lớp đã bị tắt", text),
    )
    .await?;
    tx.commit().await?;
    tracing::info!(%user_id, "two-factor turned off");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_codes_are_read_as_an_app_code_or_a_recovery_code() {
        assert_eq!(parse(" 123 456 "), Some(Code::Totp("123456".into())));
        assert_eq!(
            parse("abcd-efgh-jkmn-pqrs"),
            Some(Code::Recovery("ABCDEFGHJKMNPQRS".into()))
        );
        assert_eq!(parse("12345"), Some(Code::Recovery("12345".into())));
        assert_eq!(parse(" - "), None);
    }

    #[test]
    fn recovery_codes_are_sixteen_unambiguous_letters_in_groups_of_four() {
        let codes: std::collections::HashSet<String> = (0..1_000).map(|_| new_recovery_code()).collect();
        assert_eq!(codes.len(), 1_000);
        for code in &codes {
            let groups: Vec<&str> = code.split('-').collect();
            assert_eq!(groups.len(), 4, "{code}");
            assert!(groups.iter().all(|group| group.len() == 4), "{code}");
            assert!(
                code.bytes()
                    .filter(|b| *b != b'-')
                    .all(|b| RECOVERY_ALPHABET.contains(&b))
            );
        }
    }

    #[test]
    fn a_sealed_secret_opens_only_for_its_player_under_its_key() {
        let seal = SecretSeal::new(&SecretString::from("a-key"));
        let (player, other) = (Uuid::now_v7(), Uuid::now_v7());
        let sealed = seal.seal(player, b"twenty bytes secret!").expect("sealed");
        assert!(!sealed.windows(20).any(|window| window == b"twenty bytes secret!"));
        assert_eq!(
            seal.open(player, &sealed).expect("opens"),
            b"twenty bytes secret!"
        );
        assert!(seal.open(other, &sealed).is_err());
        assert!(
            SecretSeal::new(&SecretString::from("another"))
                .open(player, &sealed)
                .is_err()
        );
        assert_ne!(
            seal.seal(player, b"twenty bytes secret!").expect("sealed"),
            sealed
        );
    }

    #[test]
    fn a_recovery_code_hash_is_bound_to_its_player() {
        let code = "ABCDEFGHJKMNPQRS";
        assert_ne!(recovery_hash(Uuid::nil(), code), recovery_hash(Uuid::max(), code));
        assert_eq!(recovery_hash(Uuid::nil(), code), recovery_hash(Uuid::nil(), code));
    }
}
