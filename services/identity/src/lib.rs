//! The identity service: players' accounts, credentials, email tokens and security codes.

pub mod db;
pub mod grpc;

use kid_platform::service::{ServiceHost, ServiceSpec};
use kid_proto::identity::v1::identity_service_server::{IdentityServiceServer, SERVICE_NAME};
use sqlx::migrate::Migrator;
use tonic::service::Routes;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/identity");

pub static SERVICE: ServiceSpec = ServiceSpec {
    schema: "identity",
    grpc_name: SERVICE_NAME,
    migrator: &MIGRATOR,
    wire,
};

fn wire(host: &mut ServiceHost) -> Routes {
    let service = grpc::Identity::new(host.pool.clone());
    Routes::new(IdentityServiceServer::with_interceptor(
        service,
        host.require_jwt(),
    ))
}
