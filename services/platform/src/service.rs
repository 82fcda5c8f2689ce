//! What every gRPC service does at start: bind, connect to its schema, migrate, start the
//! outbox relay; then serve with the internal-JWT check until shutdown.

use std::{net::SocketAddr, sync::Arc, time::Duration};

use anyhow::Context;
use futures::{FutureExt, future::BoxFuture};
use kid_contracts::staff::v1::staff_audit_service_server::StaffAuditServiceServer;
use sqlx::{PgPool, migrate::Migrator};
use tokio::{net::TcpListener, sync::watch, task::JoinSet};
use tokio_util::sync::CancellationToken;
use tonic::service::Routes;

use crate::{
    amqp::QueueSpec,
    auth::{InternalJwt, RequireInternalJwt},
    config::{MigrateMode, SERVICE_NEEDS, Settings},
    db, grpc,
    outbox::Relay,
};

/// A started service, not yet serving: its port is known, its schema migrated.
pub struct ServiceHost {
    name: &'static str,
    listener: TcpListener,
    address: SocketAddr,
    pub pool: PgPool,
    pub settings: Settings,
    jwt: Arc<InternalJwt>,
    tasks: JoinSet<()>,
    shutdown: CancellationToken,
    ready: watch::Receiver<bool>,
}

/// How often a service re-checks its readiness and refreshes the gauges read from its tables.
const OBSERVE_INTERVAL: Duration = Duration::from_secs(5);

/// A figure read from a service's own tables and exported as a Prometheus gauge. `query`
/// returns one `double precision`. Every replica reports the same value: alert on `max()`.
pub struct Gauge {
    pub name: &'static str,
    pub query: &'static str,
}

/// The gauges every service has: its outbox backlog.
const PLATFORM_GAUGES: &[Gauge] = &[
    Gauge {
        name: "outbox_pending_messages",
        query: "select count(*)::double precision from outbox_message where published_at is null",
    },
    Gauge {
        name: "outbox_oldest_pending_seconds",
        query: "select coalesce(extract(epoch from now() - min(created_at)), 0)::double precision
                from outbox_message where published_at is null",
    },
];

/// Whether the schema answers and is current: what the named gRPC service reports.
async fn is_ready(pool: &PgPool, schema: &str, migrator: &Migrator) -> bool {
    match db::pending_migrations(pool, schema, migrator).await {
        Ok(0) => true,
        Ok(pending) => {
            tracing::warn!(
                schema,
                pending,
                "schema is behind its migrations; not ready until the migration job runs"
            );
            false
        }
        Err(error) => {
            tracing::warn!(schema, error = %error, "database does not answer; not ready");
            false
        }
    }
}

/// Each gauge is labelled with the schema it reads (`schema="payment"`), so services sharing a
/// process (the development launcher) keep theirs apart.
async fn refresh_gauges(pool: &PgPool, schema: &'static str, gauges: &[Gauge]) {
    for gauge in PLATFORM_GAUGES.iter().chain(gauges) {
        match sqlx::query_scalar::<_, f64>(sqlx::AssertSqlSafe(gauge.query))
            .fetch_one(pool)
            .await
        {
            Ok(value) => metrics::gauge!(gauge.name, "schema" => schema).set(value),
            Err(error) => tracing::warn!(gauge = gauge.name, error = %error, "gauge not refreshed"),
        }
    }
}

/// Every [`OBSERVE_INTERVAL`] until shutdown: re-checks readiness and, when ready, refreshes
/// the gauges.
async fn observe(
    pool: PgPool,
    schema: &'static str,
    migrator: &'static Migrator,
    gauges: &'static [Gauge],
    ready: watch::Sender<bool>,
    shutdown: CancellationToken,
) {
    loop {
        tokio::select! {
            () = tokio::time::sleep(OBSERVE_INTERVAL) => {}
            () = shutdown.cancelled() => return,
        }
        let current = is_ready(&pool, schema, migrator).await;
        ready.send_replace(current);
        // A schema behind its migrations has not the tables the gauges read.
        if current {
            refresh_gauges(&pool, schema, gauges).await;
        }
    }
}

