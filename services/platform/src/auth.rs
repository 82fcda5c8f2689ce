//! Internal JWTs, signed with Ed25519 (EdDSA): each caller (the gateway, payment, recharge,
//! operator tooling) signs its gRPC calls with its own private key and names itself in the
//! token's `kid` header; a service verifies a call with the public key of the caller the token
//! names (or that caller's previous one during a rotation), so the principal is the key that
//! verified, not a claim anyone could write. Each binary holds only the private key of the
//! caller it is and the public keys of its callers: no service can sign as another (the wallet,
//! which verifies payment's calls, holds nothing that signs them). Services then decide per
//! method which callers may call it ([`authorize`]).

use std::{
    collections::BTreeMap,
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use ed25519_dalek::{
    SigningKey, VerifyingKey,
    pkcs8::{
        DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, spki::der::pem::LineEnding,
    },
};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use tonic::{Request, Status, metadata::MetadataValue, service::Interceptor};

use crate::{config::JwtSettings, telemetry};

/// The callers with keys of their own.
pub const GATEWAY: &str = "gateway";
pub const PAYMENT: &str = "payment";
pub const RECHARGE: &str = "recharge";
/// Operator tooling (support's hand credits and recalls, benchmarks, tests): never deployed in
/// a pod, its key given only to the tool that needs it.
pub const OPERATOR: &str = "operator";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct InternalClaims {
    pub iss: String,
    pub aud: String,
    /// The calling component, e.g. `gateway`: always the caller whose key verified the token.
    pub sub: String,
    pub iat: u64,
    pub exp: u64,
    /// The staff member the gateway acts for (a console call); only the gateway's tokens may
    /// carry one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staff: Option<StaffActor>,
}

impl InternalClaims {
    /// Claims for `sub`, issued now and valid for `ttl`.
    pub fn new(issuer: &str, audience: &str, sub: &str, ttl: Duration, staff: Option<StaffActor>) -> Self {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        Self {
            iss: issuer.to_owned(),
            aud: audience.to_owned(),
            sub: sub.to_owned(),
            iat: now,
            exp: now + ttl.as_secs(),
            staff,
        }
    }
}

/// A staff member's role: what the console lets them do. Every role may read.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum StaffRole {
    /// Reads only.
    Viewer,
    /// Tickets, player look-up, resending coin orders to games, ending sessions, locking accounts.
    Support,
    /// Matching transfers, refunds and KP adjustments.
    Finance,
    /// Staff accounts and their roles.
    Admin,
}

impl StaffRole {
    pub const ALL: [Self; 4] = [Self::Viewer, Self::Support, Self::Finance, Self::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Viewer => "viewer",
            Self::Support => "support",
            Self::Finance => "finance",
            Self::Admin => "admin",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|role| role.as_str() == text)
    }
}

/// Who a console call acts for, as the gateway vouches: put in a client request's extensions,
/// it travels in the internal token ([`AttachInternalJwt`]) and a service reads it back with
/// [`staff_actor`].
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct StaffActor {
    pub id: uuid::Uuid,
    pub username: String,
    pub role: StaffRole,
    /// When the staff member last gave their password or app code (unix seconds).
    pub reauthenticated_at: i64,
    /// The address they act from.
    pub ip: String,
}

/// How recent a re-authentication must be for an action that moves money.
pub const REAUTH_WINDOW: Duration = Duration::from_secs(5 * 60);

/// The reason on a PERMISSION_DENIED status that asks the staff member to re-authenticate.
pub const REAUTH_REQUIRED: &str = "STAFF_REAUTH_REQUIRED";

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("internal token rejected: {0}")]
    Invalid(#[from] jsonwebtoken::errors::Error),
    #[error("no public key for caller {0:?}")]
    UnknownCaller(String),
    #[error("this binary holds no private key of caller {0:?}")]
    CannotSignAs(String),
    #[error("the token's subject is not the caller whose key signed it")]
    SubjectMismatch,
    #[error("only the gateway acts for staff")]
    StaffFromElsewhere,
}

/// A key in the settings that is not what its name says.
#[derive(Debug, thiserror::Error)]
#[error("jwt.{setting}.{caller} is not an Ed25519 key in PEM ({reason})")]
pub struct KeyError {
    pub setting: &'static str,
    pub caller: String,
    pub reason: String,
}

impl KeyError {
    fn in_setting<E: std::fmt::Display>(setting: &'static str, caller: &str) -> impl FnOnce(E) -> Self {
        move |error| Self {
            setting,
            caller: caller.to_owned(),
            reason: error.to_string(),
        }
    }
}

