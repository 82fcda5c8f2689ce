//! Plumbing shared by Kid's services and gateway. Nothing here knows about players or money.

pub mod amqp;
pub mod audit;
pub mod auth;
pub mod config;
pub mod db;
pub mod grpc;
pub mod inbox;
pub mod mail;
pub mod mailbox;
pub mod metrics;
pub mod outbox;
pub mod seal;
pub mod service;
pub mod shutdown;
pub mod telemetry;
pub mod topology;
pub mod validation;
pub mod webhook;

pub use config::Settings;

/// One TLS crypto provider for the process (outgoing HTTPS: captcha, card aggregator); a
/// second install is a no-op.
pub fn install_tls_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
