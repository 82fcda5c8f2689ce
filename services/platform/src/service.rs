//! What every gRPC service does at start: bind, connect to its schema, migrate, start the
//! outbox relay; then serve with the internal-JWT check until shutdown.

use std::{net::SocketAddr, sync::Arc};

use anyhow::Context;
use sqlx::{PgPool, migrate::Migrator};
use tokio::{net::TcpListener, task::JoinSet};
use tokio_util::sync::CancellationToken;
use tonic::service::Routes;

use crate::{
    amqp::QueueSpec,
    auth::{InternalJwt, RequireInternalJwt},
    config::Settings,
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
}

impl ServiceHost {
    /// `name` is the service's schema. Binds `address` (port 0 picks a free one).
    pub async fn start(
        name: &'static str,
        address: &str,
        settings: Settings,
        migrator: &Migrator,
        queues: Vec<QueueSpec>,
        shutdown: CancellationToken,
    ) -> anyhow::Result<Self> {
        let listener = TcpListener::bind(address)
            .await
            .with_context(|| format!("{name}: cannot bind {address}"))?;
        let address = listener.local_addr()?;
        let pool = db::connect(&settings.database, name)
            .await
            .with_context(|| format!("{name}: database"))?;
        db::migrate(&pool, name, migrator)
            .await
            .with_context(|| format!("{name}: migrations"))?;
        let mut tasks = JoinSet::new();
        let queues = queues
            .into_iter()
            .map(|queue| queue.configured(&settings.amqp))
            .collect();
        tasks.spawn(
            Relay::new(pool.clone(), &settings)
                .declaring(queues)
                .run(shutdown.clone()),
        );
        let jwt = Arc::new(InternalJwt::new(&settings.jwt));
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
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The interceptor every RPC of this service goes through.
    pub fn require_jwt(&self) -> RequireInternalJwt {
        RequireInternalJwt::new(self.jwt.clone())
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
    pub async fn serve(mut self, routes: Routes, names: &[&str]) -> anyhow::Result<()> {
        let served = grpc::serve(self.listener, routes, names, self.shutdown.clone()).await;
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
}

/// A service built from its spec, bound and migrated, ready to serve.
pub struct Application {
    host: ServiceHost,
    spec: &'static ServiceSpec,
}

impl Application {
    /// Binds `settings.grpc`, migrates the schema and starts the outbox relay.
    pub async fn build(
        spec: &'static ServiceSpec,
        settings: Settings,
        shutdown: CancellationToken,
    ) -> anyhow::Result<Self> {
        crate::install_tls_provider();
        let address = settings.grpc.address();
        let queues = (spec.queues)(&settings);
        let host =
            ServiceHost::start(spec.schema, &address, settings, spec.migrator, queues, shutdown).await?;
        Ok(Self { host, spec })
    }

    pub fn address(&self) -> SocketAddr {
        self.host.address()
    }

    pub async fn run_until_stopped(mut self) -> anyhow::Result<()> {
        let routes = (self.spec.wire)(&mut self.host)?;
        self.host.serve(routes, &[self.spec.grpc_name]).await
    }
}

/// The whole `main` of a service binary: settings, telemetry, metrics listener, SIGTERM.
pub async fn run_binary(spec: &'static ServiceSpec) -> anyhow::Result<()> {
    let settings = Settings::load().context("loading settings")?;
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
