//! Passkeys (WebAuthn, with webauthn-rs): a signed-in player adds one (after giving their
//! password), lists and removes theirs, and signs in with one without a username or password.
//!
//! Every passkey is made discoverable (resident) with user verification required, and its user
//! handle is the player's id: at sign-in the browser offers the player's passkeys for this
//! site, the assertion names the player, and it verifies only against that player's own
//! credentials, so an assertion made with one player's passkey never signs in another.
//! A verified passkey is two factors in one (the device, and the PIN or biometric that unlocks
//! it), so it skips the authenticator-app step. Ceremony states wait in the database for five
//! minutes, single use. Adding or removing a passkey mails the account's address.

use serde::{Serialize, de::DeserializeOwned};
use sqlx::PgPool;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Webauthn, WebauthnBuilder,
};
use webauthn_rs_proto::{AuthenticatorSelectionCriteria, ResidentKeyRequirement, UserVerificationPolicy};

use super::{
    Error, account,
    sign_ins::{self, Attempt, Method},
};
use crate::{
    db::{
        self, UserRow,
        passkeys::{NewPasskey, PasskeyRow},
    },
    domain::{FieldErrors, PasswordHasher, device},
    events::mail::{self, Mail},
};
use kid_contracts::messages::passkey::{
    MSG_ALREADY_ADDED, MSG_EXPIRED, MSG_LIMIT, MSG_NAME_LONG, MSG_NOT_FOUND, MSG_NOT_SAVED,
};

/// How many passkeys one account may hold.
pub const MAX_PASSKEYS: i64 = 10;
/// The longest name a player may give a passkey, in characters.
pub const MAX_NAME: usize = kid_contracts::limits::PASSKEY_NAME_MAX;
/// How long a started ceremony waits for the browser's answer (WebAuthn's own timeout).
const CEREMONY_MINUTES: i64 = 5;

const REGISTRATION: &str = "registration";
const SIGN_IN: &str = "sign_in";

/// The relying party: passkeys are bound to the host of `origin` (never changed once players
/// hold passkeys: they would stop working).
pub fn relying_party(origin: &str) -> anyhow::Result<Webauthn> {
    let origin = Url::parse(origin)?;
    let rp_id = origin
        .domain()
        .ok_or_else(|| anyhow::anyhow!("passkeys need a domain, not an address: {origin}"))?
        .to_owned();
    Ok(WebauthnBuilder::new(&rp_id, &origin)?
        .rp_name("Kid")
        .timeout(std::time::Duration::from_secs(60 * 5))
        .build()?)
}

/// A ceremony the browser is asked to answer: its id and the options it takes, as JSON.
pub struct Ceremony {
    pub id: Uuid,
    pub options_json: String,
}

fn json<T: Serialize>(value: &T) -> Result<serde_json::Value, Error> {
    serde_json::to_value(value).map_err(|error| Error::Internal(format!("passkey JSON: {error}")))
}

fn from_json<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, Error> {
    serde_json::from_value(value).map_err(|error| Error::Internal(format!("stored passkey JSON: {error}")))
}

fn expires_at() -> OffsetDateTime {
    OffsetDateTime::now_utc() + Duration::minutes(CEREMONY_MINUTES)
}

fn parse_ceremony_id(id: &str) -> Result<Uuid, Error> {
    Uuid::parse_str(id).map_err(|_| Error::Validation(FieldErrors::one("credential", MSG_EXPIRED)))
}

