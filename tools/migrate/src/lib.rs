//! Every service's schema, migrated in one place: what the migration Job runs before a
//! rollout, and what the development launcher runs before it starts the services.

use anyhow::Context;
use kid_platform::{Settings, service::ServiceSpec};

/// Every service, in the order they start.
pub const SERVICES: [&ServiceSpec; 4] = [
    &kid_identity::SERVICE,
    &kid_wallet::SERVICE,
    &kid_payment::SERVICE,
    &kid_recharge::SERVICE,
];

/// What `kid-migrate` reads that production must be given.
pub const MIGRATE_NEEDS: &[&str] = &["environment", "database.url"];

/// Brings every service's schema up to date: what the migration Job runs before a rollout.
/// Safe to run while services run and from several places at once (PostgreSQL's migration
/// lock orders them); migrations are forward-only and written expand-then-contract.
pub async fn migrate_all(settings: &Settings) -> anyhow::Result<()> {
    for spec in SERVICES {
        let pool = kid_platform::db::connect(&settings.database, spec.schema)
            .await
            .with_context(|| format!("{}: database", spec.schema))?;
        kid_platform::db::migrate(&pool, spec.schema, spec.migrator)
            .await
            .with_context(|| format!("{}: migrations", spec.schema))?;
        pool.close().await;
        tracing::info!(schema = spec.schema, "schema is current");
    }
    Ok(())
}

/// Development data, after the migrations, in development only: the placeholder payee accounts
/// enabled (bank transfers can be tried) and zone 99 (which the reference game fails) on every
/// product. The development launcher runs it, and so does the migration Job of the dev overlay,
/// so a development cluster takes top-ups too.
pub async fn seed_development(settings: &Settings) -> anyhow::Result<()> {
    anyhow::ensure!(
        settings.is_development(),
        "development data is only for development"
    );
    kid_recharge::seed_development(settings)
        .await
        .context("seeding the development zones")?;
    kid_payment::seed_development(settings)
        .await
        .context("seeding the development payee accounts")
}
