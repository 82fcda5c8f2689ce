//! Migrates every service's schema and exits: the Kubernetes migration Job, run before a new
//! version's services roll out (they run with `KID_DATABASE__MIGRATE=verify` and are not ready
//! until their schema is current). Reads `KID_DATABASE__URL`. In development it then seeds the
//! development data (`seed_development`), as the development launcher does.

use anyhow::Context;
use kid_migrate::{MIGRATE_NEEDS, migrate_all, seed_development};
use kid_platform::{Settings, telemetry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = Settings::load_for(MIGRATE_NEEDS).context("loading settings")?;
    let _telemetry = telemetry::init("kid-migrate")?;
    if settings.is_development() {
        kid_platform::db::ensure_database(&settings.database).await?;
    }
    migrate_all(&settings).await?;
    if settings.is_development() {
        seed_development(&settings).await?;
    }
    Ok(())
}