impl ServiceHost {
    /// `name` is the service's schema. Binds `address` (port 0 picks a free one), then migrates
    /// the schema or, in `verify` mode, only checks it.
    pub async fn start(
        name: &'static str,
        address: &str,
        settings: Settings,
        migrator: &'static Migrator,
        queues: Vec<QueueSpec>,
        gauges: &'static [Gauge],
        shutdown: CancellationToken,
    ) -> anyhow::Result<Self> {
        // First: a key that does not read stops the binary before it binds or connects.
        let jwt = Arc::new(InternalJwt::new(&settings.jwt).context("the internal-call keys")?);
        let listener = TcpListener::bind(address)
            .await
            .with_context(|| format!("{name}: cannot bind {address}"))?;
        let address = listener.local_addr()?;
        let pool = db::connect_when_up(&settings.database, name, &shutdown)
            .await
            .with_context(|| format!("{name}: database"))?;
        if settings.database.migrate == MigrateMode::Apply {
            db::migrate(&pool, name, migrator)
                .await
                .with_context(|| format!("{name}: migrations"))?;
        }
        let (ready_sender, ready) = watch::channel(is_ready(&pool, name, migrator).await);
        let mut tasks = JoinSet::new();
        tasks.spawn(observe(
            pool.clone(),
            name,
            migrator,
            gauges,
            ready_sender,
            shutdown.clone(),
        ));
        let queues = queues
            .into_iter()
            .map(|queue| queue.configured(&settings.amqp))
            .collect();
        tasks.spawn(
            Relay::new(pool.clone(), &settings)
                .declaring(queues)
                .run(shutdown.clone()),
        );
        tracing::info!(service = name, %address, "service started");
        Ok(Self {
            name,
            listener,
            address,
            pool,
            settings,
            jwt,
            tasks,
            shutdown,
            ready,
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The interceptor every RPC of this service goes through: a valid token of one of
    /// `callers`.
    pub fn require_jwt(&self, callers: &'static [&'static str]) -> RequireInternalJwt {
        RequireInternalJwt::new(self.jwt.clone(), callers)
    }

    /// The interceptor this service's calls to other services go through.
    pub fn attach_jwt(&self) -> crate::auth::AttachInternalJwt {
        crate::auth::AttachInternalJwt::new(self.jwt.clone(), self.name)
    }

    /// Cancelled when the service is asked to stop; tasks given to [`Self::spawn`] watch it.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shutdown.clone()
    }

    /// Runs `task` beside the server (a consumer, a schedule); shutdown waits for it.
    pub fn spawn(&mut self, task: impl Future<Output = ()> + Send + 'static) {
        self.tasks.spawn(task);
    }

    /// Serves until shutdown, then waits for background tasks (the relay flushes).
    /// Every service also serves its staff audit log, to the gateway only.
    pub async fn serve(mut self, routes: Routes, names: &[&str]) -> anyhow::Result<()> {
        let audit = crate::audit::AuditLog::new(self.pool.clone(), self.name);
        let routes = routes.add_service(StaffAuditServiceServer::with_interceptor(
            audit,
            RequireInternalJwt::new(self.jwt.clone(), &[crate::auth::GATEWAY]),
        ));
        let served = grpc::serve(self.listener, routes, names, self.ready, self.shutdown.clone()).await;
        self.shutdown.cancel();
        while self.tasks.join_next().await.is_some() {}
        self.pool.close().await;
        tracing::info!(service = self.name, "service stopped");
        served.with_context(|| format!("{}: gRPC server", self.name))
    }
}

/// What distinguishes one service: its schema, migrations and how it wires its gRPC routes
/// (and any consumers it spawns) onto a started host.
pub struct ServiceSpec {
    /// The PostgreSQL schema the service owns; also its name in logs.
    pub schema: &'static str,
    /// The fully qualified gRPC service reported by the health service.
    pub grpc_name: &'static str,
    pub migrator: &'static Migrator,
    /// The queues the service consumes, declared before it publishes anything.
    pub queues: fn(&Settings) -> Vec<QueueSpec>,
    pub wire: fn(&mut ServiceHost) -> anyhow::Result<Routes>,
    /// What this service reads beyond [`SERVICE_NEEDS`] that production must be given.
    pub needs: &'static [&'static str],
    /// The internal callers (see [`crate::auth`]) that may call it at all; its methods may
    /// narrow that further.
    pub callers: &'static [&'static str],
    /// Figures from its tables worth alerting on, beside the outbox backlog.
    pub gauges: &'static [Gauge],
}