/// A new Ed25519 key pair: the private key (PKCS#8 PEM) and the public key (SPKI PEM), as
/// `jwt.signing_keys` and `jwt.public_keys` take them.
pub fn generate_key_pair() -> (SecretString, String) {
    use rand::RngCore;
    let mut seed = [0_u8; 32];
    rand::rng().fill_bytes(&mut seed);
    let key = SigningKey::from_bytes(&seed);
    let private = key
        .to_pkcs8_pem(LineEnding::LF)
        .expect("an Ed25519 key encodes as PKCS#8");
    let public = key
        .verifying_key()
        .to_public_key_pem(LineEnding::LF)
        .expect("an Ed25519 public key encodes as SPKI");
    (SecretString::from(private.as_str()), public)
}

/// The private key in `pem`, as jsonwebtoken signs with it (its PKCS#8 DER).
fn signing_key(caller: &str, pem: &str) -> Result<EncodingKey, KeyError> {
    let der = SigningKey::from_pkcs8_pem(pem.trim())
        .and_then(|key| key.to_pkcs8_der())
        .map_err(KeyError::in_setting("signing_keys", caller))?;
    Ok(EncodingKey::from_ed_der(der.as_bytes()))
}

/// The public key in `pem`, from the setting `setting`.
fn verifying_key(setting: &'static str, caller: &str, pem: &str) -> Result<VerifyingKey, KeyError> {
    VerifyingKey::from_public_key_pem(pem.trim()).map_err(KeyError::in_setting(setting, caller))
}

/// Mints internal tokens with the private key of the caller this binary is, and verifies them
/// with the public key of the caller they name.
pub struct InternalJwt {
    /// The private keys held here: of the caller this binary is (the development launcher and
    /// operator tooling hold several).
    signing: BTreeMap<String, EncodingKey>,
    /// Each caller's public keys held here, the current one first.
    verifying: BTreeMap<String, Vec<DecodingKey>>,
    validation: Validation,
    issuer: String,
    audience: String,
    ttl: Duration,
}

impl InternalJwt {
    /// The keys in `settings` (empty ones are not held); refuses a key that does not read as
    /// Ed25519.
    pub fn new(settings: &JwtSettings) -> Result<Self, KeyError> {
        // EdDSA only: a token claiming HS256 (signed with a public key as its secret) or none
        // is refused before any key is tried.
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_issuer(&[&settings.issuer]);
        validation.set_audience(&[&settings.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        let mut signing = BTreeMap::new();
        for (caller, pem) in &settings.signing_keys {
            let pem = pem.expose_secret();
            if !pem.is_empty() {
                signing.insert(caller.clone(), signing_key(caller, pem)?);
            }
        }
        let mut verifying = BTreeMap::new();
        for (caller, pem) in settings.public_keys.iter().filter(|(_, pem)| !pem.is_empty()) {
            let public = verifying_key("public_keys", caller, pem)?;
            let mut keys = vec![DecodingKey::from_ed_der(public.as_bytes())];
            if let Some(previous) = settings
                .previous_public_keys
                .get(caller)
                .filter(|pem| !pem.is_empty())
            {
                let previous = verifying_key("previous_public_keys", caller, previous)?;
                keys.push(DecodingKey::from_ed_der(previous.as_bytes()));
            }
            verifying.insert(caller.clone(), keys);
        }
        Ok(Self {
            signing,
            verifying,
            validation,
            issuer: settings.issuer.clone(),
            audience: settings.audience.clone(),
            ttl: Duration::from_secs(settings.ttl_seconds),
        })
    }

    /// A token for `caller`, signed with its private key (which this binary must hold).
    pub fn mint(&self, caller: &str) -> Result<String, TokenError> {
        self.mint_acting(caller, None)
    }

    /// A token for `caller` acting for `staff` (the gateway, for a console call).
    pub fn mint_acting(&self, caller: &str, staff: Option<StaffActor>) -> Result<String, TokenError> {
        let key = self
            .signing
            .get(caller)
            .ok_or_else(|| TokenError::CannotSignAs(caller.to_owned()))?;
        let claims = InternalClaims::new(&self.issuer, &self.audience, caller, self.ttl, staff);
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(caller.to_owned());
        Ok(jsonwebtoken::encode(&header, &claims, key)?)
    }

    /// Verifies with the public key of the caller the token names, or that caller's previous
    /// one (a pod not yet rotated); the subject must be that caller.
    pub fn verify(&self, token: &str) -> Result<InternalClaims, TokenError> {
        let caller = jsonwebtoken::decode_header(token)?.kid.unwrap_or_default();
        let keys = self
            .verifying
            .get(&caller)
            .ok_or_else(|| TokenError::UnknownCaller(caller.clone()))?;
        // The current key, then the previous one: only a signature another key may have made
        // is tried again.
        let claims = keys
            .iter()
            .map(|key| jsonwebtoken::decode::<InternalClaims>(token, key, &self.validation))
            .find(|outcome| {
                !matches!(outcome, Err(error) if *error.kind() == jsonwebtoken::errors::ErrorKind::InvalidSignature)
            })
            .unwrap_or_else(|| Err(jsonwebtoken::errors::ErrorKind::InvalidSignature.into()))?
            .claims;
        if claims.sub != caller {
            return Err(TokenError::SubjectMismatch);
        }
        if claims.staff.is_some() && claims.sub != GATEWAY {
            return Err(TokenError::StaffFromElsewhere);
        }
        Ok(claims)
    }
}

/// Server side: admits a call only with a valid `authorization: Bearer <jwt>` from one of
/// `callers`; the verified claims are put in the request's extensions (for [`authorize`]).
#[derive(Clone)]
pub struct RequireInternalJwt {
    jwt: Arc<InternalJwt>,
    callers: &'static [&'static str],
}

impl RequireInternalJwt {
    pub fn new(jwt: Arc<InternalJwt>, callers: &'static [&'static str]) -> Self {
        Self { jwt, callers }
    }
}

