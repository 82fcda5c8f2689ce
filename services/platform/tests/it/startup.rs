//! Starting before PostgreSQL: a service waits for its database with backoff, unready, instead
//! of failing and being restarted in a loop; what cannot get better (no such database) fails.

use std::time::Duration;

use kid_platform::db::{self, DbError};
use secrecy::{ExposeSecret, SecretString};
use sqlx::{ConnectOptions, postgres::PgConnectOptions};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

/// A loopback address of this test's own: the other tests running at the same time bind
/// 127.0.0.1, so none of them can take the port this test leaves closed (with 127.0.0.1 one
/// did, and the wait ended early on a server that was not PostgreSQL).
const HOST: &str = "127.0.0.77";

/// Settings whose PostgreSQL is at `port` of [`HOST`], the test's database on it.
async fn settings_at(port: u16) -> kid_platform::Settings {
    let mut settings = kid_testing::isolated_settings().await.expect("settings");
    let options: PgConnectOptions = settings.database.url.expose_secret().parse().expect("url");
    settings.database.url = SecretString::from(options.host(HOST).port(port).to_url_lossy().to_string());
    settings
}

/// A port nobody listens on (yet), and no socket takes in the meantime.
async fn free_port() -> u16 {
    kid_testing::unused_port().expect("a port")
}

/// From now on, `port` leads to the real PostgreSQL.
async fn open_the_way(port: u16) {
    let listener = TcpListener::bind((HOST, port)).await.expect("bind");
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut server = TcpStream::connect("127.0.0.1:5432").await.expect("postgres");
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            });
        }
    });
}

#[tokio::test]
async fn a_service_started_before_postgresql_waits_for_it_instead_of_failing() {
    let port = free_port().await;
    let settings = settings_at(port).await;
    let shutdown = CancellationToken::new();
    let waiting = {
        let shutdown = shutdown.clone();
        tokio::spawn(async move { db::connect_when_up(&settings.database, "startup_test", &shutdown).await })
    };
    // Longer than the pool's own acquire timeout (5 s), which would have given up by now.
    tokio::time::sleep(Duration::from_secs(7)).await;
    assert!(!waiting.is_finished(), "gave up while PostgreSQL was unreachable");

    open_the_way(port).await;
    let pool = tokio::time::timeout(Duration::from_secs(30), waiting)
        .await
        .expect("connected within 30 s of PostgreSQL answering")
        .expect("task")
        .expect("a pool");
    let answer: i32 = sqlx::query_scalar("select 1")
        .fetch_one(&pool)
        .await
        .expect("query");
    assert_eq!(answer, 1);
}

#[tokio::test]
async fn a_service_stopped_while_waiting_for_postgresql_stops() {
    let settings = settings_at(free_port().await).await;
    let shutdown = CancellationToken::new();
    let waiting = {
        let shutdown = shutdown.clone();
        tokio::spawn(async move { db::connect_when_up(&settings.database, "startup_test", &shutdown).await })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    shutdown.cancel();
    let stopped = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("stops at once")
        .expect("task");
    assert!(matches!(stopped, Err(DbError::Stopped)), "{stopped:?}");
}

#[tokio::test]
async fn a_database_that_does_not_exist_fails_at_once() {
    let mut settings = kid_testing::isolated_settings().await.expect("settings");
    let options: PgConnectOptions = settings.database.url.expose_secret().parse().expect("url");
    settings.database.url = SecretString::from(
        options
            .database("kid_no_such_database")
            .to_url_lossy()
            .to_string(),
    );
    let refused = tokio::time::timeout(
        Duration::from_secs(10),
        db::connect_when_up(&settings.database, "startup_test", &CancellationToken::new()),
    )
    .await
    .expect("no waiting for what cannot come");
    assert!(matches!(refused, Err(DbError::Connect(_))), "{refused:?}");
}
