//! Internal JWTs: each caller (the gateway, payment, recharge, operator tooling) signs its
//! gRPC calls with its own key and names itself in the token's `kid` header; a service verifies
//! a call with the key of the caller the token names (or that caller's previous key during a
//! rotation), so the principal is the key that verified, not a claim anyone could write. Each
//! binary holds only the keys it signs or verifies with: the internet-facing gateway holds its
//! own and cannot mint a token the wallet would take for payment's. Services then decide per
//! method which callers may call it ([`authorize`]).

use std::{
    collections::BTreeMap,
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use secrecy::ExposeSecret;
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
}

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("internal token rejected: {0}")]
    Invalid(#[from] jsonwebtoken::errors::Error),
    #[error("no key for caller {0:?}")]
    UnknownCaller(String),
    #[error("the token's subject is not the caller whose key signed it")]
    SubjectMismatch,
}

/// One caller's keys: the current one signs, either verifies.
struct CallerKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    previous: Option<DecodingKey>,
}

/// Mints internal tokens with the caller's own key and verifies them with the key of the
/// caller they name.
pub struct InternalJwt {
    keys: BTreeMap<String, CallerKeys>,
    validation: Validation,
    issuer: String,
    audience: String,
    ttl: Duration,
}

impl InternalJwt {
    pub fn new(settings: &JwtSettings) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[&settings.issuer]);
        validation.set_audience(&[&settings.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        let keys = settings
            .keys
            .iter()
            .filter(|(_, key)| !key.expose_secret().is_empty())
            .map(|(caller, key)| {
                let key = key.expose_secret().as_bytes();
                let previous = settings
                    .previous_keys
                    .get(caller)
                    .map(|previous| previous.expose_secret().as_bytes())
                    .filter(|previous| !previous.is_empty())
                    .map(DecodingKey::from_secret);
                let keys = CallerKeys {
                    encoding: EncodingKey::from_secret(key),
                    decoding: DecodingKey::from_secret(key),
                    previous,
                };
                (caller.clone(), keys)
            })
            .collect();
        Self {
            keys,
            validation,
            issuer: settings.issuer.clone(),
            audience: settings.audience.clone(),
            ttl: Duration::from_secs(settings.ttl_seconds),
        }
    }

    /// A token for `caller`, signed with its key (which this binary must hold).
    pub fn mint(&self, caller: &str) -> Result<String, TokenError> {
        let keys = self
            .keys
            .get(caller)
            .ok_or_else(|| TokenError::UnknownCaller(caller.to_owned()))?;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let claims = InternalClaims {
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            sub: caller.to_owned(),
            iat: now,
            exp: now + self.ttl.as_secs(),
        };
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(caller.to_owned());
        Ok(jsonwebtoken::encode(&header, &claims, &keys.encoding)?)
    }

    /// Verifies with the key of the caller the token names, or that caller's previous key
    /// (a pod not yet rotated); the subject must be that caller.
    pub fn verify(&self, token: &str) -> Result<InternalClaims, TokenError> {
        let caller = jsonwebtoken::decode_header(token)?.kid.unwrap_or_default();
        let keys = self
            .keys
            .get(&caller)
            .ok_or_else(|| TokenError::UnknownCaller(caller.clone()))?;
        let claims = match jsonwebtoken::decode::<InternalClaims>(token, &keys.decoding, &self.validation) {
            Ok(data) => data.claims,
            Err(error) if *error.kind() == jsonwebtoken::errors::ErrorKind::InvalidSignature => {
                let Some(previous) = &keys.previous else {
                    return Err(error.into());
                };
                jsonwebtoken::decode::<InternalClaims>(token, previous, &self.validation)?.claims
            }
            Err(error) => return Err(error.into()),
        };
        if claims.sub != caller {
            return Err(TokenError::SubjectMismatch);
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
        let token = self
            .jwt
            .mint(&self.subject)
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
    use secrecy::SecretString;

    use super::*;

    fn settings(keys: &[(&str, &str)]) -> JwtSettings {
        JwtSettings {
            keys: keys
                .iter()
                .map(|(caller, key)| ((*caller).to_owned(), SecretString::from(*key)))
                .collect(),
            previous_keys: BTreeMap::new(),
            issuer: "kid-gateway".into(),
            audience: "kid-services".into(),
            ttl_seconds: 60,
        }
    }

    #[test]
    fn a_minted_token_verifies_with_its_callers_key_only() {
        let wallet = InternalJwt::new(&settings(&[(GATEWAY, "g"), (PAYMENT, "p")]));
        let gateway = InternalJwt::new(&settings(&[(GATEWAY, "g")]));
        let token = gateway.mint(GATEWAY).expect("mint");
        assert_eq!(wallet.verify(&token).expect("verify").sub, GATEWAY);
        // The gateway holds no key of payment's, so it cannot sign as payment.
        assert!(matches!(gateway.mint(PAYMENT), Err(TokenError::UnknownCaller(_))));
        // Signing its own key while naming payment verifies with payment's key: refused.
        let forger = InternalJwt::new(&settings(&[(PAYMENT, "g")]));
        assert!(wallet.verify(&forger.mint(PAYMENT).expect("mint")).is_err());
    }

    #[test]
    fn a_token_naming_another_subject_than_its_key_is_refused() {
        let keys = settings(&[(GATEWAY, "g"), (PAYMENT, "p")]);
        let jwt = InternalJwt::new(&keys);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock")
            .as_secs();
        let claims = InternalClaims {
            iss: "kid-gateway".into(),
            aud: "kid-services".into(),
            sub: PAYMENT.into(),
            iat: now,
            exp: now + 60,
        };
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(GATEWAY.into());
        let token = jsonwebtoken::encode(&header, &claims, &EncodingKey::from_secret(b"g")).expect("encode");
        assert!(matches!(jwt.verify(&token), Err(TokenError::SubjectMismatch)));
    }

    #[test]
    fn during_a_rotation_either_key_verifies_and_only_the_current_one_signs() {
        let old = InternalJwt::new(&settings(&[(GATEWAY, "old")]));
        let mut rotating = settings(&[(GATEWAY, "new")]);
        rotating
            .previous_keys
            .insert(GATEWAY.into(), SecretString::from("old"));
        let rotating = InternalJwt::new(&rotating);
        let stranger = InternalJwt::new(&settings(&[(GATEWAY, "stranger")]));
        // A pod still signing with the old key is accepted by one already rotated…
        let from_old = old.mint(GATEWAY).expect("mint");
        assert_eq!(rotating.verify(&from_old).expect("accepted").sub, GATEWAY);
        // …which signs with the new one, and a third key is still refused.
        let from_rotating = rotating.mint(GATEWAY).expect("mint");
        assert!(old.verify(&from_rotating).is_err());
        assert!(rotating.verify(&stranger.mint(GATEWAY).expect("mint")).is_err());
        // A foreign-audience token is not retried with the other key.
        let mut elsewhere = settings(&[(GATEWAY, "old")]);
        elsewhere.audience = "someone-else".into();
        let foreign = InternalJwt::new(&elsewhere).mint(GATEWAY).expect("mint");
        assert!(rotating.verify(&foreign).is_err());
    }

    #[test]
    fn a_token_for_another_audience_is_refused() {
        let ours = InternalJwt::new(&settings(&[(GATEWAY, "shared")]));
        let mut other = settings(&[(GATEWAY, "shared")]);
        other.audience = "someone-else".into();
        let token = InternalJwt::new(&other).mint(GATEWAY).expect("mint");
        assert!(ours.verify(&token).is_err());
    }
}
