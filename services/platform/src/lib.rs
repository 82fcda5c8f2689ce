//! Plumbing shared by Kid's services and gateway. Nothing here knows about players or money.

pub mod amqp;
pub mod auth;
pub mod config;
pub mod db;
pub mod grpc;
pub mod inbox;
pub mod mailbox;
pub mod metrics;
pub mod outbox;
pub mod service;
pub mod shutdown;
pub mod telemetry;
pub mod testing;

pub use config::Settings;