/// Starts adding a passkey: checks the password, then answers the options for
/// `navigator.credentials.create` (the player's passkeys excluded, so one authenticator is not
/// added twice).
pub async fn start_registration(
    pool: &PgPool,
    webauthn: &Webauthn,
    hasher: &PasswordHasher,
    user_id: Uuid,
    password: &str,
) -> Result<Ceremony, Error> {
    account::confirm_password(
        pool,
        hasher,
        user_id,
        "password",
        password,
        "passkey registration",
    )
    .await?;
    let mut conn = pool.acquire().await?;
    let user = db::users::find_user(&mut conn, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let held = db::passkeys::of_user(&mut conn, user_id).await?;
    if i64::try_from(held.len()).unwrap_or(i64::MAX) >= MAX_PASSKEYS {
        return Err(Error::Precondition(MSG_LIMIT));
    }
    let exclude = held
        .into_iter()
        .map(|row| from_json::<Passkey>(row.passkey).map(|passkey| passkey.cred_id().clone()))
        .collect::<Result<Vec<_>, _>>()?;
    let (mut options, state) = webauthn
        .start_passkey_registration(user_id, &user.username, &user.username, Some(exclude))
        .map_err(|error| Error::Internal(format!("passkey registration: {error}")))?;
    // A discoverable credential: the passkey alone names the player at sign-in.
    options.public_key.authenticator_selection = Some(AuthenticatorSelectionCriteria {
        authenticator_attachment: None,
        resident_key: Some(ResidentKeyRequirement::Required),
        require_resident_key: true,
        user_verification: UserVerificationPolicy::Required,
    });
    let id = db::passkeys::start_ceremony(
        &mut conn,
        Some(user_id),
        REGISTRATION,
        json(&state)?,
        expires_at(),
    )
    .await?;
    Ok(Ceremony {
        id,
        options_json: json(&options.public_key)?.to_string(),
    })
}

/// What a player asked to call a passkey: trimmed; empty means the device the browser names.
fn passkey_name(asked: &str, user_agent: &str) -> Result<String, Error> {
    let asked = asked.trim();
    if asked.chars().count() > MAX_NAME {
        return Err(Error::Validation(FieldErrors::one("name", MSG_NAME_LONG)));
    }
    Ok(if asked.is_empty() {
        device::describe(user_agent)
    } else {
        asked.to_owned()
    })
}

/// Finishes adding a passkey with the browser's answer to the ceremony `ceremony_id`.
pub async fn finish_registration(
    pool: &PgPool,
    webauthn: &Webauthn,
    user_id: Uuid,
    ceremony_id: &str,
    credential_json: &str,
    name: &str,
    user_agent: &str,
) -> Result<PasskeyRow, Error> {
    let name = passkey_name(name, user_agent)?;
    let ceremony_id = parse_ceremony_id(ceremony_id)?;
    // The ceremony is used up whatever the answer: a bad answer starts again.
    let taken = db::passkeys::take_ceremony(
        &mut *pool.acquire().await?,
        ceremony_id,
        Some(user_id),
        REGISTRATION,
    )
    .await?;
    let Some(state) = taken else {
        return Err(Error::Validation(FieldErrors::one("credential", MSG_EXPIRED)));
    };
    let state: PasskeyRegistration = from_json(state)?;
    let not_saved = || Error::Validation(FieldErrors::one("credential", MSG_NOT_SAVED));
    let credential: RegisterPublicKeyCredential = serde_json::from_str(credential_json).map_err(|error| {
        tracing::info!(%user_id, %error, "passkey registration: not a credential");
        not_saved()
    })?;
    let passkey = webauthn
        .finish_passkey_registration(&credential, &state)
        .map_err(|error| {
            tracing::info!(%user_id, %error, "passkey registration refused");
            not_saved()
        })?;
    let mut tx = pool.begin().await?;
    let account = db::users::addressee(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    if db::passkeys::count(&mut tx, user_id).await? >= MAX_PASSKEYS {
        return Err(Error::Precondition(MSG_LIMIT));
    }
    let new = NewPasskey {
        user_id,
        credential_id: passkey.cred_id().as_slice(),
        name: &name,
        passkey: json(&passkey)?,
    };
    let Some(row) = db::passkeys::insert(&mut tx, new).await? else {
        return Err(Error::Validation(FieldErrors::one(
            "credential",
            MSG_ALREADY_ADDED,
        )));
    };
    let text = format!(
        "Xin chào {},\n\n\
         Passkey \"{name}\" vừa được thêm vào tài khoản Kid của bạn: từ nay có thể đăng nhập bằng \
         passkey này mà không cần mật khẩu. Nếu không phải bạn thực hiện, hãy xóa passkey đó ở trang \
         Bảo mật tài khoản, đổi mật khẩu và liên hệ bộ phận hỗ trợ ngay.\n\n\
         Kid",
        account.username
    );
    mail::enqueue(
        &mut tx,
        user_id,
        &Mail::new(account.email, "Đã thêm passkey vào tài khoản Kid", text),
    )
    .await?;
    tx.commit().await?;
    tracing::info!(%user_id, passkey_id = %row.id, "passkey added");
    Ok(row)
}

/// The player's passkeys, oldest first.
pub async fn list(pool: &PgPool, user_id: Uuid) -> Result<Vec<PasskeyRow>, Error> {
    Ok(db::passkeys::of_user(&mut *pool.acquire().await?, user_id).await?)
}

/// Removes one of the player's passkeys.
pub async fn remove(pool: &PgPool, user_id: Uuid, passkey_id: &str) -> Result<(), Error> {
    let not_found = || Error::NotFound(MSG_NOT_FOUND);
    let passkey_id = Uuid::parse_str(passkey_id).map_err(|_| not_found())?;
    let mut tx = pool.begin().await?;
    let account = db::users::addressee(&mut tx, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    if !db::passkeys::remove(&mut tx, user_id, passkey_id).await? {
        return Err(not_found());
    }
    let text = format!(
        "Xin chào {},\n\n\
         Một passkey vừa bị xóa khỏi tài khoản Kid của bạn và không còn dùng để đăng nhập được nữa. \
         Nếu không phải bạn thực hiện, hãy đổi mật khẩu và liên hệ bộ phận hỗ trợ ngay.\n\n\
         Kid",
        account.username
    );
    mail::enqueue(
        &mut tx,
        user_id,
        &Mail::new(account.email, "Đã xóa passkey khỏi tài khoản Kid", text),
    )
    .await?;
    tx.commit().await?;
    tracing::info!(%user_id, %passkey_id, "passkey removed");
    Ok(())
}

/// Starts a sign-in with any passkey of ours: the options for `navigator.credentials.get`.
pub async fn start_sign_in(pool: &PgPool, webauthn: &Webauthn) -> Result<Ceremony, Error> {
    let (mut options, state) = webauthn
        .start_discoverable_authentication()
        .map_err(|error| Error::Internal(format!("passkey sign-in: {error}")))?;
    // A button asks for the passkey, not the autofill of a username field.
    options.mediation = None;
    let id = db::passkeys::start_ceremony(
        &mut *pool.acquire().await?,
        None,
        SIGN_IN,
        json(&state)?,
        expires_at(),
    )
    .await?;
    Ok(Ceremony {
        id,
        options_json: json(&options.public_key)?.to_string(),
    })
}

/// Finishes a sign-in: the assertion must verify against a passkey of the player its user
/// handle names. Anything else is `PasskeyRefused`, one answer for every cause.
pub async fn finish_sign_in(
    pool: &PgPool,
    webauthn: &Webauthn,
    public_url: &str,
    ceremony_id: &str,
    credential_json: &str,
    attempt: &Attempt<'_>,
) -> Result<UserRow, Error> {
    let ceremony_id = parse_ceremony_id(ceremony_id)?;
    let mut conn = pool.acquire().await?;
    let Some(state) = db::passkeys::take_ceremony(&mut conn, ceremony_id, None, SIGN_IN).await? else {
        return Err(Error::Validation(FieldErrors::one("credential", MSG_EXPIRED)));
    };
    let state: DiscoverableAuthentication = from_json(state)?;
    let refused = |why: &dyn std::fmt::Display| {
        tracing::info!(client_ip = attempt.ip, outcome = "failure", %why, "passkey sign-in");
        Error::PasskeyRefused
    };
    let credential: PublicKeyCredential =
        serde_json::from_str(credential_json).map_err(|error| refused(&error))?;
    let (user_id, credential_id) = webauthn
        .identify_discoverable_authentication(&credential)
        .map_err(|error| refused(&error))?;
    let Some(user) = db::users::find_user(&mut conn, user_id).await? else {
        return Err(refused(&"no such player"));
    };
    let Some((passkey_id, passkey)) = db::passkeys::find(&mut conn, user_id, credential_id).await? else {
        return Err(refused(&"not a passkey of the player it names"));
    };
    let mut passkey: Passkey = from_json(passkey)?;
    let keys = [DiscoverableKey::from(&passkey)];
    let result = webauthn
        .finish_discoverable_authentication(&credential, state, &keys)
        .map_err(|error| refused(&error))?;
    if db::users::is_locked(&mut conn, user_id).await? {
        tracing::info!(%user_id, outcome = "locked", "passkey sign-in");
        return Err(Error::AccountLocked);
    }
    passkey.update_credential(&result);
    db::passkeys::used(&mut conn, passkey_id, json(&passkey)?).await?;
    drop(conn);
    tracing::info!(%user_id, client_ip = attempt.ip, outcome = "success", "passkey sign-in");
    sign_ins::record_sign_in(pool, public_url, user_id, attempt, Method::Passkey).await?;
    Ok(user)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relying_party_is_the_origins_domain_and_never_an_address() {
        assert!(relying_party("https://kid.example.vn").is_ok());
        assert!(relying_party("http://localhost:8080").is_ok());
        assert!(relying_party("http://127.0.0.1:8080").is_err());
    }

    #[test]
    fn a_passkey_is_named_by_the_player_or_after_the_device() {
        let chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                      Chrome/120.0.0.0 Safari/537.36";
        assert_eq!(
            passkey_name("  Điện thoại  ", chrome).ok().as_deref(),
            Some("Điện thoại")
        );
        assert_eq!(
            passkey_name("", chrome).ok().as_deref(),
            Some("Chrome 120 trên Windows 10")
        );
        assert!(passkey_name(&"ê".repeat(MAX_NAME), chrome).is_ok());
        assert!(passkey_name(&"ê".repeat(MAX_NAME + 1), chrome).is_err());
    }
}
