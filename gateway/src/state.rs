//! What every handler shares: sessions, the service clients, and what readiness checks.

use std::{str::FromStr, sync::Arc};

use anyhow::Context;
use kid_contracts::{
    identity::v1::identity_service_client::IdentityServiceClient,
    payment::v1::payment_service_client::PaymentServiceClient,
    recharge::v1::recharge_service_client::RechargeServiceClient,
    staff::v1::staff_audit_service_client::StaffAuditServiceClient,
    wallet::v1::wallet_service_client::WalletServiceClient,
};
use kid_platform::{
    Settings,
    auth::{AttachInternalJwt, InternalJwt},
    config::Environment,
    grpc,
};
use secrecy::{ExposeSecret, SecretString};
use sqlx::{
    PgPool,
    postgres::{PgConnectOptions, PgPoolOptions},
};
use tonic::{service::interceptor::InterceptedService, transport::Channel};

use crate::{
    captcha::{self, CaptchaVerifier},
    csrf::AnonymousTokens,
    session::{Lifetimes, SessionStore},
    throttle::{AttemptThrottle, Cooldowns},
};

pub type Authorized = InterceptedService<Channel, AttachInternalJwt>;

#[derive(Clone)]
pub struct Clients {
    pub identity: IdentityServiceClient<Authorized>,
    pub wallet: WalletServiceClient<Authorized>,
    pub payment: PaymentServiceClient<Authorized>,
    pub recharge: RechargeServiceClient<Authorized>,
    /// Each service's staff audit log, by the service's name.
    pub audits: Vec<(&'static str, StaffAuditServiceClient<Authorized>)>,
}

/// What `/readyz` asks of the gateway's dependencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readiness {
    /// The gateway alone in its pod (Kubernetes): ready when Redis, which holds every session,
    /// answers. A service that is down fails its own calls with a JSON 503 and its own
    /// readiness; it must not take every gateway pod out of the Gateway's routes with it.
    Edge,
    /// The whole portal in one process (the development launcher): ready when PostgreSQL,
    /// Redis, RabbitMQ and every service answer, so scripts can wait for all of it.
    WholePortal,
}

/// What `/readyz` asks.
#[derive(Clone)]
pub struct Dependencies {
    pub stores: Option<Stores>,
    pub services: Vec<(&'static str, Channel)>,
}

#[derive(Clone)]
pub struct Stores {
    pub postgres: PgPool,
    pub amqp_url: SecretString,
}

#[derive(Clone)]
pub struct AppState {
    pub sessions: SessionStore,
    /// The support console's sessions (their own cookie and keys).
    pub staff_sessions: SessionStore,
    pub throttle: AttemptThrottle,
    pub cooldowns: Cooldowns,
    pub captcha: Arc<dyn CaptchaVerifier>,
    /// Signs anonymous callers' XSRF tokens.
    pub anonymous_tokens: AnonymousTokens,
    pub clients: Clients,
    pub dependencies: Arc<Dependencies>,
    /// `scheme://host[:port]` of the portal, and of its passkeys when that differs: the Origin
    /// check admits these.
    pub origins: Vec<String>,
    /// The development mailbox, listed at `/api/dev/mailbox`; `None` outside development.
    pub mailbox_dir: Option<std::path::PathBuf>,
    /// Where the player's address comes from (the peer, or a proxy's header).
    pub client_ip_source: axum_client_ip::ClientIpSource,
}

/// What the `SignedIn` extractor needs of the state.
impl axum::extract::FromRef<AppState> for SessionStore {
    fn from_ref(state: &AppState) -> Self {
        state.sessions.clone()
    }
}

/// Each service's client, ready for a call: a tonic client is cheap to clone and wants
/// `&mut self`, so every call takes its own copy.
impl AppState {
    pub fn identity(&self) -> IdentityServiceClient<Authorized> {
        self.clients.identity.clone()
    }

    pub fn wallet(&self) -> WalletServiceClient<Authorized> {
        self.clients.wallet.clone()
    }

    pub fn payment(&self) -> PaymentServiceClient<Authorized> {
        self.clients.payment.clone()
    }

    pub fn recharge(&self) -> RechargeServiceClient<Authorized> {
        self.clients.recharge.clone()
    }

