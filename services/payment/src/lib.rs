//! The payment service: payment intake: methods, card fees, card orders and the outside parties' webhooks.

pub mod aggregator;
pub mod app;
pub mod db;
pub mod domain;
pub mod events;
pub mod grpc;
pub mod simulator;

use std::sync::Arc;

use secrecy::ExposeSecret;

use aggregator::HttpAggregator;
use kid_contracts::payment::v1::payment_service_server::{PaymentServiceServer, SERVICE_NAME};
use kid_platform::{
    auth,
    service::{Gauge, ServiceHost, ServiceSpec},
    topology,
};
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
    needs: &[
        "payment.bank_feed_secret",
        "payment.card_secret",
        "payment.aggregator_url",
        "payment.partner_id",
    ],
    callers: &[auth::GATEWAY, auth::OPERATOR],
    gauges: &[
        // Money that arrived for no player: support credits it by hand.
        Gauge {
            name: "payment_unmatched_transfers_24h",
            query: "select count(*)::double precision from bank_feed_record
                    where status = 'unmatched' and received_at > now() - interval '24 hours'",
        },
        Gauge {
            name: "payment_card_orders_pending",
            query: "select count(*)::double precision from card_order where status = 'pending'",
        },
        // Kid keeps less of a card than the aggregator does: the card credits more KP than
        // the money it brings.
        Gauge {
            name: "payment_card_fees_below_aggregator",
            query: "select count(*)::double precision from card_fee f
                    join card_provider p on p.code = f.provider
                    join aggregator_fee a on a.provider = f.provider and a.value = f.value
                    where p.enabled and f.fee_percent < a.fee_percent",
        },
        // The aggregator has not called back in ten minutes.
        Gauge {
            name: "payment_card_orders_overdue",
            query: "select count(*)::double precision from card_order
                    where status = 'pending' and submitted_at < now() - interval '10 minutes'",
        },
    ],
};

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    let settings = host.settings.payment.clone();
    let aggregator = HttpAggregator::new(
        &settings.aggregator_url,
        &settings.partner_id,
        settings.card_secret.clone(),
        settings.card_sign,
        settings.aggregator_timeout,
    )?;
    let aggregator: Arc<dyn aggregator::Aggregator> = Arc::new(aggregator);
    // Cards left at 99 are asked about again: a lost callback loses no card.
    host.spawn(app::cards::check_pending(
        host.pool.clone(),
        aggregator.clone(),
        app::cards::pin_seal(settings.card_secret.expose_secret()),
        settings.check_every,
        settings.check_after,
        host.shutdown_token(),
    ));
    host.spawn(app::cards::read_fees(
        host.pool.clone(),
        aggregator.clone(),
        host.shutdown_token(),
    ));
    let service = grpc::Payment::new(host.pool.clone(), settings, aggregator)
        .with_match_threshold(host.settings.wallet.adjustment_approval_kp);
    Ok(Routes::new(PaymentServiceServer::with_interceptor(
        service,
        host.require_jwt(SERVICE.callers),
    )))
}

/// Development data: the placeholder payee accounts, which production keeps disabled (see the
/// migration `placeholder_payees_disabled`), shown again so top-ups can be tried.
pub async fn seed_development(settings: &kid_platform::Settings) -> anyhow::Result<()> {
    let pool = kid_platform::db::connect(&settings.database, "payment").await?;
    let enabled = sqlx::query!(
        "update transfer_method set enabled = true
         where not enabled and (code, account_number) in (
             ('vietcombank', '1023456789'), ('techcombank', '19036677889900'),
             ('momo', '0901234567'), ('viettelpay', '0987654321'))"
    )
    .execute(&pool)
    .await?
    .rows_affected();
    if enabled > 0 {
        tracing::info!(enabled, "development payee accounts enabled");
    }
    pool.close().await;
    Ok(())
}
