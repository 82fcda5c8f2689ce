//! Settings layered from the development defaults (`defaults.toml`) and `KID_…__…` variables.

use std::time::Duration;

use figment::{
    Figment,
    providers::{Env, Format, Toml},
};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

const DEFAULTS: &str = include_str!("defaults.toml");
const DEV_JWT_SECRET: &str = "dev-internal-jwt-secret-change-me";
const DEV_WEBHOOK_SECRET: &str = "dev-bank-secret";

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    Development,
    Production,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    pub environment: Environment,
    pub database: DatabaseSettings,
    pub redis: RedisSettings,
    pub amqp: AmqpSettings,
    pub jwt: JwtSettings,
    pub grpc: ListenSettings,
    pub metrics: MetricsSettings,
    pub outbox: OutboxSettings,
    pub services: ServiceEndpoints,
    pub gateway: GatewaySettings,
    pub captcha: CaptchaSettings,
    pub mail: MailSettings,
    pub payment: PaymentSettings,
    pub recharge: RechargeSettings,
}

/// Coin recharge orders and their delivery to game teams.
#[derive(Debug, Clone, Deserialize)]
pub struct RechargeSettings {
    /// How long a game has to answer an order before the KP is refunded.
    pub delivery_deadline_ms: u64,
    /// How often each replica looks for overdue orders and for payments to finish.
    pub sweep_interval_ms: u64,
    /// An order still paying this long after it was placed (the wallet did not answer) is
    /// driven again: the debit is idempotent, so it is taken at most once.
    pub redrive_after_ms: u64,
    /// Development launcher only: run the reference game consumer.
    pub reference_game: bool,
}

impl RechargeSettings {
    pub fn delivery_deadline(&self) -> Duration {
        Duration::from_millis(self.delivery_deadline_ms)
    }

    pub fn sweep_interval(&self) -> Duration {
        Duration::from_millis(self.sweep_interval_ms)
    }

    pub fn redrive_after(&self) -> Duration {
        Duration::from_millis(self.redrive_after_ms)
    }
}

/// The payment service's outside parties.
#[derive(Debug, Clone, Deserialize)]
pub struct PaymentSettings {
    /// Shared secret of the bank feed's webhook signature.
    pub bank_feed_secret: SecretString,
    /// Shared secret with the card aggregator: our orders and its callbacks.
    pub card_secret: SecretString,
    /// Where card orders are sent.
    pub aggregator_url: String,
    /// Our merchant id at the aggregator.
    pub partner_id: String,
    /// Where the aggregator calls back: the gateway's card webhook.
    pub card_callback_url: String,
    pub aggregator_timeout_ms: u64,
    /// How long the development launcher's card simulator waits before calling back.
    pub simulator_delay_ms: u64,
}

impl PaymentSettings {
    pub fn aggregator_timeout(&self) -> Duration {
        Duration::from_millis(self.aggregator_timeout_ms)
    }

