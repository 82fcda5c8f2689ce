//! The wallet service: the KP ledger: accounts, transactions, balances, debt and partner tiers.

pub mod app;
pub mod db;
pub mod domain;
pub mod events;
pub mod grpc;
pub mod seed;

use kid_contracts::wallet::v1::wallet_service_server::{SERVICE_NAME, WalletServiceServer};
use kid_platform::{
    auth,
    service::{Gauge, ServiceHost, ServiceSpec},
};
use sqlx::migrate::Migrator;
use tonic::service::Routes;

pub static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/wallet");

pub static SERVICE: ServiceSpec = ServiceSpec {
    schema: "wallet",
    grpc_name: SERVICE_NAME,
    migrator: &MIGRATOR,
    queues: |settings| {
        vec![
            events::partner_queue(settings),
            kid_platform::topology::wallet_topups(settings),
            kid_platform::topology::wallet_recharges(settings),
        ]
    },
    wire,
    // Payment credits and recalls, recharge debits and refunds, the gateway reads.
    needs: &["jwt.public_keys.payment", "jwt.public_keys.recharge"],
    callers: &[auth::GATEWAY, auth::PAYMENT, auth::RECHARGE, auth::OPERATOR],
    gauges: &[
        // Corrections whose credit has not come for an hour, or that could not be applied.
        Gauge {
            name: "wallet_corrections_stuck",
            query: "select count(*)::double precision from held_correction
                    where last_error is not null or held_at < now() - interval '1 hour'",
        },
    ],
};

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    let ledger = app::Ledger::new();
    let shutdown = host.shutdown_token();
    host.spawn(events::consume_partner_recalculations(
        host.pool.clone(),
        host.settings.clone(),
        shutdown.clone(),
    ));
    for queue in [
        kid_platform::topology::wallet_topups(&host.settings),
        kid_platform::topology::wallet_recharges(&host.settings),
    ] {
        host.spawn(events::consume_ledger_events(
            host.pool.clone(),
            ledger.clone(),
            host.settings.clone(),
            queue,
            shutdown.clone(),
        ));
    }
    host.spawn(events::run_daily_schedule(host.pool.clone(), shutdown));
    Ok(Routes::new(WalletServiceServer::with_interceptor(
        grpc::Wallet::new(host.pool.clone(), ledger)
            .with_adjustment_threshold(host.settings.wallet.adjustment_approval_kp),
        host.require_jwt(SERVICE.callers),
    )))
}