    /// Identity's staff audit log: where actions done in the gateway itself are recorded.
    pub fn identity_audit(&self) -> StaffAuditServiceClient<Authorized> {
        self.clients.audits[0].1.clone()
    }
}

impl AppState {
    pub async fn new(settings: &Settings, readiness: Readiness) -> anyhow::Result<Self> {
        let redis = redis::Client::open(settings.redis.url.expose_secret())
            .context("redis url")?
            .get_connection_manager()
            .await
            .context("connecting to Redis")?;
        let secure_cookies = settings.environment == Environment::Production;
        let throttle = AttemptThrottle::new(redis.clone(), &settings.redis.key_prefix);
        let cooldowns = Cooldowns::new(redis.clone(), &settings.redis.key_prefix);
        let staff_sessions = SessionStore::for_staff(
            redis.clone(),
            &settings.redis.key_prefix,
            secure_cookies,
            Lifetimes::for_staff(&settings.gateway),
        );
        let sessions = SessionStore::new(
            redis,
            &settings.redis.key_prefix,
            secure_cookies,
            Lifetimes::from_settings(&settings.gateway),
        );
        let captcha = captcha::from_settings(&settings.captcha)?;

        let jwt = Arc::new(InternalJwt::new(&settings.jwt).context("the internal-call keys")?);
        let attach = AttachInternalJwt::new(jwt, kid_platform::auth::GATEWAY);
        let endpoints = &settings.services;
        let identity = grpc::lazy_channel(&endpoints.identity).context("identity endpoint")?;
        let wallet = grpc::lazy_channel(&endpoints.wallet).context("wallet endpoint")?;
        let payment = grpc::lazy_channel(&endpoints.payment).context("payment endpoint")?;
        let recharge = grpc::lazy_channel(&endpoints.recharge).context("recharge endpoint")?;
        let audit =
            |channel: &Channel| StaffAuditServiceClient::with_interceptor(channel.clone(), attach.clone());
        let audits = vec![
            ("identity", audit(&identity)),
            ("wallet", audit(&wallet)),
            ("payment", audit(&payment)),
            ("recharge", audit(&recharge)),
        ];
        let clients = Clients {
            // A ticket's image (5 MB at most) travels in one message either way.
            identity: IdentityServiceClient::with_interceptor(identity.clone(), attach.clone())
                .max_decoding_message_size(kid_contracts::MAX_IMAGE_MESSAGE_BYTES)
                .max_encoding_message_size(kid_contracts::MAX_IMAGE_MESSAGE_BYTES),
            wallet: WalletServiceClient::with_interceptor(wallet.clone(), attach.clone()),
            payment: PaymentServiceClient::with_interceptor(payment.clone(), attach.clone()),
            recharge: RechargeServiceClient::with_interceptor(recharge.clone(), attach),
            audits,
        };

        let stores = if readiness == Readiness::WholePortal {
            Some(Stores {
                postgres: PgPoolOptions::new()
                    .max_connections(1)
                    .acquire_timeout(std::time::Duration::from_secs(2))
                    .connect_lazy_with(
                        PgConnectOptions::from_str(settings.database.url.expose_secret())
                            .context("database url")?,
                    ),
                amqp_url: settings.amqp.url.clone(),
            })
        } else {
            None
        };
        let services = match readiness {
            Readiness::Edge => Vec::new(),
            Readiness::WholePortal => vec![
                ("identity", identity),
                ("wallet", wallet),
                ("payment", payment),
                ("recharge", recharge),
            ],
        };
        let dependencies = Arc::new(Dependencies { stores, services });
        Ok(Self {
            sessions,
            staff_sessions,
            throttle,
            cooldowns,
            captcha,
            anonymous_tokens: AnonymousTokens::derived_from(
                settings
                    .jwt
                    .signing_keys
                    .get(kid_platform::auth::GATEWAY)
                    .map_or(&[][..], |key| key.expose_secret().as_bytes()),
            ),
            clients,
            dependencies,
            origins: vec![
                settings.gateway.public_url.trim_end_matches('/').to_owned(),
                settings.gateway.passkey_origin(),
            ],
            mailbox_dir: (settings.is_development() && settings.mail.smtp_url.expose_secret().is_empty())
                .then(|| std::path::PathBuf::from(&settings.mail.mailbox_dir)),
            client_ip_source: crate::client_address::source(&settings.gateway.client_ip_source)?,
        })
    }
}
