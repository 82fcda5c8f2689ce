//! The player's address, for per-IP throttles and the captcha check. Behind a proxy the TCP
//! peer is the proxy, so where the address comes from is configuration
//! (`gateway.client_ip_source`): `ConnectInfo` (the peer; development, or no proxy) or the
//! header the last proxy we own sets, e.g. `RightmostXForwardedFor` behind the Envoy Gateway.

use std::net::IpAddr;

use axum::{extract::FromRequestParts, http::request::Parts};
use axum_client_ip::{ClientIp, ClientIpSource};

use crate::error::ApiError;

/// Parses `gateway.client_ip_source`: a variant name of [`ClientIpSource`].
pub fn source(setting: &str) -> anyhow::Result<ClientIpSource> {
    setting.parse().map_err(|error| {
        anyhow::anyhow!("gateway.client_ip_source: {error} (ConnectInfo, RightmostXForwardedFor, XRealIp…)")
    })
}

/// The client's address from the configured source.
pub struct ClientAddress(pub IpAddr);

impl ClientAddress {
    /// As the throttles and the captcha verifier key it.
    pub fn text(&self) -> String {
        self.0.to_string()
    }
}

impl<S: Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match ClientIp::from_request_parts(parts, state).await {
            Ok(ClientIp(address)) => Ok(Self(address)),
            // The proxy did not set the header it is configured to: a deployment mistake, not
            // the player's; answered as JSON like every other error.
            Err(rejection) => Err(ApiError::Internal(format!("client address: {rejection}"))),
        }
    }
}
