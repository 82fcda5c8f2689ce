//! The payment service: payment intake: methods, card fees, card orders and the outside parties' webhooks.

pub mod aggregator;
pub mod bank_feed;
pub mod cards;
pub mod domain;
pub mod grpc;
pub mod methods;
pub mod simulator;

use std::sync::Arc;

use aggregator::HttpAggregator;
use kid_platform::{
    service::{ServiceHost, ServiceSpec},
    topology,
};
use kid_proto::payment::v1::payment_service_server::{PaymentServiceServer, SERVICE_NAME};
use sqlx::migrate::Migrator;
use tonic::service::Routes;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/payment");

pub static SERVICE: ServiceSpec = ServiceSpec {
    schema: "payment",
    grpc_name: SERVICE_NAME,
    migrator: &MIGRATOR,
    // The wallet consumes the top-ups this service publishes: declared before publishing.
    queues: |settings| vec![topology::wallet_topups(settings)],
    wire,
};

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    let settings = host.settings.payment.clone();
    let aggregator = HttpAggregator::new(
        &settings.aggregator_url,
        settings.card_secret.clone(),
        settings.aggregator_timeout(),
    )?;
    let service = grpc::Payment::new(host.pool.clone(), settings, Arc::new(aggregator));
    Ok(Routes::new(PaymentServiceServer::with_interceptor(
        service,
        host.require_jwt(),
    )))
}
