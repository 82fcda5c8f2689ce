//! The wallet service: the KP ledger: accounts, transactions, balances, debt and partner tiers.

pub mod grpc;

use kid_platform::service::{ServiceHost, ServiceSpec};
use kid_proto::wallet::v1::wallet_service_server::{SERVICE_NAME, WalletServiceServer};
use sqlx::migrate::Migrator;
use tonic::service::Routes;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/wallet");

pub static SERVICE: ServiceSpec = ServiceSpec {
    schema: "wallet",
    grpc_name: SERVICE_NAME,
    migrator: &MIGRATOR,
    wire,
};

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    let service = grpc::Wallet::new(host.pool.clone());
    Ok(Routes::new(WalletServiceServer::with_interceptor(
        service,
        host.require_jwt(),
    )))
}
