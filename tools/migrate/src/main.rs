//! Migrates every service's schema and exits: the Kubernetes migration Job, run before a new
//! version's services roll out (they run with `KID_DATABASE__MIGRATE=verify` and are not ready
//! until their schema is current). Reads `KID_DATABASE__URL`.

use anyhow::Context;
use kid_migrate::{MIGRATE_NEEDS, migrate_all};
use kid_platform::{Settings, telemetry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = Settings::load_for(MIGRATE_NEEDS).context("loading settings")?;
    let _telemetry = telemetry::init("kid-migrate")?;
    if settings.is_development() {
        kid_platform::db::ensure_database(&settings.database).await?;
    }
    migrate_all(&settings).await
}
