//! The whole portal in one process for development and tests: the four services, each on its
//! own loopback port, and the gateway in front of them, all talking real gRPC.

pub mod bank_feed;
pub mod player;

use std::net::SocketAddr;

use anyhow::Context;
use futures::{FutureExt, future::BoxFuture};
use kid_migrate::seed_development;
use kid_platform::{
    Settings,
    service::{Application, ServiceSpec},
};
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

/// The four services as the development portal runs them: production's, but identity sends
/// mail to the development mailbox when no SMTP URL is set.
pub const SERVICES: [&ServiceSpec; 4] = [
    &kid_identity::events::mailbox::SERVICE,
    &kid_wallet::SERVICE,
    &kid_payment::SERVICE,
    &kid_recharge::SERVICE,
];

pub struct Stack {
    pub gateway: SocketAddr,
    /// The card aggregator simulator.
    pub aggregator: String,
    pub services: Vec<(&'static str, SocketAddr)>,
    parts: Vec<Part>,
    tasks: JoinSet<anyhow::Result<()>>,
    shutdown: CancellationToken,
}

/// One running service, which tests may stop and start again on the same port.
struct Part {
    spec: &'static ServiceSpec,
    settings: Settings,
    stop: CancellationToken,
    task: Option<JoinHandle<anyhow::Result<()>>>,
}

fn endpoint<'a>(settings: &'a mut Settings, schema: &str) -> anyhow::Result<&'a mut String> {
    let endpoints = &mut settings.services;
    Ok(match schema {
        "identity" => &mut endpoints.identity,
        "wallet" => &mut endpoints.wallet,
        "payment" => &mut endpoints.payment,
        "recharge" => &mut endpoints.recharge,
        other => anyhow::bail!("no endpoint setting for service {other}"),
    })
}

/// The outside parties as simulators, until `shutdown`: the card aggregator on the port of
/// `payment.aggregator_url` (0 picks a free one), calling back to the gateway at `gateway`
/// (`host:port`), and, when `recharge.reference_game` is on, the reference game. Points
/// `settings` at where they really are.
pub async fn start_outside_parties(
    settings: &mut Settings,
    gateway: &str,
    shutdown: &CancellationToken,
) -> anyhow::Result<()> {
    let aggregator: http::Uri = settings
        .payment
        .aggregator_url
        .parse()
        .context("payment.aggregator_url")?;
    settings.payment.card_callback_url = format!("http://{gateway}/api/webhooks/card");
    let partner = kid_payment::simulator::Partner {
        partner_id: settings.payment.partner_id.clone(),
        key: settings.payment.card_secret.clone(),
        scheme: settings.payment.card_sign,
        callback_url: settings.payment.card_callback_url.clone(),
    };
    let simulator = kid_payment::simulator::spawn(
        &format!(
            "{}:{}",
            aggregator.host().unwrap_or("127.0.0.1"),
            aggregator.port_u16().unwrap_or(0)
        ),
        partner,
        settings.payment.simulator_delay,
        shutdown.clone(),
    )
    .await
    .context("starting the card aggregator simulator")?;
    settings.payment.aggregator_url = format!("http://{simulator}");
    if settings.recharge.reference_game {
        // Its queue is declared before any order can be published.
        let game = kid_recharge::reference_game::ReferenceGame::start(settings).await;
        tokio::spawn(game.run(shutdown.clone()));
    }
    Ok(())
}

