//! Staff of the support console: signing in with a password and an authenticator-app code
//! (both, always), re-authenticating before money moves, and the admin's management of staff.
//! Every step is recorded in identity's staff audit log.

use kid_contracts::messages::staff::{
    MSG_CODE_FORMAT, MSG_CODE_REQUIRED, MSG_DEVELOPMENT_SECRET, MSG_EMAIL_OUTSIDE_DOMAIN, MSG_EMAIL_REQUIRED,
    MSG_EMAIL_TAKEN, MSG_ENROLMENT_CODE_WRONG, MSG_ENROLMENT_INVALID, MSG_NO_EMAIL, MSG_NOT_YOURSELF,
    MSG_NOT_YOURSELF_RESET, MSG_PASSWORD_REQUIRED, MSG_REAUTH_REQUIRED, MSG_REAUTH_WRONG, MSG_ROLE_INVALID,
    MSG_SIGN_IN_FAILED, MSG_STAFF_NOT_FOUND, MSG_USERNAME_INVALID, MSG_USERNAME_REQUIRED, MSG_USERNAME_TAKEN,
};
use kid_platform::{
    audit,
    auth::{StaffActor, StaffRole},
};
use rand::seq::IndexedRandom;
use serde_json::json;
use sqlx::PgPool;
use totp_rs::Secret;
use uuid::Uuid;

use super::{
    Error,
    two_factor::{SecretSeal, step_number, totp},
    verification::{new_token, token_hash},
};
use crate::{
    db::{self, staff::StaffRow},
    domain::{Email, FieldErrors, Password, PasswordHasher, Strength, password},
    events::mail::{self, Mail},
};

/// The development seed's staff, one per role and a second finance user (for maker-checker).
pub const DEVELOPMENT_STAFF: [(&str, StaffRole); 5] = [
    ("staff-admin", StaffRole::Admin),
    ("staff-finance", StaffRole::Finance),
    ("staff-finance2", StaffRole::Finance),
    ("staff-support", StaffRole::Support),
    ("staff-viewer", StaffRole::Viewer),
];
pub const DEVELOPMENT_PASSWORD: &str = "Staff@123456";
/// The development staff's shared authenticator secret (base32). Production refuses to sign in
/// anyone whose secret it is.
pub const DEVELOPMENT_TOTP_SECRET: &str = "JBSWY3DPEHPK3PXP";

/// A staff member as the console shows them.
#[derive(Debug, Clone)]
pub struct Staff {
    pub row: StaffRow,
    pub role: StaffRole,
}

impl TryFrom<StaffRow> for Staff {
    type Error = Error;

    fn try_from(row: StaffRow) -> Result<Self, Error> {
        let role = StaffRole::parse(&row.role)
            .ok_or_else(|| Error::Internal(format!("staff role {:?}", row.role)))?;
        Ok(Self { row, role })
    }
}

/// An open enrolment as its link's page shows it: whose, the app secret it offers (base32 and
/// as an `otpauth://` URI for a QR code), and until when it works.
pub struct Enrolment {
    pub username: String,
    pub totp_secret: String,
    pub otpauth_url: String,
    pub expires_at: time::OffsetDateTime,
}

/// A member setting their own password and app through their link.
pub struct Enrol<'a> {
    pub token: &'a str,
    pub password: &'a str,
    pub password_confirm: &'a str,
    pub code: &'a str,
    pub ip: &'a str,
}

/// How long an enrolment link works.
pub const ENROLMENT_HOURS: i32 = 24;
/// A staff password's least length: a member's password guards the money of every player.
pub const STAFF_PASSWORD_MIN_LENGTH: usize = kid_contracts::limits::STAFF_PASSWORD_MIN;
const MAX_TOKEN_LENGTH: usize = 128;

/// Who signs in, and from where.
pub struct SignIn<'a> {
    pub username: &'a str,
    pub password: &'a str,
    pub code: &'a str,
    pub ip: &'a str,
}

