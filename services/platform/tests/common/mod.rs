//! What the plumbing's tests start from: isolated settings, a schema of the test's own (with
//! the outbox and inbox tables the platform's migrations add) and a channel to the broker.

use kid_platform::{Settings, amqp, db};
use lapin::Channel;
use secrecy::ExposeSecret;
use sqlx::{PgPool, migrate::Migrator};

pub async fn stores(schema: &str) -> (Settings, PgPool, Channel) {
    let settings = kid_testing::isolated_settings().await.expect("settings");
    let pool = db::connect(&settings.database, schema).await.expect("pool");
    db::migrate(&pool, schema, &Migrator::with_migrations(Vec::new()))
        .await
        .expect("migrate");
    let connection = amqp::connect(settings.amqp.url.expose_secret(), schema)
        .await
        .expect("amqp");
    let channel = connection.create_channel().await.expect("channel");
    (settings, pool, channel)
}