impl Stack {
    /// Starts each service on the port of its endpoint in `settings.services` (port 0 picks a
    /// free one), points the gateway at where they really are, and starts the gateway.
    ///
    /// The card aggregator is its simulator, on the port of `payment.aggregator_url`, calling
    /// back to this gateway.
    ///
    /// Boxed here, as `kid_platform::service::Application`'s are and for its reason: each test
    /// that starts the portal would otherwise compile the whole stack again.
    pub fn start(
        mut settings: Settings,
        shutdown: CancellationToken,
    ) -> BoxFuture<'static, anyhow::Result<Self>> {
        async move {
            kid_platform::db::ensure_database(&settings.database).await?;
            kid_platform::install_tls_provider();
            // Bound first, so the card simulator can be given the callback address.
            let gateway_address = format!("{}:{}", settings.gateway.host, settings.gateway.port);
            let gateway_listener = tokio::net::TcpListener::bind(&gateway_address)
                .await
                .with_context(|| format!("gateway: cannot bind {gateway_address}"))?;
            let bound = gateway_listener.local_addr()?;
            start_outside_parties(&mut settings, &bound.to_string(), &shutdown).await?;
            let mut tasks = JoinSet::new();
            let mut services = Vec::new();
            let mut parts = Vec::new();
            for spec in SERVICES {
                let uri: http::Uri = endpoint(&mut settings, spec.schema)?
                    .parse()
                    .context("service endpoint")?;
                let mut own = settings.clone();
                own.grpc.host = uri.host().unwrap_or("127.0.0.1").to_owned();
                own.grpc.port = uri.port_u16().unwrap_or(0);
                let stop = shutdown.child_token();
                let application = Application::build(spec, own.clone(), stop.clone()).await?;
                let address = application.address();
                own.grpc.port = address.port();
                *endpoint(&mut settings, spec.schema)? = format!("http://{address}");
                services.push((spec.schema, address));
                parts.push(Part {
                    spec,
                    settings: own,
                    stop,
                    task: Some(tokio::spawn(application.run_until_stopped())),
                });
            }
            if settings.is_development() {
                seed_development(&settings).await?;
            }
            let settings_aggregator = settings.payment.aggregator_url.clone();
            let gateway = kid_gateway::Gateway::build_on(
                gateway_listener,
                settings,
                kid_gateway::state::Readiness::WholePortal,
                kid_gateway::api::dev::router(),
                shutdown.clone(),
            )
            .await?;
            let gateway_address = gateway.address();
            tasks.spawn(gateway.run_until_stopped());
            Ok(Self {
                gateway: gateway_address,
                aggregator: settings_aggregator,
                services,
                parts,
                tasks,
                shutdown,
            })
        }
        .boxed()
    }

    fn part(&mut self, schema: &str) -> anyhow::Result<&mut Part> {
        self.parts
            .iter_mut()
            .find(|part| part.spec.schema == schema)
            .with_context(|| format!("no service {schema}"))
    }

    /// Stops one service as SIGTERM would (in-flight work finishes, the relay flushes).
    pub fn stop_service<'a>(&'a mut self, schema: &'a str) -> BoxFuture<'a, anyhow::Result<()>> {
        async move {
            let part = self.part(schema)?;
            part.stop.cancel();
            if let Some(task) = part.task.take() {
                task.await.context("the service panicked")??;
            }
            Ok(())
        }
        .boxed()
    }

    /// Starts a stopped service again on the port it had.
    pub fn start_service<'a>(&'a mut self, schema: &'a str) -> BoxFuture<'a, anyhow::Result<()>> {
        async move {
            let shutdown = self.shutdown.clone();
            let part = self.part(schema)?;
            anyhow::ensure!(part.task.is_none(), "{schema} is running");
            part.stop = shutdown.child_token();
            let application = Application::build(part.spec, part.settings.clone(), part.stop.clone()).await?;
            part.task = Some(tokio::spawn(application.run_until_stopped()));
            Ok(())
        }
        .boxed()
    }

    /// Waits until every part stops; the first failure is returned.
    pub async fn wait(mut self) -> anyhow::Result<()> {
        let mut first_error = None;
        for part in &mut self.parts {
            if let Some(task) = part.task.take() {
                self.tasks
                    .spawn(async move { task.await.context("a service panicked")? });
            }
        }
        while let Some(joined) = self.tasks.join_next().await {
            let outcome = joined
                .context("a part of the stack panicked")
                .and_then(|result| result);
            if let Err(error) = outcome {
                tracing::error!(error = format!("{error:#}"), "part of the stack failed");
                first_error.get_or_insert(error);
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}