/// Everything identity needs to check a staff member's factors.
pub struct Factors<'a> {
    pub pool: &'a PgPool,
    pub hasher: &'a PasswordHasher,
    pub seal: &'a SecretSeal,
    /// Production: the development secret is refused.
    pub production: bool,
    /// The portal's origin, for the enrolment links in mail.
    pub public_url: &'a str,
    /// The mail domain every staff address is in (`identity.staff_email_domain`; empty, any).
    pub staff_email_domain: &'a str,
}

fn actor(staff: &Staff, ip: &str) -> StaffActor {
    StaffActor {
        id: staff.row.id,
        username: staff.row.username.clone(),
        role: staff.role,
        reauthenticated_at: time::OffsetDateTime::now_utc().unix_timestamp(),
        ip: ip.to_owned(),
    }
}

/// A staff address outside the organisation's mail domain.
fn outside_domain(domain: &str) -> String {
    format!("{MSG_EMAIL_OUTSIDE_DOMAIN} @{domain}")
}

fn six_digits(code: &str) -> Option<String> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    (code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit())).then_some(code)
}

impl Factors<'_> {
    /// `email` when it is in the staff mail domain: an admin who could give any address could
    /// mail a new finance member's enrolment link to themselves and be maker and checker both.
    /// Without a domain (development only: production refuses to start so), any address.
    fn in_staff_domain(&self, email: Email) -> Result<Email, String> {
        let domain = email.as_str().rsplit_once('@').map_or("", |(_, domain)| domain);
        if self.staff_email_domain.is_empty() || domain.eq_ignore_ascii_case(self.staff_email_domain) {
            Ok(email)
        } else {
            Err(outside_domain(self.staff_email_domain))
        }
    }

    /// Whether `code` is the member's current app code, taken once (a replay is refused).
    async fn code_is_right(
        &self,
        conn: &mut sqlx::PgConnection,
        id: Uuid,
        username: &str,
        sealed: &[u8],
        code: &str,
    ) -> Result<bool, Error> {
        let Some(code) = six_digits(code) else {
            return Ok(false);
        };
        let secret = self.seal.open(id, sealed)?;
        if self.production
            && Secret::new(secret.clone().into_boxed_slice()).to_base32() == DEVELOPMENT_TOTP_SECRET
        {
            return Err(Error::Validation(FieldErrors::one(
                "code",
                MSG_DEVELOPMENT_SECRET,
            )));
        }
        // The development secret (80 bits) is shorter than RFC 4226 asks; generated ones are 160.
        let totp = if secret.len() < 16 {
            totp_rs::Builder::new().with_secret(secret).build_noncompliant()
        } else {
            totp(secret, username)?
        };
        match totp.check_current(&code) {
            Some(step) => Ok(db::staff::accept_step(conn, id, step_number(step)?).await?),
            None => Ok(false),
        }
    }

    /// Signs a staff member in with their password and app code; every attempt on an existing
    /// member is in the audit log.
    pub async fn sign_in(&self, attempt: &SignIn<'_>) -> Result<Staff, Error> {
        let mut errors = FieldErrors::default();
        if attempt.username.trim().is_empty() {
            errors.add("username", MSG_USERNAME_REQUIRED);
        }
        if attempt.password.is_empty() {
            errors.add("password", MSG_PASSWORD_REQUIRED);
        }
        if attempt.code.trim().is_empty() {
            errors.add("code", MSG_CODE_REQUIRED);
        }
        errors.check().map_err(Error::Validation)?;
        let refused = || Error::Validation(FieldErrors::one("username", MSG_SIGN_IN_FAILED));
        let mut conn = self.pool.acquire().await?;
        let credentials = db::staff::credentials_of(&mut conn, attempt.username.trim()).await?;
        let password_right = self
            .hasher
            .verify(
                attempt.password,
                credentials.as_ref().map(|found| found.password_hash.as_str()),
            )
            .await?;
        let Some(credentials) = credentials else {
            return Err(refused());
        };
        let staff = self.find(credentials.id).await?;
        let code_right = password_right
            && self
                .code_is_right(
                    &mut conn,
                    credentials.id,
                    &staff.row.username,
                    &credentials.totp_secret,
                    attempt.code,
                )
                .await?;
        let mut tx = self.pool.begin().await?;
        let action = if code_right {
            "staff.sign_in"
        } else {
            "staff.sign_in_refused"
        };
        audit::record(
            &mut tx,
            &actor(&staff, attempt.ip),
            action,
            &subject(staff.row.id),
            None,
            None,
        )
        .await?;
        if code_right {
            db::staff::signed_in(&mut tx, staff.row.id).await?;
        }
        tx.commit().await?;
        tracing::info!(
            staff = staff.row.username,
            ip = attempt.ip,
            success = code_right,
            "staff sign-in"
        );
        if code_right { Ok(staff) } else { Err(refused()) }
    }

    /// Takes the member's password or a current app code as proof they are still at the desk.
    pub async fn reauthenticate(&self, id: Uuid, secret: &str, ip: &str) -> Result<Staff, Error> {
        if secret.trim().is_empty() {
            return Err(Error::Validation(FieldErrors::one("secret", MSG_REAUTH_REQUIRED)));
        }
        let mut conn = self.pool.acquire().await?;
        let credentials = db::staff::credentials(&mut conn, id)
            .await?
            .ok_or(Error::NotFound(MSG_STAFF_NOT_FOUND))?;
        let staff = self.find(id).await?;
        let right = if six_digits(secret).is_some() {
            self.code_is_right(
                &mut conn,
                id,
                &staff.row.username,
                &credentials.totp_secret,
                secret,
            )
            .await?
        } else {
            self.hasher
                .verify(secret, Some(&credentials.password_hash))
                .await?
        };
        let action = if right {
            "staff.reauthenticate"
        } else {
            "staff.reauthenticate_refused"
        };
        audit::record(&mut conn, &actor(&staff, ip), action, &subject(id), None, None).await?;
        if right {
            Ok(staff)
        } else {
            Err(Error::Validation(FieldErrors::one("secret", MSG_REAUTH_WRONG)))
        }
    }

    pub async fn find(&self, id: Uuid) -> Result<Staff, Error> {
        let mut conn = self.pool.acquire().await?;
        db::staff::find(&mut conn, id)
            .await?
            .ok_or(Error::NotFound(MSG_STAFF_NOT_FOUND))?
            .try_into()
    }

    pub async fn list(&self) -> Result<Vec<Staff>, Error> {
        let mut conn = self.pool.acquire().await?;
        db::staff::list(&mut conn)
            .await?
            .into_iter()
            .map(Staff::try_from)
            .collect()
    }

    /// A new member, who sets their own password and app through a link mailed to `email`:
    /// the admin sees neither. Until then the member has a password and a secret nobody knows.
    pub async fn create(
        &self,
        admin: &StaffActor,
        username: &str,
        role: &str,
        email: &str,
    ) -> Result<Staff, Error> {
        let username = username.trim();
        let mut errors = FieldErrors::default();
        let valid_username = (3..=32).contains(&username.len())
            && username
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if !valid_username {
            errors.add("username", MSG_USERNAME_INVALID);
        }
        let role = errors.take(
            "role",
            StaffRole::parse(role).ok_or_else(|| MSG_ROLE_INVALID.to_owned()),
        );
        let email = if email.trim().is_empty() {
            errors.add("email", MSG_EMAIL_REQUIRED);
            None
        } else {
            errors.take(
                "email",
                Email::parse(email).and_then(|email| self.in_staff_domain(email)),
            )
        };
        errors.check().map_err(Error::Validation)?;
        let (Some(role), Some(email)) = (role, email) else {
            return Err(Error::Internal("role and address checked".into()));
        };
        let id = Uuid::now_v7();
        let (password_hash, totp_secret) = self.unknown_credentials(id).await?;
        let mut tx = self.pool.begin().await?;
        let inserted = db::staff::insert(
            &mut tx,
            &db::staff::NewStaff {
                id,
                username,
                password_hash: &password_hash,
                totp_secret: &totp_secret,
                role: role.as_str(),
                email: Some(email.as_str()),
            },
        )
        .await?;
        match inserted {
            Ok(()) => {}
            Err(db::staff::Taken::Username) => {
                return Err(Error::Validation(FieldErrors::one(
                    "username",
                    MSG_USERNAME_TAKEN,
                )));
            }
            Err(db::staff::Taken::Email) => {
                return Err(Error::Validation(FieldErrors::one("email", MSG_EMAIL_TAKEN)));
            }
        }
        self.send_enrolment(&mut tx, id, username, email.as_str(), false)
            .await?;
        let after = json!({
            "username": username,
            "role": role.as_str(),
            "disabled": false,
            "email": email.as_str(),
        });
        audit::record(&mut tx, admin, "staff.create", &subject(id), None, Some(&after)).await?;
        let row = db::staff::find(&mut tx, id)
            .await?
            .ok_or(Error::NotFound(MSG_STAFF_NOT_FOUND))?;
        tx.commit().await?;
        row.try_into()
    }

    /// A password hash and a sealed app secret that nobody knows: a member holds them until
    /// they enrol.
    async fn unknown_credentials(&self, id: Uuid) -> Result<(String, Vec<u8>), Error> {
        let password =
            Password::parse(&generated_password(), Strength::VeryStrong).map_err(Error::Internal)?;
        let password_hash = self.hasher.hash(&password).await?;
        Ok((password_hash, self.seal.seal(id, &random_secret())?))
    }

    /// Opens the member's enrolment (an earlier link stops working) and mails its link.
    async fn send_enrolment(
        &self,
        conn: &mut sqlx::PgConnection,
        id: Uuid,
        username: &str,
        email: &str,
        reset: bool,
    ) -> Result<(), Error> {
        let (token, token_hash) = new_token();
        let offered = self.seal.seal(id, &random_secret())?;
        db::staff::open_enrolment(conn, id, &token_hash, &offered, ENROLMENT_HOURS).await?;
        // In the fragment: a browser sends no fragment, so the token is in no server's log.
        let link = format!("{}/staff/enrol#{token}", self.public_url.trim_end_matches('/'));
        let why = if reset {
            "Quản trị viên vừa đặt lại thông tin đăng nhập bảng điều khiển hỗ trợ Kid của bạn: \
             mật khẩu và ứng dụng xác thực cũ không dùng được nữa, mọi phiên đăng nhập đã kết thúc."
        } else {
            "Quản trị viên vừa tạo cho bạn tài khoản nhân viên của bảng điều khiển hỗ trợ Kid."
        };
        let text = format!(
            "Xin chào {username},\n\n\
             {why} Hãy mở đường dẫn dưới đây để thêm tài khoản vào ứng dụng xác thực và đặt \
             mật khẩu của riêng bạn:\n\n\
             {link}\n\n\
             Đường dẫn có hiệu lực trong {ENROLMENT_HOURS} giờ và chỉ dùng được một lần. \
             Không ai khác, kể cả quản trị viên, biết mật khẩu của bạn.\n\n\
             Kid"
        );
        let subject = "Đăng ký tài khoản nhân viên Kid";
        mail::enqueue_to_address(conn, &Mail::new(email, subject, text).with_link(link)).await?;
        Ok(())
    }

    /// Ends the member's password and app (replaced by ones nobody knows) and mails them a new
    /// enrolment link; the caller ends their sessions. Not one's own: another admin does it.
    pub async fn reset(&self, admin: &StaffActor, id: Uuid) -> Result<Staff, Error> {
        if id == admin.id {
            return Err(Error::Validation(FieldErrors::one(
                "staff",
                MSG_NOT_YOURSELF_RESET,
            )));
        }
        let (password_hash, totp_secret) = self.unknown_credentials(id).await?;
        let mut tx = self.pool.begin().await?;
        let member = db::staff::find(&mut tx, id)
            .await?
            .ok_or(Error::NotFound(MSG_STAFF_NOT_FOUND))?;
        let Some(email) = member.email.clone() else {
            return Err(Error::Validation(FieldErrors::one("email", MSG_NO_EMAIL)));
        };
        db::staff::set_credentials(&mut tx, id, &password_hash, &totp_secret, None).await?;
        self.send_enrolment(&mut tx, id, &member.username, &email, true)
            .await?;
        let after = json!({ "enrolmentSentTo": email });
        audit::record(
            &mut tx,
            admin,
            "staff.reset_credentials",
            &subject(id),
            None,
            Some(&after),
        )
        .await?;
        let row = db::staff::find(&mut tx, id)
            .await?
            .ok_or(Error::NotFound(MSG_STAFF_NOT_FOUND))?;
        tx.commit().await?;
        row.try_into()
    }

    /// The open enrolment of a link's token, as its page shows it.
    pub async fn enrolment(&self, token: &str) -> Result<Enrolment, Error> {
        let open = self.open_enrolment(token).await?;
        let totp = totp(self.seal.open(open.staff_id, &open.totp_secret)?, &open.username)?;
        Ok(Enrolment {
            totp_secret: totp.secret().to_base32(),
            otpauth_url: totp
                .to_url()
                .map_err(|error| Error::Internal(format!("otpauth URL: {error}")))?,
            username: open.username,
            expires_at: open.expires_at,
        })
    }

    async fn open_enrolment(&self, token: &str) -> Result<db::staff::EnrolmentRow, Error> {
        let invalid = || Error::NotFound(MSG_ENROLMENT_INVALID);
        if token.is_empty() || token.len() > MAX_TOKEN_LENGTH {
            return Err(invalid());
        }
        let mut conn = self.pool.acquire().await?;
        db::staff::enrolment(&mut conn, &token_hash(token))
            .await?
            .ok_or_else(invalid)
    }

    /// The member sets their own password (12 characters or more of every kind, nothing of their
    /// name) and proves their app holds the offered secret with a current code; the link is
    /// then used up.
    pub async fn enrol(&self, attempt: &Enrol<'_>) -> Result<Staff, Error> {
        let mut errors = FieldErrors::default();
        if attempt.code.trim().is_empty() {
            errors.add("code", MSG_CODE_REQUIRED);
        } else if six_digits(attempt.code).is_none() {
            errors.add("code", MSG_CODE_FORMAT);
        }
        let password = Password::take_confirmed(
            errors,
            attempt.password,
            attempt.password_confirm,
            &password::ON_STAFF_ENROL,
        )
        .map_err(Error::Validation)?;
        if password.expose().chars().count() < STAFF_PASSWORD_MIN_LENGTH {
            let message = password::ON_STAFF_ENROL.messages.too_short;
            return Err(Error::Validation(FieldErrors::one("password", message)));
        }
        let open = self.open_enrolment(attempt.token).await?;
        let password = password
            .not_personal(&open.username, open.email.as_deref().unwrap_or_default())
            .map_err(|message| Error::Validation(FieldErrors::one("password", message)))?;
        let secret = self.seal.open(open.staff_id, &open.totp_secret)?;
        let code = six_digits(attempt.code).unwrap_or_default();
        let Some(step) = totp(secret, &open.username)?.check_current(&code) else {
            return Err(Error::Validation(FieldErrors::one(
                "code",
                MSG_ENROLMENT_CODE_WRONG,
            )));
        };
        // Hashed before the transaction: argon2 takes a while and holds no lock.
        let password_hash = self.hasher.hash(&password).await?;
        let mut tx = self.pool.begin().await?;
        if !db::staff::close_enrolment(&mut tx, &token_hash(attempt.token)).await? {
            return Err(Error::NotFound(MSG_ENROLMENT_INVALID));
        }
        // The code just given is taken: it signs nobody in a second time.
        let last_step = Some(step_number(step)?);
        db::staff::set_credentials(
            &mut tx,
            open.staff_id,
            &password_hash,
            &open.totp_secret,
            last_step,
        )
        .await?;
        let staff: Staff = db::staff::find(&mut tx, open.staff_id)
            .await?
            .ok_or(Error::NotFound(MSG_STAFF_NOT_FOUND))?
            .try_into()?;
        audit::record(
            &mut tx,
            &actor(&staff, attempt.ip),
            "staff.enrol",
            &subject(open.staff_id),
            None,
            None,
        )
        .await?;
        tx.commit().await?;
        tracing::info!(staff = staff.row.username, "staff member enrolled");
        Ok(staff)
    }

    /// Sets a member's role and whether they are disabled. An admin cannot demote or disable
    /// themselves (so there is always one to undo a mistake).
    pub async fn update(
        &self,
        admin: &StaffActor,
        id: Uuid,
        role: &str,
        disabled: bool,
    ) -> Result<Staff, Error> {
        let role = StaffRole::parse(role)
            .ok_or_else(|| Error::Validation(FieldErrors::one("role", MSG_ROLE_INVALID)))?;
        if id == admin.id && (role != StaffRole::Admin || disabled) {
            return Err(Error::Validation(FieldErrors::one("role", MSG_NOT_YOURSELF)));
        }
        let mut tx = self.pool.begin().await?;
        let before = db::staff::find(&mut tx, id)
            .await?
            .ok_or(Error::NotFound(MSG_STAFF_NOT_FOUND))?;
        let after = db::staff::update(&mut tx, id, role.as_str(), disabled)
            .await?
            .ok_or(Error::NotFound(MSG_STAFF_NOT_FOUND))?;
        let state = |row: &StaffRow| json!({ "role": row.role, "disabled": row.disabled_at.is_some() });
        audit::record(
            &mut tx,
            admin,
            "staff.update",
            &subject(id),
            Some(&state(&before)),
            Some(&state(&after)),
        )
        .await?;
        tx.commit().await?;
        after.try_into()
    }
}

