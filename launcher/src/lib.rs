//! The whole portal in one process for development and tests: the four services, each on its
//! own loopback port, and the gateway in front of them, all talking real gRPC.

use std::net::SocketAddr;

use anyhow::Context;
use kid_platform::{
    Settings,
    service::{Application, ServiceSpec},
};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

const SERVICES: [&ServiceSpec; 4] = [
    &kid_identity::SERVICE,
    &kid_wallet::SERVICE,
    &kid_payment::SERVICE,
    &kid_recharge::SERVICE,
];

pub struct Stack {
    pub gateway: SocketAddr,
    /// The card aggregator simulator.
    pub aggregator: String,
    pub services: Vec<(&'static str, SocketAddr)>,
    tasks: JoinSet<anyhow::Result<()>>,
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

impl Stack {
    /// Starts each service on the port of its endpoint in `settings.services` (port 0 picks a
    /// free one), points the gateway at where they really are, and starts the gateway.
    ///
    /// The card aggregator is its simulator, on the port of `payment.aggregator_url`, calling
    /// back to this gateway.
    pub async fn start(mut settings: Settings, shutdown: CancellationToken) -> anyhow::Result<Self> {
        kid_platform::db::ensure_database(&settings.database).await?;
        kid_platform::install_tls_provider();
        // Bound first, so the card simulator can be given the callback address.
        let gateway_address = format!("{}:{}", settings.gateway.host, settings.gateway.port);
        let gateway_listener = tokio::net::TcpListener::bind(&gateway_address)
            .await
            .with_context(|| format!("gateway: cannot bind {gateway_address}"))?;
        let bound = gateway_listener.local_addr()?;
        let aggregator: http::Uri = settings
            .payment
            .aggregator_url
            .parse()
            .context("payment.aggregator_url")?;
        let simulator = kid_payment::simulator::spawn(
            &format!(
                "{}:{}",
                aggregator.host().unwrap_or("127.0.0.1"),
                aggregator.port_u16().unwrap_or(0)
            ),
            settings.payment.card_secret.clone(),
            settings.payment.simulator_delay(),
            shutdown.clone(),
        )
        .await
        .context("starting the card aggregator simulator")?;
        settings.payment.aggregator_url = format!("http://{simulator}");
        settings.payment.card_callback_url = format!("http://{bound}/api/webhooks/card");
        let mut tasks = JoinSet::new();
        let mut services = Vec::new();
        for spec in SERVICES {
            let uri: http::Uri = endpoint(&mut settings, spec.schema)?
                .parse()
                .context("service endpoint")?;
            let mut own = settings.clone();
            own.grpc.host = uri.host().unwrap_or("127.0.0.1").to_owned();
            own.grpc.port = uri.port_u16().unwrap_or(0);
            let application = Application::build(spec, own, shutdown.clone()).await?;
            let address = application.address();
            *endpoint(&mut settings, spec.schema)? = format!("http://{address}");
            services.push((spec.schema, address));
            tasks.spawn(application.run_until_stopped());
        }
        let settings_aggregator = settings.payment.aggregator_url.clone();
        let gateway = kid_gateway::Gateway::build_on(gateway_listener, settings, shutdown).await?;
        let gateway_address = gateway.address();
        tasks.spawn(gateway.run_until_stopped());
        Ok(Self {
            gateway: gateway_address,
            aggregator: settings_aggregator,
            services,
            tasks,
        })
    }

    /// Waits until every part stops; the first failure is returned.
    pub async fn wait(mut self) -> anyhow::Result<()> {
        let mut first_error = None;
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
