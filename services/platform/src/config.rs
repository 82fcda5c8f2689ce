//! Settings layered from the development defaults (`defaults.toml`) and `KID_…__…` variables.

use std::{collections::BTreeMap, time::Duration};

use figment::{
    Figment,
    providers::{Env, Format, Serialized, Toml},
    value::Value,
};
use secrecy::SecretString;
use serde::Deserialize;
use serde_with::{DurationMilliSeconds, serde_as};

const DEFAULTS: &str = include_str!("defaults.toml");

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
    pub identity: IdentitySettings,
    pub wallet: WalletSettings,
    pub testing: TestingSettings,
}

/// The wallet's rules that are settings.
#[derive(Debug, Clone, Deserialize)]
pub struct WalletSettings {
    /// A KP adjustment larger than this (either way) waits for a second finance member.
    pub adjustment_approval_kp: i64,
}

/// Players' accounts.
#[serde_as]
#[derive(Debug, Clone, Deserialize)]
pub struct IdentitySettings {
    /// The key that seals authenticator (TOTP) secrets at rest (AES-256-GCM under its SHA-256):
    /// a database dump without it gives no codes. Changing it voids every enrolment.
    pub totp_key: SecretString,
    /// How often closed accounts past their 30 days are looked for and erased.
    #[serde(rename = "erase_sweep_interval_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub erase_sweep_interval: Duration,
    /// Where images players attach to support tickets are kept (outside the database).
    pub attachment_dir: String,
    /// The one mail domain of staff addresses: an admin cannot send a new member's enrolment
    /// link to a mailbox of their own outside the organisation's. Empty (development), any.
    pub staff_email_domain: String,
}

/// Switches that break the portal on purpose, for the reliability suite (`scripts/chaos`) to
/// prove its checker catches what they break. Production refuses every one of them.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct TestingSettings {
    /// Consumers record each message in the inbox but handle a redelivered one again, as if
    /// the inbox had no dedupe.
    pub skip_inbox_dedupe: bool,
}

/// Coin recharge orders and their delivery to game teams. Durations are set in milliseconds.
#[serde_as]
#[derive(Debug, Clone, Deserialize)]
pub struct RechargeSettings {
    /// How long a game has to answer an order before the KP is refunded.
    #[serde(rename = "delivery_deadline_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub delivery_deadline: Duration,
    /// How often each replica looks for overdue orders and for payments to finish.
    #[serde(rename = "sweep_interval_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub sweep_interval: Duration,
    /// An order still paying this long after it was placed (the wallet did not answer) is
    /// driven again: the debit is idempotent, so it is taken at most once.
    #[serde(rename = "redrive_after_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub redrive_after: Duration,
    /// Development launcher only: run the reference game consumer.
    pub reference_game: bool,
    /// How long a game has to answer a character check (before any KP moves).
    #[serde(rename = "character_check_timeout_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub character_check_timeout: Duration,
    /// What an order does when the game has not answered its character check in time.
    pub character_check_unanswered: UnansweredCheck,
    /// The key of giftcodes' stored hashes (HMAC-SHA-256): without it the stored hashes
    /// neither give a code away nor let one be checked. Changing it voids every code.
    pub giftcode_pepper: SecretString,
}

/// An order whose game did not answer the character check in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnansweredCheck {
    /// Refused: the player is asked to try again (nothing moved).
    Refuse,
    /// Placed anyway: a game without the character answers the order failed and the KP is
    /// refunded, as for any failed delivery.
    Allow,
}

/// The bank feed's provider and how it proves its webhooks (docs/providers.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BankFeedScheme {
    /// SePay, `Authorization: Apikey <key>`.
    SepayApiKey,
    /// SePay, `X-SePay-Signature: sha256=<hex>` over `"<X-SePay-Timestamp>.<body>"`.
    SepayHmac,
    /// Casso's webhook v2, `X-Casso-Signature: t=<ms>,v1=<hex HMAC-SHA512>`.
    Casso,
}

/// How the card aggregator's `sign` is made: aggregators document one or the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardSignScheme {
    /// `md5(partner_key + code + command + partner_id + request_id + serial + telco)`.
    SortedValues,
    /// `md5(partner_key + code + serial)`.
    CodeSerial,
}