impl Interceptor for RequireInternalJwt {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        let token = request
            .metadata()
            .get("authorization")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.strip_prefix("Bearer "))
            .ok_or_else(|| Status::unauthenticated("missing internal token"))?;
        let claims = self.jwt.verify(token).map_err(|error| {
            tracing::warn!(error = %error, "internal token rejected");
            Status::unauthenticated("invalid internal token")
        })?;
        if !self.callers.contains(&claims.sub.as_str()) {
            tracing::warn!(
                caller = claims.sub,
                "internal call from a caller this service does not serve"
            );
            return Err(Status::permission_denied(format!(
                "{} may not call this service",
                claims.sub
            )));
        }
        request.extensions_mut().insert(claims);
        Ok(request)
    }
}

/// Refuses the call with PERMISSION_DENIED unless its verified caller is one of `callers`:
/// the per-method rule, beside the service-wide one of [`RequireInternalJwt`].
pub fn authorize<T>(request: &Request<T>, method: &str, callers: &[&str]) -> Result<(), Status> {
    let caller = request
        .extensions()
        .get::<InternalClaims>()
        .map(|claims| claims.sub.as_str())
        .ok_or_else(|| Status::unauthenticated("missing internal token"))?;
    if callers.contains(&caller) {
        return Ok(());
    }
    tracing::warn!(caller, method, "internal call refused for this caller");
    Err(Status::permission_denied(format!(
        "{caller} may not call {method}"
    )))
}

/// The staff member a console call acts for, when their role is one of `roles`; PERMISSION_DENIED
/// otherwise (no staff member: a player's or a service's call). The service-side half of the
/// console's roles: the gateway checks them too, but a service never takes its word for it.
pub fn staff_actor<T>(request: &Request<T>, method: &str, roles: &[StaffRole]) -> Result<StaffActor, Status> {
    let claims = request
        .extensions()
        .get::<InternalClaims>()
        .ok_or_else(|| Status::unauthenticated("missing internal token"))?;
    let Some(staff) = claims.staff.clone().filter(|_| claims.sub == GATEWAY) else {
        tracing::warn!(
            caller = claims.sub,
            method,
            "staff method called without a staff member"
        );
        return Err(Status::permission_denied(format!("{method} is for staff")));
    };
    if !roles.contains(&staff.role) {
        tracing::warn!(
            staff = staff.username,
            role = staff.role.as_str(),
            method,
            "staff role refused"
        );
        return Err(Status::permission_denied(format!(
            "the {} role may not call {method}",
            staff.role.as_str()
        )));
    }
    Ok(staff)
}

/// Maker-checker for finance: whether moving `kp` (either way) waits for a second member. It does
/// above `threshold` alone, and when, with what was moved without a second member lately
/// (`alone_lately`: the asker's total, the player's total), it would pass it, so one member
/// cannot split a large amount into small ones.
pub fn needs_second_member(kp: i64, threshold: i64, alone_lately: [i64; 2]) -> bool {
    let (kp, threshold) = (kp.unsigned_abs(), threshold.unsigned_abs());
    kp > threshold
        || alone_lately
            .into_iter()
            .any(|total| total.unsigned_abs().saturating_add(kp) > threshold)
}

