//! The faults, each as an operator would meet it: a process killed, the broker stopped, the
//! session store restarted, the database restarted or its connections cut. They break the data
//! stores of the suite's own (`own_stores` in `scripts/lib.sh`, under `KID_OWN_STORES`), never
//! the machine's shared ones, so the suite runs beside everything else that uses those.

use std::{process::Command, time::Duration};

use anyhow::Context;
use sqlx::PgPool;

/// The directory of the suite's own data stores (`scripts/chaos` starts them).
fn own_stores() -> anyhow::Result<String> {
    std::env::var("KID_OWN_STORES").context(
        "KID_OWN_STORES is not set: run the suite through scripts/chaos, which starts its own data stores",
    )
}

/// Applies `fault` to the suite's own stores with `scripts/lib.sh`'s `own_stores` (the working
/// directory is the repository).
fn own_store(fault: &str) -> anyhow::Result<()> {
    let dir = own_stores()?;
    let script = format!("source scripts/lib.sh && own_stores {fault} '{dir}'");
    let status = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .status()
        .with_context(|| format!("running {script}"))?;
    anyhow::ensure!(status.success(), "{script} failed");
    Ok(())
}

/// Fails unless the suite runs against its own data stores: its faults break those.
pub fn check_own_stores() -> anyhow::Result<()> {
    own_stores().map(drop)
}

/// Stops RabbitMQ's application (every connection drops, the port closes) for `down`, then
/// starts it again and waits until it serves.
pub async fn stop_rabbitmq(down: Duration) -> anyhow::Result<()> {
    own_store("stop-rabbitmq")?;
    tokio::time::sleep(down).await;
    own_store("start-rabbitmq")
}

/// Kills Redis with SIGKILL, as a crash or an evicted pod does, and starts it again from its
/// append-only file, written every second as production's is (deploy/kubernetes/data/redis.yaml),
/// so a second of writes at most is lost.
pub async fn crash_redis() -> anyhow::Result<()> {
    own_store("crash-redis")
}

/// Restarts PostgreSQL (a fast shutdown: every connection is cut, in-flight transactions roll
/// back).
pub async fn restart_postgres() -> anyhow::Result<()> {
    own_store("restart-postgres")
}

/// Cuts every connection to the run's database but the caller's, as a failover or an
/// administrator's `pg_terminate_backend` does. Returns how many it cut.
pub async fn cut_connections(pool: &PgPool) -> anyhow::Result<i64> {
    Ok(sqlx::query_scalar(
        "select count(*) filter (where pg_terminate_backend(pid)) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()",
    )
    .fetch_one(pool)
    .await?)
}
