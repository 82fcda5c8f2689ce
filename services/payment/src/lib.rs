//! The payment service: payment intake: methods, card fees, card orders and the outside parties' webhooks.

pub mod domain;
pub mod grpc;

use kid_platform::service::{ServiceHost, ServiceSpec};
use kid_proto::payment::v1::payment_service_server::{PaymentServiceServer, SERVICE_NAME};
use sqlx::migrate::Migrator;
use tonic::service::Routes;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/payment");

pub static SERVICE: ServiceSpec = ServiceSpec {
    schema: "payment",
    grpc_name: SERVICE_NAME,
    migrator: &MIGRATOR,
    queues: |_| Vec::new(),
    wire,
};

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    let service = grpc::Payment::new(host.pool.clone());
    Ok(Routes::new(PaymentServiceServer::with_interceptor(
        service,
        host.require_jwt(),
    )))
}