/// [`staff_actor`] for an action that moves money or gives power (a member created, a role
/// changed): the staff member must also have given their password or app code within
/// [`REAUTH_WINDOW`], else PERMISSION_DENIED with the [`REAUTH_REQUIRED`] reason. A session
/// left open cannot be used for either.
pub fn staff_reauthenticated<T>(
    request: &Request<T>,
    method: &str,
    roles: &[StaffRole],
) -> Result<StaffActor, Status> {
    use tonic_types::{ErrorDetails, StatusExt};
    let staff = staff_actor(request, method, roles)?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs() as i64;
    let age = now.saturating_sub(staff.reauthenticated_at);
    if !(0..=REAUTH_WINDOW.as_secs() as i64).contains(&age) {
        tracing::warn!(
            staff = staff.username,
            method,
            age,
            "money or staff action without recent re-authentication"
        );
        return Err(Status::with_error_details(
            tonic::Code::PermissionDenied,
            format!("{method} needs a re-authentication within the last five minutes"),
            ErrorDetails::with_error_info(REAUTH_REQUIRED, "kid", []),
        ));
    }
    Ok(staff)
}

/// Client side: attaches a fresh token and the current trace context to every call.
#[derive(Clone)]
pub struct AttachInternalJwt {
    jwt: Arc<InternalJwt>,
    subject: Arc<str>,
}

impl AttachInternalJwt {
    pub fn new(jwt: Arc<InternalJwt>, subject: &str) -> Self {
        Self {
            jwt,
            subject: subject.into(),
        }
    }
}

impl Interceptor for AttachInternalJwt {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        let staff = request.extensions().get::<StaffActor>().cloned();
        let token = self
            .jwt
            .mint_acting(&self.subject, staff)
            .map_err(|error| Status::internal(format!("cannot mint internal token: {error}")))?;
        let value = MetadataValue::try_from(format!("Bearer {token}"))
            .map_err(|_| Status::internal("internal token is not a header value"))?;
        request.metadata_mut().insert("authorization", value);
        telemetry::inject_into_metadata(request.metadata_mut());
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_amount_or_the_piece_that_passes_the_threshold_needs_a_second_member() {
        assert!(!needs_second_member(200_000, 200_000, [0, 0]));
        assert!(needs_second_member(200_001, 200_000, [0, 0]));
        assert!(needs_second_member(-300_000, 200_000, [0, 0]), "a clawback too");
        // The piece that takes the asker's, or the player's, lately moved alone past it.
        assert!(!needs_second_member(50_000, 200_000, [150_000, 0]));
        assert!(needs_second_member(50_001, 200_000, [150_000, 0]));
        assert!(needs_second_member(50_001, 200_000, [0, 150_000]));
    }

    /// A caller's key pair, as the settings take it.
    #[derive(Clone)]
    struct Pair {
        private: SecretString,
        public: String,
    }

    fn pair() -> Pair {
        let (private, public) = generate_key_pair();
        Pair { private, public }
    }

    fn empty_settings() -> JwtSettings {
        JwtSettings {
            signing_keys: BTreeMap::new(),
            public_keys: BTreeMap::new(),
            previous_public_keys: BTreeMap::new(),
            issuer: "kid-gateway".into(),
            audience: "kid-services".into(),
            ttl_seconds: 60,
        }
    }

    /// Settings signing as each of `signs` and verifying each of `verifies`.
    fn settings(signs: &[(&str, &Pair)], verifies: &[(&str, &Pair)]) -> JwtSettings {
        let mut settings = empty_settings();
        for (caller, pair) in signs {
            settings
                .signing_keys
                .insert((*caller).to_owned(), pair.private.clone());
        }
        for (caller, pair) in verifies {
            settings
                .public_keys
                .insert((*caller).to_owned(), pair.public.clone());
        }
        settings
    }

    fn jwt(signs: &[(&str, &Pair)], verifies: &[(&str, &Pair)]) -> InternalJwt {
        InternalJwt::new(&settings(signs, verifies)).expect("keys")
    }

