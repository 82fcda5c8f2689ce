//! In Kubernetes the migration job migrates and the services only verify: a service whose
//! schema is behind answers its gRPC readiness check NOT_SERVING (while the process itself is
//! alive), and becomes ready once `kid-migrate` has run, without a restart.

use kid_platform::{config::MigrateMode, grpc, service::Application};
use tokio_util::sync::CancellationToken;
use tonic_health::{
    ServingStatus,
    pb::{HealthCheckRequest, health_client::HealthClient},
};

async fn status(channel: tonic::transport::Channel, service: &str) -> i32 {
    HealthClient::new(channel)
        .check(HealthCheckRequest {
            service: service.to_owned(),
        })
        .await
        .expect("health answers")
        .into_inner()
        .status
}

#[tokio::test]
async fn a_service_is_not_ready_until_the_migration_job_has_run() {
    let mut settings = kid_testing::unmigrated_settings().await.expect("settings");
    settings.database.migrate = MigrateMode::Verify;
    let stop = CancellationToken::new();
    let wallet = Application::build(&kid_wallet::SERVICE, settings.clone(), stop.clone())
        .await
        .expect("the wallet starts on an empty database");
    let channel = grpc::lazy_channel(&format!("http://{}", wallet.address())).expect("channel");
    let task = tokio::spawn(wallet.run_until_stopped());
    let named = "kid.wallet.v1.WalletService";

    assert_eq!(
        status(channel.clone(), "").await,
        ServingStatus::Serving as i32,
        "alive"
    );
    assert_eq!(
        status(channel.clone(), named).await,
        ServingStatus::NotServing as i32,
        "not ready: its schema is behind"
    );

    kid_migrate::migrate_all(&settings)
        .await
        .expect("the job migrates");
    kid_testing::eventually("ready once the schema is current", || async {
        (status(channel.clone(), named).await == ServingStatus::Serving as i32).then_some(())
    })
    .await;

    // Running the job again changes nothing and fails nothing.
    kid_migrate::migrate_all(&settings).await.expect("idempotent");
    stop.cancel();
    task.await.expect("joins").expect("stops cleanly");
}

/// Each test's database is a copy of a template migrated with `kid_testing::SCHEMAS`: the same
/// schemas and migrations as the job applies, or the tests would run against another schema.
#[test]
fn the_tests_template_migrates_what_the_job_migrates() {
    let job: Vec<_> = kid_migrate::SERVICES
        .iter()
        .map(|spec| {
            let checksums: Vec<_> = spec
                .migrator
                .iter()
                .map(|m| (m.version, m.checksum.clone()))
                .collect();
            (spec.schema, checksums)
        })
        .collect();
    let template: Vec<_> = kid_testing::SCHEMAS
        .iter()
        .map(|(schema, migrator)| {
            let checksums: Vec<_> = migrator.iter().map(|m| (m.version, m.checksum.clone())).collect();
            (*schema, checksums)
        })
        .collect();
    assert_eq!(job, template);
}