    pub fn simulator_delay(&self) -> Duration {
        Duration::from_millis(self.simulator_delay_ms)
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct MailSettings {
    /// The sender, e.g. `Kid <no-reply@kid.example>`.
    pub from: String,
    /// `smtps://user:password@host:465` or `smtp://…?tls=required`. Empty: the development
    /// mailbox, refused in production.
    pub smtp_url: SecretString,
    /// Where the development mailbox keeps each message as a JSON file.
    pub mailbox_dir: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CaptchaSettings {
    /// Empty: the development verifier, refused in production.
    pub secret: SecretString,
    pub min_score: f64,
    pub verify_url: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct DatabaseSettings {
    pub url: SecretString,
    pub max_connections: u32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RedisSettings {
    pub url: SecretString,
    /// Prefix of every key, so several deployments or test runs can share one Redis.
    pub key_prefix: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AmqpSettings {
    pub url: SecretString,
    /// The durable topic exchange every event is published to.
    pub exchange: String,
    /// Consumers' queues are deleted after this long unused; 0 (production) keeps them.
    #[serde(default)]
    pub queue_expires_ms: u64,
}

impl AmqpSettings {
    pub fn queue_expires(&self) -> Option<Duration> {
        (self.queue_expires_ms > 0).then(|| Duration::from_millis(self.queue_expires_ms))
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct JwtSettings {
    pub secret: SecretString,
    pub issuer: String,
    pub audience: String,
    pub ttl_seconds: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ListenSettings {
    pub host: String,
    pub port: u16,
}

impl ListenSettings {
    pub fn address(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct MetricsSettings {
    pub port: u16,
}

#[derive(Debug, Clone, Deserialize)]
pub struct OutboxSettings {
    pub batch_size: i64,
    pub poll_interval_ms: u64,
}

impl OutboxSettings {
    pub fn poll_interval(&self) -> Duration {
        Duration::from_millis(self.poll_interval_ms)
    }
}

#[derive(Debug, Clone, Deserialize)]
pub struct ServiceEndpoints {
    pub identity: String,
    pub wallet: String,
    pub payment: String,
    pub recharge: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct GatewaySettings {
    pub host: String,
    pub port: u16,
    /// The origin players reach the portal at; links in mail and the Origin check use it.
    pub public_url: String,
    /// The built SPA served at `/`.
    pub web_dist: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("invalid configuration: {0}")]
    Invalid(#[from] Box<figment::Error>),
    #[error("production refuses the development value of {0}")]
    DevelopmentSecret(&'static str),
}

impl Settings {
    /// Defaults, then the environment.
    pub fn load() -> Result<Self, ConfigError> {
        Self::from_figment(Figment::from(Toml::string(DEFAULTS)).merge(Env::prefixed("KID_").split("__")))
    }

    /// The defaults alone, for tests and tools that set what they need in code.
    pub fn development() -> Result<Self, ConfigError> {
        Self::from_figment(Figment::from(Toml::string(DEFAULTS)))
    }

    fn from_figment(figment: Figment) -> Result<Self, ConfigError> {
        let settings: Settings = figment.extract().map_err(Box::new)?;
        if settings.environment == Environment::Production
            && settings.jwt.secret.expose_secret() == DEV_JWT_SECRET
        {
            return Err(ConfigError::DevelopmentSecret("jwt.secret"));
        }
        if settings.environment == Environment::Production
            && settings.captcha.secret.expose_secret().is_empty()
        {
            return Err(ConfigError::DevelopmentSecret("captcha.secret"));
        }
        if settings.environment == Environment::Production
            && settings.mail.smtp_url.expose_secret().is_empty()
        {
            return Err(ConfigError::DevelopmentSecret("mail.smtp_url"));
        }
        if settings.environment == Environment::Production
            && settings.payment.bank_feed_secret.expose_secret() == DEV_WEBHOOK_SECRET
        {
            return Err(ConfigError::DevelopmentSecret("payment.bank_feed_secret"));
        }
        if settings.environment == Environment::Production
            && settings.payment.card_secret.expose_secret() == DEV_WEBHOOK_SECRET
        {
            return Err(ConfigError::DevelopmentSecret("payment.card_secret"));
        }
        Ok(settings)
    }

    pub fn is_development(&self) -> bool {
        self.environment == Environment::Development
    }
}

#[cfg(test)]
#[allow(
    clippy::result_large_err,
    reason = "figment's Jail closures return its own large error"
)]
mod tests {
    use super::*;

    #[test]
    fn environment_variables_override_the_defaults() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("KID_GATEWAY__PORT", "9090");
            jail.set_env("KID_DATABASE__MAX_CONNECTIONS", "3");
            let settings = Settings::load().expect("settings");
            assert_eq!(settings.gateway.port, 9090);
            assert_eq!(settings.database.max_connections, 3);
            assert_eq!(settings.grpc.port, 50051);
            Ok(())
        });
    }

    #[test]
    fn production_refuses_the_development_jwt_secret() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("KID_ENVIRONMENT", "production");
            assert!(matches!(Settings::load(), Err(ConfigError::DevelopmentSecret(_))));
            jail.set_env("KID_JWT__SECRET", "a-real-secret-from-the-cluster");
            assert!(matches!(
                Settings::load(),
                Err(ConfigError::DevelopmentSecret("captcha.secret"))
            ));
            jail.set_env("KID_CAPTCHA__SECRET", "recaptcha-secret");
            assert!(matches!(
                Settings::load(),
                Err(ConfigError::DevelopmentSecret("mail.smtp_url"))
            ));
            jail.set_env("KID_MAIL__SMTP_URL", "smtps://kid:secret@smtp.example:465");
            assert!(matches!(
                Settings::load(),
                Err(ConfigError::DevelopmentSecret("payment.bank_feed_secret"))
            ));
            jail.set_env("KID_PAYMENT__BANK_FEED_SECRET", "feed-secret");
            assert!(matches!(
                Settings::load(),
                Err(ConfigError::DevelopmentSecret("payment.card_secret"))
            ));
            jail.set_env("KID_PAYMENT__CARD_SECRET", "card-secret");
            assert!(Settings::load().is_ok());
            Ok(())
        });
    }
}
