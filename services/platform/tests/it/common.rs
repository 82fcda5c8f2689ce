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

/// A TCP path to the broker whose connections can all be cut at once, as a network failure or
/// a broker restart cuts them; it keeps accepting new ones.
pub struct BrokerLink {
    pub port: u16,
    connections: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl BrokerLink {
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("address").port();
        let connections = std::sync::Arc::<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>::default();
        let accepted = connections.clone();
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let link = tokio::spawn(async move {
                    if let Ok(mut broker) = tokio::net::TcpStream::connect("127.0.0.1:5672").await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut broker).await;
                    }
                });
                accepted.lock().expect("link").push(link);
            }
        });
        Self { port, connections }
    }

    /// The broker's URL in `settings`, through the link on `port`.
    pub fn url(settings: &Settings, port: u16) -> String {
        settings
            .amqp
            .url
            .expose_secret()
            .replace(":5672/", &format!(":{port}/"))
    }

    /// Cuts every connection open now.
    pub fn cut(&self) {
        for connection in self.connections.lock().expect("link").drain(..) {
            connection.abort();
        }
    }
}