/// The payment service's outside parties. Durations are set in milliseconds.
#[serde_as]
#[derive(Debug, Clone, Deserialize)]
pub struct PaymentSettings {
    /// The bank feed's provider and scheme.
    pub bank_feed: BankFeedScheme,
    /// The bank feed's API key (SePay), or its secret key (SePay's HMAC, Casso's "Key bảo mật").
    pub bank_feed_secret: SecretString,
    /// The partner key at the card aggregator: it signs our requests and its callbacks.
    pub card_secret: SecretString,
    /// How the aggregator wants requests signed.
    pub card_sign: CardSignScheme,
    /// The aggregator's host: cards go to `{aggregator_url}/chargingws/v2`.
    pub aggregator_url: String,
    /// Our partner id at the aggregator.
    pub partner_id: String,
    /// The gateway's card webhook. A real aggregator holds it in its partner dashboard; the
    /// development launcher's simulator calls back here.
    pub card_callback_url: String,
    /// How long a card order may wait for the aggregator's answer.
    #[serde(rename = "aggregator_timeout_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub aggregator_timeout: Duration,
    /// A card still pending this long after it was sent (or last asked about) is asked about
    /// again with the charging API's `check`.
    #[serde(rename = "check_after_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub check_after: Duration,
    /// How often the payment service looks for such cards.
    #[serde(rename = "check_every_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub check_every: Duration,
    /// How long the development launcher's card simulator waits before calling back.
    #[serde(rename = "simulator_delay_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub simulator_delay: Duration,
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
    /// Whether a service migrates its schema at start or only checks it is current.
    pub migrate: MigrateMode,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum MigrateMode {
    /// Migrate at start (development: one process, nothing else would).
    Apply,
    /// Leave migrating to the migration Job; report not ready while the schema is behind.
    Verify,
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
    /// Each internal caller's private Ed25519 key (`gateway`, `payment`, `recharge`,
    /// `operator`; PKCS#8 PEM): a binary holds only that of the caller it is, and signs its
    /// calls with it. Empty: not held here.
    pub signing_keys: BTreeMap<String, SecretString>,
    /// Each caller's public key (SPKI PEM): a service holds those of the callers it serves and
    /// verifies their calls with them. No service can sign as another. Empty: not held here.
    pub public_keys: BTreeMap<String, String>,
    /// A caller's previous public key, also accepted when verifying: set during a rotation so
    /// calls signed with the old private key and the new one are both taken (empty: none).
    pub previous_public_keys: BTreeMap<String, String>,
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

#[serde_as]
#[derive(Debug, Clone, Deserialize)]
pub struct OutboxSettings {
    pub batch_size: i64,
    #[serde(rename = "poll_interval_ms")]
    #[serde_as(as = "DurationMilliSeconds<u64>")]
    pub poll_interval: Duration,
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
    /// Where the player's address comes from: `ConnectInfo` (the TCP peer) or the header the
    /// proxy in front sets (`RightmostXForwardedFor`, `XRealIp`, …: axum-client-ip's names).
    pub client_ip_source: String,
    /// A browser-session sign-in nobody uses ends after this many seconds.
    pub session_idle_seconds: u64,
    /// A browser-session sign-in ends this long after it started, however much it is used.
    pub session_lifetime_seconds: u64,
    /// A remember-me sign-in ends this long after it started.
    pub session_remember_seconds: u64,
    /// A console (staff) session nobody uses ends after this.
    pub staff_session_idle_seconds: u64,
    /// A console session ends this long after its sign-in, however much it is used.
    pub staff_session_lifetime_seconds: u64,
}

impl GatewaySettings {
    /// The origin passkeys belong to: the public origin, except that browsers refuse WebAuthn
    /// on an IP address, so a portal served at a loopback address (development, the tests)
    /// keeps its passkeys at `localhost` on the same port. The gateway accepts requests from
    /// both origins.
    pub fn passkey_origin(&self) -> String {
        let Ok(mut url) = url::Url::parse(&self.public_url) else {
            return self.public_url.trim_end_matches('/').to_owned();
        };
        let loopback = match url.host() {
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            _ => false,
        };
        if loopback {
            // A loopback IP becomes a domain: always possible for an http(s) URL.
            let _ = url.set_host(Some("localhost"));
        }
        url.origin().ascii_serialization()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("invalid configuration: {0}")]
    Invalid(#[from] Box<figment::Error>),
    #[error("production needs {}: set it, it has no production default", .0.join(", "))]
    Missing(Vec<String>),
    #[error("production refuses the development value of {0}")]
    DevelopmentSecret(String),
    #[error("production refuses the testing switch {0}, which breaks the portal on purpose")]
    TestingSwitch(&'static str),
}

/// What every gRPC service binary reads that production must be given.
pub const SERVICE_NEEDS: &[&str] = &[
    "environment",
    "database.url",
    "database.migrate",
    "amqp.url",
    "jwt.public_keys.gateway",
    "grpc.host",
    "grpc.port",
];

/// The internal callers, each with a key pair of its own.
const CALLERS: [&str; 4] = ["gateway", "payment", "recharge", "operator"];

/// Every secret a binary may hold (and every internal public key: the development key pairs are
/// published in this repository, so a binary verifying with a development public key would take
/// tokens anyone can sign), with the setting whose default is its development value. In
/// production a binary holds only those it needs, or may hold and is given (the others are
/// emptied, given or not: a key it does not use is a key a taken pod cannot use), and refuses
/// to start holding a development value.
fn development_values() -> Vec<(String, String)> {
    let mut values = Vec::new();
    for caller in CALLERS {
        for setting in ["signing_keys", "public_keys"] {
            let key = format!("jwt.{setting}.{caller}");
            values.push((key.clone(), key));
        }
        // A caller's previous key is a key too: never a development one.
        values.push((
            format!("jwt.previous_public_keys.{caller}"),
            format!("jwt.public_keys.{caller}"),
        ));
    }
    for key in [
        "captcha.secret",
        "mail.smtp_url",
        "payment.bank_feed_secret",
        "payment.card_secret",
        "recharge.giftcode_pepper",
        "identity.totp_key",
    ] {
        values.push((key.to_owned(), key.to_owned()));
    }
    values
}

/// The environment variable that sets `key` (`database.url` is `KID_DATABASE__URL`).
pub fn variable_name(key: &str) -> String {
    format!("KID_{}", key.replace('.', "__").to_uppercase())
}

/// Every key a setting can have, as dotted paths (`database.url`): the keys of the defaults.
pub fn known_keys() -> Vec<String> {
    fn walk(prefix: &str, value: &figment::value::Value, keys: &mut Vec<String>) {
        match value {
            figment::value::Value::Dict(_, table) => {
                for (name, value) in table {
                    let path = if prefix.is_empty() {
                        name.clone()
                    } else {
                        format!("{prefix}.{name}")
                    };
                    walk(&path, value, keys);
                }
            }
            _ => keys.push(prefix.to_owned()),
        }
    }
    let defaults: figment::value::Value = Figment::from(Toml::string(DEFAULTS))
        .extract()
        .expect("the embedded defaults are TOML");
    let mut keys = Vec::new();
    walk("", &defaults, &mut keys);
    keys
}

/// The `KID_<SECTION>__<KEY>` variables as settings. A key whose default is text keeps the
/// variable's text as it is: figment alone reads `12345`, `007` or `true` as a number or a
/// boolean, which a text setting (a partner id, an all-digit secret) would then refuse or alter.
fn environment() -> Figment {
    let defaults = Figment::from(Toml::string(DEFAULTS));
    Env::prefixed("KID_")
        .split("__")
        .iter()
        .fold(Figment::new(), |figment, (key, raw)| {
            let value = match defaults.find_value(key.as_str()) {
                Ok(Value::String(..)) => Value::from(raw.as_str()),
                _ => raw
                    .parse()
                    .unwrap_or_else(|never: std::convert::Infallible| match never {}),
            };
            figment.merge(Serialized::defaults(figment::util::nest(key.as_str(), value)))
        })
}

impl Settings {
    /// Defaults, then the environment, for a binary that reads the keys in `needs`: in
    /// production each of them must be set in the environment (a development default such as
    /// `127.0.0.1` is never right in a cluster), and none may keep a development secret. A
    /// binary fails closed: without `KID_ENVIRONMENT` it is production (and, as production
    /// needs `KID_ENVIRONMENT` named, refuses to start saying so).
    pub fn load_for(needs: &[&str]) -> Result<Self, ConfigError> {
        Self::load_as(needs, &[], "production")
    }

    /// [`Settings::load_for`], for a binary that may also hold the secrets in `may_hold` when
    /// given them (the public keys of callers it serves but does not need, a previous key while
    /// one rotates). Any other secret is emptied in production even when given: a key a binary
    /// does not use is a key a taken pod could use.
    pub fn load_holding(needs: &[&str], may_hold: &[String]) -> Result<Self, ConfigError> {
        Self::load_as(needs, may_hold, "production")
    }

    /// Defaults, then the environment, with no production check unless `KID_ENVIRONMENT` says
    /// production: for development tools (the launcher, the bank-feed command).
    pub fn load() -> Result<Self, ConfigError> {
        Self::load_as(&[], &[], "development")
    }

    fn load_as(needs: &[&str], may_hold: &[String], unset_environment: &str) -> Result<Self, ConfigError> {
        let given = environment();
        let mut merged = Figment::from(Toml::string(DEFAULTS))
            .merge(Serialized::default("environment", unset_environment))
            .merge(given.clone());
        let settings = Self::from_figment(merged.clone())?;
        if settings.environment == Environment::Development {
            return Ok(settings);
        }
        if settings.testing.skip_inbox_dedupe {
            return Err(ConfigError::TestingSwitch("testing.skip_inbox_dedupe"));
        }
        let missing: Vec<String> = needs
            .iter()
            .filter(|key| given.find_value(key).is_err())
            .map(|key| variable_name(key))
            .collect();
        if !missing.is_empty() {
            return Err(ConfigError::Missing(missing));
        }
        let defaults = Figment::from(Toml::string(DEFAULTS));
        for (key, development) in development_values() {
            let held =
                needs.contains(&key.as_str()) || (may_hold.contains(&key) && given.find_value(&key).is_ok());
            if !held {
                let emptied = figment::util::nest(&key, Value::from(""));
                merged = merged.merge(Serialized::defaults(emptied));
                continue;
            }
            let development = defaults.find_value(&development).map_err(Box::new)?;
            let value = merged.find_value(&key).map_err(Box::new)?;
            if value.as_str() == development.as_str() {
                return Err(ConfigError::DevelopmentSecret(key));
            }
        }
        Self::from_figment(merged)
    }

    /// The defaults alone, for tests and tools that set what they need in code.
    pub fn development() -> Result<Self, ConfigError> {
        Self::from_figment(Figment::from(Toml::string(DEFAULTS)))
    }

    fn from_figment(figment: Figment) -> Result<Self, ConfigError> {
        Ok(figment.extract().map_err(Box::new)?)
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
    use secrecy::ExposeSecret;

    use super::*;

    #[test]
    fn passkeys_live_on_the_public_origin_or_on_localhost_for_a_loopback_address() {
        figment::Jail::expect_with(|jail| {
            let mut origin = |public_url: &str| {
                jail.set_env("KID_GATEWAY__PUBLIC_URL", public_url);
                Settings::load().expect("settings").gateway.passkey_origin()
            };
            assert_eq!(origin("https://kid.example.vn/"), "https://kid.example.vn");
            assert_eq!(origin("http://kid.localtest.me"), "http://kid.localtest.me");
            assert_eq!(origin("http://127.0.0.1:8080"), "http://localhost:8080");
            assert_eq!(origin("http://[::1]:4173"), "http://localhost:4173");
            assert_eq!(origin("http://localhost:8080"), "http://localhost:8080");
            Ok(())
        });
    }

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

    /// A development default, as the defaults file holds it.
    fn default_of(key: &str) -> String {
        Figment::from(Toml::string(DEFAULTS))
            .find_value(key)
            .expect("a default")
            .into_string()
            .expect("text")
    }

    #[test]
    fn production_names_every_variable_a_binary_needs_and_refuses_development_secrets() {
        figment::Jail::expect_with(|jail| {
            let needs = [
                "environment",
                "database.url",
                "jwt.signing_keys.gateway",
                "captcha.secret",
            ];
            jail.set_env("KID_ENVIRONMENT", "production");
            match Settings::load_for(&needs) {
                Err(ConfigError::Missing(missing)) => assert_eq!(
                    missing,
                    [
                        "KID_DATABASE__URL",
                        "KID_JWT__SIGNING_KEYS__GATEWAY",
                        "KID_CAPTCHA__SECRET"
                    ]
                ),
                other => panic!("expected the missing variables, got {other:?}"),
            }
            jail.set_env("KID_DATABASE__URL", "postgres://kid@db/kid");
            jail.set_env(
                "KID_JWT__SIGNING_KEYS__GATEWAY",
                default_of("jwt.signing_keys.gateway"),
            );
            jail.set_env("KID_CAPTCHA__SECRET", "recaptcha-secret");
            assert!(matches!(
                Settings::load_for(&needs),
                Err(ConfigError::DevelopmentSecret(key)) if key == "jwt.signing_keys.gateway"
            ));
            jail.set_env("KID_JWT__SIGNING_KEYS__GATEWAY", "a-real-key-from-the-cluster");
            assert!(Settings::load_for(&needs).is_ok());
            // What a binary does not read, it is not asked for.
            assert!(Settings::load_for(&["environment", "database.url"]).is_ok());
            Ok(())
        });
    }

    /// A taken pod's own settings are what it can use: in production a binary holds no key it
    /// does not use, given or not (the development operator pair above all, published here:
    /// a wallet verifying with its public key would take tokens anyone can sign), and refuses
    /// any development key it holds.
    #[test]
    fn production_holds_no_key_it_does_not_use_and_no_development_key_at_all() {
        figment::Jail::expect_with(|jail| {
            let needs = ["environment", "database.url", "jwt.public_keys.gateway"];
            let may_hold = [
                "jwt.public_keys.operator".to_owned(),
                "jwt.previous_public_keys.gateway".to_owned(),
            ];
            let load = || Settings::load_holding(&needs, &may_hold);
            jail.set_env("KID_ENVIRONMENT", "production");
            jail.set_env("KID_DATABASE__URL", "postgres://kid@db/kid");
            jail.set_env("KID_JWT__PUBLIC_KEYS__GATEWAY", "the-gateways-public-key");
            let settings = load().expect("settings");
            assert_eq!(settings.jwt.public_keys["gateway"], "the-gateways-public-key");
            for caller in CALLERS {
                assert_eq!(
                    settings.jwt.signing_keys[caller].expose_secret(),
                    "",
                    "{caller}'s private key is held"
                );
            }
            for caller in ["operator", "payment", "recharge"] {
                assert_eq!(
                    settings.jwt.public_keys[caller], "",
                    "{caller}'s public key is held"
                );
            }
            assert_eq!(settings.payment.bank_feed_secret.expose_secret(), "");
            assert_eq!(settings.payment.card_secret.expose_secret(), "");
            assert_eq!(settings.recharge.giftcode_pepper.expose_secret(), "");
            assert_eq!(settings.identity.totp_key.expose_secret(), "");
            // Given, a key it may hold is held: then never a development one.
            jail.set_env(
                "KID_JWT__PUBLIC_KEYS__OPERATOR",
                default_of("jwt.public_keys.operator"),
            );
            assert!(matches!(
                load(),
                Err(ConfigError::DevelopmentSecret(key)) if key == "jwt.public_keys.operator"
            ));
            jail.set_env("KID_JWT__PUBLIC_KEYS__OPERATOR", "an-operator-key-from-the-vault");
            let settings = load().expect("settings");
            assert_eq!(
                settings.jwt.public_keys["operator"],
                "an-operator-key-from-the-vault"
            );
            jail.set_env(
                "KID_JWT__PREVIOUS_PUBLIC_KEYS__GATEWAY",
                default_of("jwt.public_keys.gateway"),
            );
            assert!(matches!(
                load(),
                Err(ConfigError::DevelopmentSecret(key)) if key == "jwt.previous_public_keys.gateway"
            ));
            jail.set_env(
                "KID_JWT__PREVIOUS_PUBLIC_KEYS__GATEWAY",
                "the-gateway-key-before-rotation",
            );
            let settings = load().expect("settings");
            assert_eq!(
                settings.jwt.previous_public_keys["gateway"],
                "the-gateway-key-before-rotation"
            );
            // Given, a key it neither needs nor may hold is not held: a signing key mounted in
            // the wrong pod, or a public key of a caller it does not serve.
            let (operator, _) = crate::auth::generate_key_pair();
            jail.set_env("KID_JWT__SIGNING_KEYS__OPERATOR", operator.expose_secret());
            jail.set_env("KID_JWT__PUBLIC_KEYS__PAYMENT", "payments-public-key");
            jail.set_env("KID_PAYMENT__CARD_SECRET", "the-aggregators-partner-key");
            let settings = load().expect("settings");
            assert_eq!(settings.jwt.signing_keys["operator"].expose_secret(), "");
            assert_eq!(settings.jwt.public_keys["payment"], "");
            assert_eq!(settings.payment.card_secret.expose_secret(), "");
            // Development keeps every development key: the launcher runs every caller.
            jail.set_env("KID_ENVIRONMENT", "development");
            let settings = load().expect("settings");
            assert_eq!(
                settings.jwt.signing_keys["payment"].expose_secret(),
                default_of("jwt.signing_keys.payment")
            );
            Ok(())
        });
    }

    #[test]
    fn production_refuses_to_start_with_the_inbox_dedupe_switched_off() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("KID_ENVIRONMENT", "production");
            jail.set_env("KID_TESTING__SKIP_INBOX_DEDUPE", "true");
            assert!(matches!(
                Settings::load_for(&["environment"]),
                Err(ConfigError::TestingSwitch("testing.skip_inbox_dedupe"))
            ));
            jail.set_env("KID_ENVIRONMENT", "development");
            assert!(
                Settings::load_for(&["environment"]).is_ok_and(|settings| settings.testing.skip_inbox_dedupe)
            );
            Ok(())
        });
    }

    #[test]
    fn text_settings_keep_text_that_looks_like_a_number() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("KID_ENVIRONMENT", "production");
            jail.set_env("KID_PAYMENT__PARTNER_ID", "007");
            jail.set_env("KID_JWT__SIGNING_KEYS__GATEWAY", "1234567890");
            jail.set_env("KID_REDIS__KEY_PREFIX", "true");
            jail.set_env("KID_GATEWAY__PORT", "9090");
            // As a binary loads them, in production.
            let settings =
                Settings::load_for(&["payment.partner_id", "jwt.signing_keys.gateway", "gateway.port"])
                    .expect("settings");
            assert_eq!(settings.payment.partner_id, "007");
            assert_eq!(settings.jwt.signing_keys["gateway"].expose_secret(), "1234567890");
            assert_eq!(settings.redis.key_prefix, "true");
            assert_eq!(settings.gateway.port, 9090);
            Ok(())
        });
    }

    #[test]
    fn a_binary_without_an_environment_is_production_and_refuses_to_start() {
        figment::Jail::expect_with(|jail| {
            match Settings::load_for(SERVICE_NEEDS) {
                Err(ConfigError::Missing(missing)) => {
                    assert!(missing.contains(&"KID_ENVIRONMENT".to_owned()), "{missing:?}");
                    assert!(missing.contains(&"KID_DATABASE__URL".to_owned()), "{missing:?}");
                }
                other => panic!("an unset environment must fail closed, got {other:?}"),
            }
            // Development tools stay development by default.
            assert_eq!(
                Settings::load().expect("settings").environment,
                Environment::Development
            );
            // Development is said, never assumed.
            jail.set_env("KID_ENVIRONMENT", "development");
            assert!(Settings::load_for(SERVICE_NEEDS).is_ok());
            Ok(())
        });
    }

    #[test]
    fn every_key_of_the_defaults_is_known_with_its_variable() {
        let keys = known_keys();
        assert!(keys.contains(&"database.url".to_owned()));
        assert!(keys.contains(&"recharge.delivery_deadline_ms".to_owned()));
        assert!(!keys.contains(&"database".to_owned()));
        assert_eq!(
            variable_name("recharge.delivery_deadline_ms"),
            "KID_RECHARGE__DELIVERY_DEADLINE_MS"
        );
        for key in SERVICE_NEEDS {
            assert!(keys.contains(&(*key).to_owned()), "{key} is not a setting");
        }
    }
}