    #[test]
    fn a_minted_token_verifies_with_its_callers_public_key_only() {
        let (gateway_pair, payment_pair) = (pair(), pair());
        let wallet = jwt(&[], &[(GATEWAY, &gateway_pair), (PAYMENT, &payment_pair)]);
        let gateway = jwt(&[(GATEWAY, &gateway_pair)], &[]);
        let token = gateway.mint(GATEWAY).expect("mint");
        assert_eq!(wallet.verify(&token).expect("verify").sub, GATEWAY);
        // The wallet verifies payment's calls, yet holds nothing that signs them.
        assert!(matches!(wallet.mint(PAYMENT), Err(TokenError::CannotSignAs(_))));
        assert!(matches!(gateway.mint(PAYMENT), Err(TokenError::CannotSignAs(_))));
        // Signing with its own private key while naming payment: refused by payment's public key.
        let forger = jwt(&[(PAYMENT, &gateway_pair)], &[]);
        assert!(wallet.verify(&forger.mint(PAYMENT).expect("mint")).is_err());
    }

    /// The classic confusion: an HS256 token whose secret is the caller's public key (which
    /// every service it calls holds) is refused, as is an unsigned one.
    #[test]
    fn a_token_signed_with_a_public_key_as_its_hmac_secret_or_unsigned_is_refused() {
        let payment_pair = pair();
        let wallet = jwt(&[], &[(PAYMENT, &payment_pair)]);
        let claims = InternalClaims::new(
            "kid-gateway",
            "kid-services",
            PAYMENT,
            Duration::from_secs(60),
            None,
        );
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(PAYMENT.into());
        let secret = EncodingKey::from_secret(payment_pair.public.as_bytes());
        let forged = jsonwebtoken::encode(&header, &claims, &secret).expect("encode");
        assert!(wallet.verify(&forged).is_err());
        let genuine = jwt(&[(PAYMENT, &payment_pair)], &[]).mint(PAYMENT).expect("mint");
        let unsigned = format!(
            "{}.{}.",
            base64_url(r#"{"alg":"none","kid":"payment"}"#),
            genuine.split('.').nth(1).expect("claims")
        );
        assert!(wallet.verify(&unsigned).is_err());
        assert!(wallet.verify(&genuine).is_ok());
    }

    fn base64_url(text: &str) -> String {
        use base64::Engine;
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(text)
    }

    #[test]
    fn a_token_naming_another_subject_than_its_key_is_refused() {
        let gateway_pair = pair();
        let verifier = jwt(&[], &[(GATEWAY, &gateway_pair)]);
        let claims = InternalClaims::new(
            "kid-gateway",
            "kid-services",
            PAYMENT,
            Duration::from_secs(60),
            None,
        );
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(GATEWAY.into());
        let key = signing_key(GATEWAY, gateway_pair.private.expose_secret()).expect("key");
        let token = jsonwebtoken::encode(&header, &claims, &key).expect("encode");
        assert!(matches!(
            verifier.verify(&token),
            Err(TokenError::SubjectMismatch)
        ));
    }

    #[test]
    fn during_a_rotation_either_public_key_verifies_and_only_the_new_private_key_signs() {
        let (old, new, stranger) = (pair(), pair(), pair());
        let before = jwt(&[(GATEWAY, &old)], &[(GATEWAY, &old)]);
        let mut rotating = settings(&[(GATEWAY, &new)], &[(GATEWAY, &new)]);
        rotating
            .previous_public_keys
            .insert(GATEWAY.into(), old.public.clone());
        let rotating = InternalJwt::new(&rotating).expect("keys");
        // A pod still signing with the old key is accepted by one already rotated…
        let from_old = before.mint(GATEWAY).expect("mint");
        assert_eq!(rotating.verify(&from_old).expect("accepted").sub, GATEWAY);
        // …which signs with the new one, and a third key is still refused.
        let from_rotating = rotating.mint(GATEWAY).expect("mint");
        assert!(before.verify(&from_rotating).is_err());
        let stranger = jwt(&[(GATEWAY, &stranger)], &[]);
        assert!(rotating.verify(&stranger.mint(GATEWAY).expect("mint")).is_err());
        // A foreign-audience token is not retried with the other key.
        let mut elsewhere = settings(&[(GATEWAY, &old)], &[]);
        elsewhere.audience = "someone-else".into();
        let foreign = InternalJwt::new(&elsewhere)
            .expect("keys")
            .mint(GATEWAY)
            .expect("mint");
        assert!(rotating.verify(&foreign).is_err());
    }

    #[test]
    fn a_key_that_is_not_ed25519_stops_the_binary() {
        let mine = pair();
        let mut garbled = settings(&[], &[]);
        garbled
            .public_keys
            .insert(GATEWAY.into(), "dev-internal-key-gateway".into());
        assert!(matches!(
            InternalJwt::new(&garbled),
            Err(KeyError {
                setting: "public_keys",
                ..
            })
        ));
        let mut garbled = settings(&[], &[]);
        garbled
            .signing_keys
            .insert(GATEWAY.into(), SecretString::from(mine.public.as_str()));
        assert!(matches!(
            InternalJwt::new(&garbled),
            Err(KeyError {
                setting: "signing_keys",
                ..
            })
        ));
        // The development defaults are pairs.
        let development = crate::Settings::development().expect("defaults");
        let jwt = InternalJwt::new(&development.jwt).expect("development keys");
        for caller in [GATEWAY, PAYMENT, RECHARGE, OPERATOR] {
            let token = jwt.mint(caller).expect("mint");
            assert_eq!(jwt.verify(&token).expect("verify").sub, caller);
        }
    }

    fn staff(role: StaffRole, reauthenticated_at: i64) -> StaffActor {
        StaffActor {
            id: uuid::Uuid::nil(),
            username: "staff".into(),
            role,
            reauthenticated_at,
            ip: "10.0.0.1".into(),
        }
    }

    fn request_with(claims: InternalClaims) -> Request<()> {
        let mut request = Request::new(());
        request.extensions_mut().insert(claims);
        request
    }

    #[test]
    fn only_the_gateway_acts_for_staff() {
        let (gateway_pair, payment_pair) = (pair(), pair());
        let both = [(GATEWAY, &gateway_pair), (PAYMENT, &payment_pair)];
        let jwt = jwt(&both, &both);
        let from_payment = jwt
            .mint_acting(PAYMENT, Some(staff(StaffRole::Admin, 0)))
            .expect("mint");
        assert!(matches!(
            jwt.verify(&from_payment),
            Err(TokenError::StaffFromElsewhere)
        ));
        let from_gateway = jwt
            .mint_acting(GATEWAY, Some(staff(StaffRole::Viewer, 0)))
            .expect("mint");
        let claims = jwt.verify(&from_gateway).expect("verified");
        assert_eq!(
            claims.staff.as_ref().map(|staff| staff.role),
            Some(StaffRole::Viewer)
        );
        let request = request_with(claims);
        assert!(staff_actor(&request, "Read", &StaffRole::ALL).is_ok());
        let refused = staff_actor(&request, "Match", &[StaffRole::Finance]).expect_err("viewer");
        assert_eq!(refused.code(), tonic::Code::PermissionDenied);
        let without = request_with(jwt.verify(&jwt.mint(GATEWAY).expect("mint")).expect("verified"));
        assert!(staff_actor(&without, "Read", &StaffRole::ALL).is_err());
    }

    #[test]
    fn money_needs_a_reauthentication_within_five_minutes() {
        use tonic_types::StatusExt;
        let gateway_pair = pair();
        let jwt = jwt(&[(GATEWAY, &gateway_pair)], &[(GATEWAY, &gateway_pair)]);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock")
            .as_secs() as i64;
        let at = |reauthenticated_at| {
            let token = jwt
                .mint_acting(GATEWAY, Some(staff(StaffRole::Finance, reauthenticated_at)))
                .expect("mint");
            request_with(jwt.verify(&token).expect("verified"))
        };
        assert!(staff_reauthenticated(&at(now - 10), "Match", &[StaffRole::Finance]).is_ok());
        assert!(staff_reauthenticated(&at(now - 299), "Match", &[StaffRole::Finance]).is_ok());
        let stale = staff_reauthenticated(&at(now - 301), "Match", &[StaffRole::Finance]).expect_err("stale");
        assert_eq!(stale.code(), tonic::Code::PermissionDenied);
        assert_eq!(
            stale.get_details_error_info().expect("reason").reason,
            REAUTH_REQUIRED
        );
        assert!(
            staff_reauthenticated(&at(now + 600), "Match", &[StaffRole::Finance]).is_err(),
            "from the future"
        );
    }

    #[test]
    fn a_token_for_another_audience_is_refused() {
        let shared = pair();
        let ours = jwt(&[], &[(GATEWAY, &shared)]);
        let mut other = settings(&[(GATEWAY, &shared)], &[]);
        other.audience = "someone-else".into();
        let token = InternalJwt::new(&other)
            .expect("keys")
            .mint(GATEWAY)
            .expect("mint");
        assert!(ours.verify(&token).is_err());
    }
}
