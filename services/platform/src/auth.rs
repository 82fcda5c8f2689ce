//! The internal JWT: the gateway mints a short-lived HS256 token for each gRPC call, and every
//! service refuses a call whose token is missing, forged, expired or meant for someone else.

use std::{
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use secrecy::ExposeSecret;
use serde::{Deserialize, Serialize};
use tonic::{Request, Status, metadata::MetadataValue, service::Interceptor};

use crate::{config::JwtSettings, telemetry};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct InternalClaims {
    pub iss: String,
    pub aud: String,
    /// The calling component, e.g. `gateway`.
    pub sub: String,
    pub iat: u64,
    pub exp: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("internal token rejected: {0}")]
    Invalid(#[from] jsonwebtoken::errors::Error),
}

/// Mints internal tokens with the shared secret, and verifies them with it or with the one
/// other secret also accepted during a rotation.
pub struct InternalJwt {
    encoding: EncodingKey,
    decoding: DecodingKey,
    also_accepted: Option<DecodingKey>,
    validation: Validation,
    issuer: String,
    audience: String,
    ttl: Duration,
}

impl InternalJwt {
    pub fn new(settings: &JwtSettings) -> Self {
        let secret = settings.secret.expose_secret().as_bytes();
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[&settings.issuer]);
        validation.set_audience(&[&settings.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        Self {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            also_accepted: Some(settings.also_accepted_secret.expose_secret())
                .filter(|other| !other.is_empty())
                .map(|other| DecodingKey::from_secret(other.as_bytes())),
            validation,
            issuer: settings.issuer.clone(),
            audience: settings.audience.clone(),
            ttl: Duration::from_secs(settings.ttl_seconds),
        }
    }

    pub fn mint(&self, subject: &str) -> Result<String, TokenError> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let claims = InternalClaims {
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            sub: subject.to_owned(),
            iat: now,
            exp: now + self.ttl.as_secs(),
        };
        Ok(jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &self.encoding,
        )?)
    }

    /// Verifies with the secret, or, for a token signed with another key, the secret also
    /// accepted (the one being rotated in or out).
    pub fn verify(&self, token: &str) -> Result<InternalClaims, TokenError> {
        match jsonwebtoken::decode::<InternalClaims>(token, &self.decoding, &self.validation) {
            Ok(data) => Ok(data.claims),
            Err(error) if *error.kind() == jsonwebtoken::errors::ErrorKind::InvalidSignature => {
                let Some(other) = &self.also_accepted else {
                    return Err(error.into());
                };
                Ok(jsonwebtoken::decode::<InternalClaims>(token, other, &self.validation)?.claims)
            }
            Err(error) => Err(error.into()),
        }
    }
}

/// Server side: admits a call only with a valid `authorization: Bearer <jwt>`; the verified
/// claims are put in the request's extensions.
#[derive(Clone)]
pub struct RequireInternalJwt(Arc<InternalJwt>);

impl RequireInternalJwt {
    pub fn new(jwt: Arc<InternalJwt>) -> Self {
        Self(jwt)
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
        let claims = self.0.verify(token).map_err(|error| {
            tracing::warn!(error = %error, "internal token rejected");
            Status::unauthenticated("invalid internal token")
        })?;
        request.extensions_mut().insert(claims);
        Ok(request)
    }
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

    fn settings(secret: &str) -> JwtSettings {
        JwtSettings {
            secret: SecretString::from(secret),
            also_accepted_secret: SecretString::from(""),
            issuer: "kid-gateway".into(),
            audience: "kid-services".into(),
            ttl_seconds: 60,
        }
    }

    #[test]
    fn a_minted_token_verifies_with_the_same_secret_only() {
        let ours = InternalJwt::new(&settings("ours"));
        let theirs = InternalJwt::new(&settings("theirs"));
        let token = ours.mint("gateway").expect("mint");
        assert_eq!(ours.verify(&token).expect("verify").sub, "gateway");
        assert!(theirs.verify(&token).is_err());
    }

    #[test]
    fn during_a_rotation_either_secret_verifies_and_only_the_current_one_signs() {
        let old = InternalJwt::new(&settings("old"));
        let mut rotating = settings("new");
        rotating.also_accepted_secret = SecretString::from("old");
        let rotating = InternalJwt::new(&rotating);
        let stranger = InternalJwt::new(&settings("stranger"));
        // A pod still signing with the old secret is accepted by one already rotated…
        let from_old = old.mint("gateway").expect("mint");
        assert_eq!(rotating.verify(&from_old).expect("accepted").sub, "gateway");
        // …which signs with the new one, and a third secret is still refused.
        let from_rotating = rotating.mint("recharge").expect("mint");
        assert!(old.verify(&from_rotating).is_err());
        assert!(rotating.verify(&stranger.mint("x").expect("mint")).is_err());
        // An expired or foreign-audience token is not retried with the other secret.
        let mut elsewhere = settings("old");
        elsewhere.audience = "someone-else".into();
        let foreign = InternalJwt::new(&elsewhere).mint("gateway").expect("mint");
        assert!(rotating.verify(&foreign).is_err());
    }

    #[test]
    fn a_token_for_another_audience_is_refused() {
        let ours = InternalJwt::new(&settings("shared"));
        let mut other = settings("shared");
        other.audience = "someone-else".into();
        let token = InternalJwt::new(&other).mint("gateway").expect("mint");
        assert!(ours.verify(&token).is_err());
    }
}
