//! The recharge service: the game catalogue and coin recharge orders delivered to game teams.

pub mod grpc;

use kid_platform::service::{ServiceHost, ServiceSpec};
use kid_proto::recharge::v1::recharge_service_server::{RechargeServiceServer, SERVICE_NAME};
use sqlx::migrate::Migrator;
use tonic::service::Routes;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/recharge");

pub static SERVICE: ServiceSpec = ServiceSpec {
    schema: "recharge",
    grpc_name: SERVICE_NAME,
    migrator: &MIGRATOR,
    queues: |_| Vec::new(),
    wire,
};

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    let service = grpc::Recharge::new(host.pool.clone());
    Ok(Routes::new(RechargeServiceServer::with_interceptor(
        service,
        host.require_jwt(),
    )))
}
