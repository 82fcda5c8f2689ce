//! Test support: a fresh database, exchange and Redis prefix per test, and polling for what
//! happens asynchronously (mail, events through RabbitMQ, the outbox relay).

#[cfg(feature = "portal")]
pub mod portal;

use std::time::Duration;

use anyhow::Context;
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use sqlx::{
    AssertSqlSafe, ConnectOptions, Connection, Executor, migrate::Migrator, postgres::PgConnectOptions,
};
use uuid::Uuid;

use kid_platform::{
    config::Settings,
    db,
    service::{Application, ServiceSpec},
};
use tokio_util::sync::CancellationToken;

/// Every service's schema and its migrations, as `kid-migrate` applies them (its tests check
/// that the two lists agree): what a test's database is copied from.
pub static SCHEMAS: [(&str, Migrator); 4] = [
    ("identity", sqlx::migrate!("../migrations/identity")),
    ("wallet", sqlx::migrate!("../migrations/wallet")),
    ("payment", sqlx::migrate!("../migrations/payment")),
    ("recharge", sqlx::migrate!("../migrations/recharge")),
];

/// Development settings pointed at a brand-new database with every service's schema migrated,
/// a unique exchange and Redis prefix, with every listener (gateway and each service's
/// endpoint) on a free port.
///
/// The database is a copy of a template migrated once per set of migrations (PostgreSQL copies
/// it in about a tenth of a second; migrating each test's database took seconds of the
/// server's CPU). The services still run their migrations at start, and find them applied.
pub async fn isolated_settings() -> anyhow::Result<Settings> {
    let settings = settings_of_a_new_database()?;
    let options: PgConnectOptions = settings.database.url.expose_secret().parse()?;
    let name = options.get_database().context("a database name")?.to_owned();
    let template = migrated_template(&settings).await?;
    let mut server = db::server_connection(settings.database.url.expose_secret()).await?;
    // Both names are ours: `kid_test_` or `kid_template_` and hexadecimal digits.
    server
        .execute(AssertSqlSafe(format!(
            r#"create database "{name}" template "{template}""#
        )))
        .await?;
    Ok(settings)
}

/// Ports handed out below the kernel's ephemeral range (32768 and up on Linux), which neither a
/// listener on port 0 nor an outgoing connection ever takes: a port taken from the ephemeral
/// range, let go and then given to a process, was once taken in between ("Address already in
/// use" when the chaos suite's gateway started).
const PORTS: std::ops::Range<u16> = 20_000..32_000;

/// A port nobody listens on, below the ephemeral range, not handed out before in this process:
/// for a server started later (another process, or a listener a test opens on purpose late).
pub fn unused_port() -> anyhow::Result<u16> {
    use rand::Rng;
    static GIVEN: std::sync::Mutex<std::collections::BTreeSet<u16>> =
        std::sync::Mutex::new(std::collections::BTreeSet::new());
    let mut given = GIVEN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    for _ in 0..1_000 {
        let port = rand::rng().random_range(PORTS);
        if !given.contains(&port) && std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            given.insert(port);
            return Ok(port);
        }
    }
    anyhow::bail!("no free port in {PORTS:?}")
}

/// [`isolated_settings`] with an empty database: for the tests of migrating itself.
pub async fn unmigrated_settings() -> anyhow::Result<Settings> {
    let settings = settings_of_a_new_database()?;
    db::ensure_database(&settings.database).await?;
    Ok(settings)
}

/// Isolated settings naming a database that does not exist yet.
fn settings_of_a_new_database() -> anyhow::Result<Settings> {
    let mut settings = Settings::load()?;
    let id = &Uuid::new_v4().simple().to_string()[..16];
    let name = format!("kid_test_{id}");
    let options: PgConnectOptions = settings.database.url.expose_secret().parse()?;
    settings.database.url = SecretString::from(options.database(&name).to_url_lossy().to_string());
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

/// The name of the database every schema of [`SCHEMAS`] is migrated in, made once per set of
/// migrations: by the first test that asks, while the others wait on an advisory lock. It is
/// built under another name and renamed when complete, so a stopped run leaves no half-migrated
/// template behind; templates of other migrations are dropped.
async fn migrated_template(settings: &Settings) -> anyhow::Result<String> {
    let mut digest = Sha256::new();
    for migration in db::PLATFORM_MIGRATIONS
        .iter()
        .chain(SCHEMAS.iter().flat_map(|(_, migrator)| migrator.iter()))
    {
        digest.update(migration.version.to_be_bytes());
        digest.update(&migration.checksum);
    }
    let hash: String = digest.finalize()[..8]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let template = format!("kid_template_{hash}");
    let url = settings.database.url.expose_secret();
    let mut server = db::server_connection(url).await?;
    sqlx::query("select pg_advisory_lock(hashtextextended('kid-test-template', 0))")
        .execute(&mut server)
        .await?;
    let exists: Option<i32> = sqlx::query_scalar("select 1 from pg_database where datname = $1")
        .bind(&template)
        .fetch_optional(&mut server)
        .await?;
    if exists.is_none() {
        ensure_service_roles(&mut server).await?;
        let building = format!("{template}_building");
        let stale: Vec<String> =
            sqlx::query_scalar(r"select datname from pg_database where datname like 'kid\_template\_%'")
                .fetch_all(&mut server)
                .await?;
        for name in stale {
            // Names from the query above, all `kid_template_…`. One a concurrent run of other
            // migrations still copies stays.
            let _ = server
                .execute(AssertSqlSafe(format!(r#"drop database if exists "{name}""#)))
                .await;
        }
        server
            .execute(AssertSqlSafe(format!(r#"create database "{building}""#)))
            .await?;
        let options: PgConnectOptions = url.parse()?;
        let mut at_building = settings.database.clone();
        at_building.url = SecretString::from(options.database(&building).to_url_lossy().to_string());
        for (schema, migrator) in &SCHEMAS {
            let pool = db::connect(&at_building, schema).await?;
            db::migrate(&pool, schema, migrator).await?;
            pool.close().await;
        }
        server
            .execute(AssertSqlSafe(format!(
                r#"alter database "{building}" rename to "{template}""#
            )))
            .await?;
    }
    server.close().await?;
    Ok(template)
}

/// The services' own database roles as production has them (deploy/kubernetes/data/postgres.yaml):
/// named after their schemas, able to log in, members of nothing. The migrations grant each its
/// own schema where the role exists, so a test can connect as one and find what a taken pod
/// finds. Made before a template is migrated (under its lock); roles are the server's, shared by
/// every database.
async fn ensure_service_roles(server: &mut sqlx::PgConnection) -> anyhow::Result<()> {
    for (schema, _) in &SCHEMAS {
        let exists: Option<i32> = sqlx::query_scalar("select 1 from pg_roles where rolname = $1")
            .bind(schema)
            .fetch_optional(&mut *server)
            .await?;
        if exists.is_none() {
            // A schema name of the list above: a lower-case identifier.
            server
                .execute(AssertSqlSafe(format!(r#"create role "{schema}" login"#)))
                .await?;
        }
    }
    Ok(())
}

/// Polls `check` every 50 ms, for up to thirty seconds, until it gives `Some`, and returns
/// that; panics naming `what` when it never does. A passing test waits only as long as it
/// needs; the bound is that long because events go through the outbox relay and RabbitMQ, which
/// a 2-core machine running every test at once slows: with ten seconds, a resend that took 17 s
/// under load (4 s alone) failed.
pub async fn eventually<T>(what: &str, mut check: impl AsyncFnMut() -> Option<T>) -> T {
    for _ in 0..600 {
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
