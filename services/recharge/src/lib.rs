//! The recharge service: the game catalogue and coin recharge orders delivered to game teams.

pub mod app;
pub mod db;
pub mod domain;
pub mod events;
pub mod grpc;
pub mod reference_game;
pub mod sandbox;

use kid_contracts::{
    recharge::v1::recharge_service_server::{RechargeServiceServer, SERVICE_NAME},
    wallet::v1::wallet_service_client::WalletServiceClient,
};
use kid_platform::{
    auth,
    grpc::lazy_channel,
    inbox::Consumer,
    service::{Gauge, ServiceHost, ServiceSpec},
};
use sqlx::migrate::Migrator;
use tonic::service::Routes;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/recharge");

pub static SERVICE: ServiceSpec = ServiceSpec {
    schema: "recharge",
    grpc_name: SERVICE_NAME,
    migrator: &MIGRATOR,
    queues: |settings| {
        vec![
            events::consumers::results_queue(settings),
            kid_platform::topology::wallet_recharges(settings),
            kid_platform::topology::recharge_accounts(settings),
        ]
    },
    wire,
    // It signs its calls to the wallet with its own key.
    needs: &[
        "services.wallet",
        "jwt.signing_keys.recharge",
        "recharge.giftcode_pepper",
    ],
    callers: &[auth::GATEWAY, auth::OPERATOR],
    gauges: &[
        Gauge {
            name: "recharge_orders_awaiting_delivery",
            query: "select count(*)::double precision from recharge_order where status = 'awaiting_delivery'",
        },
        // A game that stopped answering shows here long before its orders are refunded.
        Gauge {
            name: "recharge_oldest_awaiting_delivery_seconds",
            query: "select coalesce(extract(epoch from now() - min(updated_at)), 0)::double precision
                    from recharge_order where status = 'awaiting_delivery'",
        },
        // A giftcode whose KP the wallet has not confirmed: the sweeper should clear it in
        // seconds; one that stays means the wallet keeps failing the grant.
        Gauge {
            name: "recharge_oldest_giftcode_granting_seconds",
            query: "select coalesce(extract(epoch from now() - min(created_at)), 0)::double precision
                    from giftcode_redemption where status = 'granting'",
        },
        // Items sent to a game that has not acknowledged them: its consumer is down or stuck.
        Gauge {
            name: "recharge_oldest_giftcode_unacknowledged_seconds",
            query: "select coalesce(extract(epoch from now() - min(created_at)), 0)::double precision
                    from giftcode_redemption where status = 'sent'",
        },
    ],
};

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    // Rare events, exported at 0 from the start so their first increase is seen.
    metrics::counter!("recharge_late_deliveries_total").increment(0);
    // The coin-order SLO reads both series from the start.
    for in_time in ["true", "false"] {
        for outcome in ["delivered", "refunded"] {
            metrics::counter!("recharge_orders_finished_total", "outcome" => outcome, "in_time" => in_time)
                .increment(0);
        }
    }
    metrics::counter!("recharge_debit_unconfirmed_total").increment(0);
    metrics::counter!("recharge_giftcode_redemptions_total").increment(0);
    metrics::counter!("recharge_giftcode_grant_unconfirmed_total").increment(0);
    for effect in ["applied", "duplicate", "conflicting", "unknown_grant", "rejected"] {
        metrics::counter!("recharge_giftcode_acknowledgements_total", "effect" => effect).increment(0);
    }
    let settings = host.settings.clone();
    let wallet =
        WalletServiceClient::with_interceptor(lazy_channel(&settings.services.wallet)?, host.attach_jwt());
    let characters = app::characters::Characters::new(&settings);
    let giftcodes = app::giftcodes::Giftcodes::new(
        host.pool.clone(),
        wallet.clone(),
        app::giftcodes::CodeHasher::new(settings.recharge.giftcode_pepper.clone()),
        characters.clone(),
    );
    let orders = app::orders::Orders::new(
        host.pool.clone(),
        wallet,
        settings.recharge.delivery_deadline,
        characters,
    );
    let shutdown = host.shutdown_token();
    host.spawn(
        Consumer::new(
            host.pool.clone(),
            &settings,
            events::consumers::results_queue(&settings),
        )
        .run(events::consumers::GameResults, shutdown.clone()),
    );
    host.spawn(
        Consumer::new(
            host.pool.clone(),
            &settings,
            kid_platform::topology::recharge_accounts(&settings),
        )
        .run(events::consumers::AccountErasures, shutdown.clone()),
    );
    host.spawn(app::sweeper::run(
        orders.clone(),
        giftcodes.clone(),
        settings.recharge.sweep_interval,
        settings.recharge.redrive_after,
        shutdown,
    ));
    Ok(Routes::new(RechargeServiceServer::with_interceptor(
        grpc::Recharge::new(orders, giftcodes),
        host.require_jwt(SERVICE.callers),
    )))
}

/// Development data: zones 99 (the reference game fails its orders) and 98 (it has no
/// character there) on every product, and two multi-use giftcodes, once per account:
/// `KID-WELCOME` (1,000 KP) and `KID-TANTHU` (Phong Thần Online's starter items).
pub async fn seed_development(settings: &kid_platform::Settings) -> anyhow::Result<()> {
    let pool = kid_platform::db::connect(&settings.database, "recharge").await?;
    let added = db::catalogue::seed_test_zones(&mut *pool.acquire().await?).await?;
    if added > 0 {
        tracing::info!(added, "development zones 98 and 99 added to every product");
    }
    // A campaign and its code are added in one transaction: a campaign already there has its
    // code, so a second start adds neither.
    let hasher = app::giftcodes::CodeHasher::new(settings.recharge.giftcode_pepper.clone());
    for (code, campaign) in [
        (app::giftcodes::WELCOME_CODE, app::giftcodes::welcome()),
        (app::giftcodes::STARTER_CODE, app::giftcodes::starter()),
    ] {
        let mut tx = pool.begin().await?;
        if let Some(campaign) = db::giftcodes::insert_campaign(&mut tx, &campaign).await? {
            let normalised = app::giftcodes::normalise(code).map_err(anyhow::Error::msg)?;
            db::giftcodes::insert_codes(&mut tx, campaign, &[hasher.hash(&normalised)], None).await?;
            tracing::info!(code, "development giftcode added");
        }
        tx.commit().await?;
    }
    pool.close().await;
    Ok(())
}
