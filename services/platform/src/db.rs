//! Each service owns one PostgreSQL schema: its pool searches only that schema, and both the
//! shared tables (outbox, inbox) and the service's own are migrated into it at start.

use std::{str::FromStr, time::Duration};

use backon::{ExponentialBuilder, Retryable};
use secrecy::ExposeSecret;
use sqlx::{
    AssertSqlSafe, Connection, Executor, PgConnection, PgPool,
    migrate::Migrator,
    postgres::{PgConnectOptions, PgPoolOptions},
};

use tokio_util::sync::CancellationToken;

use crate::config::DatabaseSettings;

pub static PLATFORM_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/platform");

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("schema name {0:?} is not a lower-case identifier")]
    SchemaName(String),
    #[error("cannot connect to PostgreSQL")]
    Connect(#[source] sqlx::Error),
    #[error("stopped while waiting for PostgreSQL")]
    Stopped,
    #[error("migrating schema {schema} failed")]
    Migrate {
        schema: String,
        #[source]
        source: sqlx::migrate::MigrateError,
    },
}

fn check_schema_name(schema: &str) -> Result<(), DbError> {
    let mut chars = schema.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if valid {
        Ok(())
    } else {
        Err(DbError::SchemaName(schema.to_owned()))
    }
}

/// A pool whose connections search `schema` only.
pub async fn connect(settings: &DatabaseSettings, schema: &str) -> Result<PgPool, DbError> {
    check_schema_name(schema)?;
    let options = PgConnectOptions::from_str(settings.url.expose_secret())
        .map_err(DbError::Connect)?
        .options([("search_path", schema)]);
    PgPoolOptions::new()
        .max_connections(settings.max_connections)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with(options)
        .await
        .map_err(DbError::Connect)
}

/// Whether PostgreSQL may answer later: it is not reachable yet, or is starting, shutting down
/// or out of connections. A refused password or a missing database stays refused.
fn may_come_up(error: &DbError) -> bool {
    let DbError::Connect(error) = error else {
        return false;
    };
    match error {
        sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut => true,
        // Class 08: connection exception; 57P0x: shutting down, starting up; 53300: too many
        // connections.
        sqlx::Error::Database(error) => error
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P") || code == "53300"),
        _ => false,
    }
}

/// [`connect`], retried with backoff (up to 10 s apart) while PostgreSQL may come up, until it
/// does or `shutdown`: a service started before its database waits for it, unready, instead of
/// failing and being restarted in a loop.
pub async fn connect_when_up(
    settings: &DatabaseSettings,
    schema: &str,
    shutdown: &CancellationToken,
) -> Result<PgPool, DbError> {
    let backoff = ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(200))
        .with_max_delay(Duration::from_secs(10))
        .with_jitter()
        .without_max_times();
    let connected = (|| connect(settings, schema))
        .retry(backoff)
        .sleep(tokio::time::sleep)
        .when(may_come_up)
        .notify(|error, wait| {
            tracing::warn!(schema, error = %error, cause = ?std::error::Error::source(error), ?wait, "PostgreSQL not reachable yet; waiting");
        });
    tokio::select! {
        connected = connected => connected,
        () = shutdown.cancelled() => Err(DbError::Stopped),
    }
}

/// A connection to the server's `postgres` database, for creating databases.
pub async fn server_connection(url: &str) -> Result<PgConnection, DbError> {
    let options = PgConnectOptions::from_str(url)
        .map_err(DbError::Connect)?
        .database("postgres");
    PgConnection::connect_with(&options)
        .await
        .map_err(DbError::Connect)
}

/// Creates the configured database when it does not exist yet.
pub async fn ensure_database(settings: &DatabaseSettings) -> Result<(), DbError> {
    let url = settings.url.expose_secret();
    let options = PgConnectOptions::from_str(url).map_err(DbError::Connect)?;
    let name = options.get_database().unwrap_or("postgres").to_owned();
    let mut server = server_connection(url).await?;
    let exists: Option<i32> = sqlx::query_scalar("select 1 from pg_database where datname = $1")
        .bind(&name)
        .fetch_optional(&mut server)
        .await
        .map_err(DbError::Connect)?;
    if exists.is_none() {
        // Quoted as one identifier; the name comes from our own configuration.
        let create = format!(r#"create database "{}""#, name.replace('"', "\"\""));
        server
            .execute(AssertSqlSafe(create))
            .await
            .map_err(DbError::Connect)?;
        tracing::info!(database = name, "created database");
    }
    Ok(())
}

/// Creates the schema if needed, then applies the platform's tables and the service's own
/// migrations, each tracked in its own table inside the schema.
pub async fn migrate(pool: &PgPool, schema: &str, service: &Migrator) -> Result<(), DbError> {
    check_schema_name(schema)?;
    let failed = |source| DbError::Migrate {
        schema: schema.to_owned(),
        source,
    };
    let mut platform = clone_migrator(&PLATFORM_MIGRATIONS);
    platform.create_schema(schema.to_owned());
    platform.dangerous_set_table_name(format!("{schema}._platform_migrations"));
    platform.run(pool).await.map_err(failed)?;
    let mut own = clone_migrator(service);
    own.dangerous_set_table_name(format!("{schema}._sqlx_migrations"));
    own.run(pool).await.map_err(failed)
}

/// How many of the platform's and the service's migrations `schema` has not applied yet; 0 when
/// the schema is current. A service in `verify` mode serves only then.
pub async fn pending_migrations(
    pool: &PgPool,
    schema: &str,
    service: &Migrator,
) -> Result<usize, sqlx::Error> {
    let mut pending = 0;
    for (table, migrator) in [
        ("_platform_migrations", &PLATFORM_MIGRATIONS),
        ("_sqlx_migrations", service),
    ] {
        let qualified = format!("{schema}.{table}");
        let applied: Vec<i64> = match sqlx::query_scalar::<_, Option<String>>("select to_regclass($1)::text")
            .bind(&qualified)
            .fetch_one(pool)
            .await?
        {
            // The table name is built from a checked schema name and a constant.
            Some(_) => {
                sqlx::query_scalar(AssertSqlSafe(format!(
                    "select version from {qualified} where success"
                )))
                .fetch_all(pool)
                .await?
            }
            None => Vec::new(),
        };
        pending += migrator
            .iter()
            .filter(|migration| {
                migration.migration_type.is_up_migration() && !applied.contains(&migration.version)
            })
            .count();
    }
    Ok(pending)
}

/// Serialises, until the transaction on `conn` ends, every transaction that takes the lock of
/// `key` (a PostgreSQL advisory lock on its 64-bit hash): for a rule over rows that do not exist
/// yet (a count or a sum a new row must stay under), which no row lock can guard.
pub async fn lock_key(conn: &mut PgConnection, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query!("select pg_advisory_xact_lock(hashtextextended($1, 0))", key)
        .fetch_one(conn)
        .await?;
    Ok(())
}

fn clone_migrator(migrator: &Migrator) -> Migrator {
    Migrator::with_migrations(migrator.iter().cloned().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_names_must_be_plain_identifiers() {
        assert!(check_schema_name("identity").is_ok());
        assert!(check_schema_name("kid_test_1").is_ok());
        assert!(check_schema_name("Identity").is_err());
        assert!(check_schema_name("a;drop table x").is_err());
        assert!(check_schema_name("").is_err());
    }
}
