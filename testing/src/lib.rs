//! Test support: a fresh database, exchange and Redis prefix per test, and polling for what
//! happens asynchronously (mail, events through RabbitMQ, the outbox relay).

#[cfg(feature = "portal")]
pub mod portal;

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use sqlx::{ConnectOptions, postgres::PgConnectOptions};
use uuid::Uuid;

use kid_platform::{
    config::Settings,
    db,
    service::{Application, ServiceSpec},
};
use tokio_util::sync::CancellationToken;

/// Development settings pointed at a brand-new database, a unique exchange and Redis prefix,
/// with every listener (gateway and each service's endpoint) on a free port.
pub async fn isolated_settings() -> anyhow::Result<Settings> {
    let mut settings = Settings::load()?;
    let id = &Uuid::new_v4().simple().to_string()[..16];
    let name = format!("kid_test_{id}");
    let options: PgConnectOptions = settings.database.url.expose_secret().parse()?;
    settings.database.url = SecretString::from(options.database(&name).to_url_lossy().to_string());
    db::ensure_database(&settings.database).await?;
    settings.database.max_connections = 5;
    settings.amqp.exchange = format!("kid.test.{id}");
    settings.amqp.queue_expires_ms = 60_000;
    settings.redis.key_prefix = format!("kid-test-{id}");
    settings.grpc.port = 0;
    settings.gateway.port = 0;
    for endpoint in [
        &mut settings.services.identity,
        &mut settings.services.wallet,
        &mut settings.services.payment,
        &mut settings.services.recharge,
    ] {
        *endpoint = "http://127.0.0.1:0".to_owned();
    }
    settings.outbox.poll_interval = Duration::from_millis(50);
    // The launcher's card simulator on a free port, calling back quickly.
    settings.payment.aggregator_url = "http://127.0.0.1:0".to_owned();
    settings.payment.simulator_delay = Duration::from_millis(100);
    settings.recharge.sweep_interval = Duration::from_millis(200);
    settings.recharge.redrive_after = Duration::from_secs(1);
    settings.identity.attachment_dir = std::env::temp_dir()
        .join(format!("kid-attachments-{id}"))
        .display()
        .to_string();
    settings.mail.mailbox_dir = std::env::temp_dir()
        .join(format!("kid-mailbox-{id}"))
        .display()
        .to_string();
    Ok(settings)
}

/// Polls `check` every 50 ms, for up to ten seconds, until it gives `Some`, and returns that;
/// panics naming `what` when it never does. Ten seconds because events go through the outbox
/// relay and RabbitMQ, which a loaded CI machine running every test at once slows.
pub async fn eventually<T>(what: &str, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    for _ in 0..200 {
        if let Some(found) = check().await {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never happened: {what}");
}

/// Builds `spec`'s service with `settings` (which migrates its schema) on a free port and serves
/// it until `shutdown`: its gRPC endpoint, `http://host:port`.
pub async fn serve(spec: &'static ServiceSpec, settings: &Settings, shutdown: &CancellationToken) -> String {
    let application = Application::build(spec, settings.clone(), shutdown.clone())
        .await
        .unwrap_or_else(|error| panic!("{} starts: {error:#}", spec.schema));
    let endpoint = format!("http://{}", application.address());
    tokio::spawn(application.run_until_stopped());
    endpoint
}

/// The value of one series in a Prometheus text rendering (`kid_platform::metrics::handle()
/// .render()`), named as rendered: `name{label="value",...}`, or `name` without labels.
pub fn metric(rendered: &str, series: &str) -> Option<f64> {
    rendered
        .lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|value| value.trim().parse().ok())
}