impl ServiceSpec {
    /// Every setting the service's binary needs in production.
    pub fn all_needs(&self) -> Vec<&'static str> {
        SERVICE_NEEDS.iter().chain(self.needs).copied().collect()
    }

    /// The keys the service may hold when given, beyond what it needs: the public key of each
    /// of its callers (the operator's only where an operator calls it), and each one's previous
    /// key while it rotates. No other secret: production empties it even when given.
    pub fn may_hold(&self) -> Vec<String> {
        self.callers
            .iter()
            .flat_map(|caller| {
                [
                    format!("jwt.public_keys.{caller}"),
                    format!("jwt.previous_public_keys.{caller}"),
                ]
            })
            .collect()
    }

    /// The service's settings as its binary loads them: see [`Settings::load_holding`].
    pub fn load_settings(&self) -> Result<Settings, crate::config::ConfigError> {
        Settings::load_holding(&self.all_needs(), &self.may_hold())
    }
}

/// A service built from its spec, bound and migrated, ready to serve.
pub struct Application {
    host: ServiceHost,
    spec: &'static ServiceSpec,
}

impl Application {
    /// Binds `settings.grpc`, migrates the schema and starts the outbox relay.
    ///
    /// Boxed here, as are the gateway's and the launcher's `Stack`'s entry points: a release
    /// build compiles an async function's body in each crate that polls it (its state machine
    /// counts as generic, and release builds share no generics), so each test binary compiled
    /// the whole service again. Behind `dyn Future` it is compiled once, in this crate.
    pub fn build(
        spec: &'static ServiceSpec,
        settings: Settings,
        shutdown: CancellationToken,
    ) -> BoxFuture<'static, anyhow::Result<Self>> {
        async move {
            crate::install_tls_provider();
            let address = settings.grpc.address();
            let queues = (spec.queues)(&settings);
            let host = ServiceHost::start(
                spec.schema,
                &address,
                settings,
                spec.migrator,
                queues,
                spec.gauges,
                shutdown,
            )
            .await?;
            Ok(Self { host, spec })
        }
        .boxed()
    }

    pub fn address(&self) -> SocketAddr {
        self.host.address()
    }

    /// Serves until the shutdown token is cancelled (boxed: see `build`).
    pub fn run_until_stopped(mut self) -> BoxFuture<'static, anyhow::Result<()>> {
        async move {
            let routes = (self.spec.wire)(&mut self.host)?;
            self.host.serve(routes, &[self.spec.grpc_name]).await
        }
        .boxed()
    }
}

/// The whole of a service binary's `main`, its runtime included: `fn main() ->
/// anyhow::Result<()> { kid_platform::service::main(&SERVICE) }`. Not `#[tokio::main]` in each
/// binary: a release build compiles an async function's body in the crate that polls it, so
/// each service binary compiled the whole service stack again (about 40 s each on 2 cores);
/// polled here, it is compiled once, for every service binary and the launcher.
pub fn main(spec: &'static ServiceSpec) -> anyhow::Result<()> {
    runtime()?.block_on(run_binary(spec))
}

/// The runtime `#[tokio::main]` builds: multi-threaded, with I/O and timers.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread().enable_all().build()?)
}

/// Settings, telemetry, the metrics listener and SIGTERM, then the service until it stops.
async fn run_binary(spec: &'static ServiceSpec) -> anyhow::Result<()> {
    let settings = spec.load_settings().context("loading settings")?;
    let _telemetry = crate::telemetry::init(spec.schema)?;
    let shutdown = crate::shutdown::on_signal();
    if settings.metrics.port != 0 {
        tokio::spawn(crate::metrics::serve(
            "0.0.0.0",
            settings.metrics.port,
            shutdown.clone(),
        ));
    }
    Application::build(spec, settings, shutdown)
        .await?
        .run_until_stopped()
        .await
}
