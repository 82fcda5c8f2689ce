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

/// Mints and verifies internal tokens with one shared secret.
pub struct InternalJwt {
    encoding: EncodingKey,
    decoding: DecodingKey,
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

    pub fn verify(&self, token: &str) -> Result<InternalClaims, TokenError> {
        Ok(jsonwebtoken::decode::<InternalClaims>(token, &self.decoding, &self.validation)?.claims)
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
    fn a_token_for_another_audience_is_refused() {
        let ours = InternalJwt::new(&settings("shared"));
        let mut other = settings("shared");
        other.audience = "someone-else".into();
        let token = InternalJwt::new(&other).mint("gateway").expect("mint");
        assert!(ours.verify(&token).is_err());
    }
}