/// The audit log's name for a staff member.
fn subject(id: Uuid) -> String {
    format!("staff:{id}")
}

/// 160 random bits: an authenticator secret as RFC 4226 asks.
fn random_secret() -> Vec<u8> {
    let mut bytes = vec![0u8; 20];
    rand::Rng::fill(&mut rand::rng(), bytes.as_mut_slice());
    bytes
}

/// Twenty characters of every class, from an alphabet without look-alikes.
fn generated_password() -> String {
    const LOWER: &[u8] = b"abcdefghjkmnpqrstuvwxyz";
    const UPPER: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ";
    const DIGITS: &[u8] = b"23456789";
    const SYMBOLS: &[u8] = b"@#%+=!";
    let mut rng = rand::rng();
    let mut pick = |set: &[u8]| char::from(*set.choose(&mut rng).unwrap_or(&b'x'));
    let mut password: String = (0..4)
        .flat_map(|_| [pick(LOWER), pick(UPPER), pick(DIGITS), pick(LOWER), pick(UPPER)])
        .collect();
    password.insert(10, pick(SYMBOLS));
    password
}

/// Development data: the staff of [`DEVELOPMENT_STAFF`], each with [`DEVELOPMENT_PASSWORD`] and
/// [`DEVELOPMENT_TOTP_SECRET`], created once.
pub async fn seed_development(
    pool: &PgPool,
    hasher: &PasswordHasher,
    seal: &SecretSeal,
) -> Result<(), Error> {
    let secret = Secret::try_from_base32(DEVELOPMENT_TOTP_SECRET)
        .map_err(|error| Error::Internal(format!("development secret: {error:?}")))?
        .as_bytes()
        .to_vec();
    let password = Password::parse(DEVELOPMENT_PASSWORD, Strength::Medium).map_err(Error::Internal)?;
    let mut conn = pool.acquire().await?;
    for (username, role) in DEVELOPMENT_STAFF {
        if db::staff::credentials_of(&mut conn, username).await?.is_some() {
            continue;
        }
        let id = Uuid::now_v7();
        let email = format!("{username}@staff.kid.test");
        let staff = db::staff::NewStaff {
            id,
            username,
            password_hash: &hasher.hash(&password).await?,
            totp_secret: &seal.seal(id, &secret)?,
            role: role.as_str(),
            email: Some(&email),
        };
        // Taken: a portal starting beside this one seeded the member first.
        let _taken = db::staff::insert(&mut conn, &staff).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generated_password_is_very_strong() {
        for _ in 0..50 {
            let password = generated_password();
            assert_eq!(password.chars().count(), 21);
            assert!(
                Password::parse(&password, Strength::VeryStrong).is_ok(),
                "{password}"
            );
        }
    }

    #[test]
    fn only_six_digits_are_an_app_code() {
        assert_eq!(six_digits(" 123 456 "), Some("123456".into()));
        assert_eq!(six_digits("12345"), None);
        assert_eq!(six_digits("Staff@123456"), None);
    }
}
