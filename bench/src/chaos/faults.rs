//! The faults, each as an operator would meet it: a process killed, the broker stopped, the
//! session store restarted, the database restarted or its connections cut. The shared
//! services are started again the way `scripts/lib.sh` starts them.

use std::{process::Command, time::Duration};

use anyhow::Context;
use sqlx::PgPool;

/// Runs `script` in bash with `scripts/lib.sh` loaded (the working directory is the repository).
fn lib_sh(script: &str) -> anyhow::Result<()> {
    let status = Command::new("bash")
        .arg("-c")
        .arg(format!("source scripts/lib.sh && {script}"))
        .status()
        .with_context(|| format!("running {script}"))?;
    anyhow::ensure!(status.success(), "{script} failed");
    Ok(())
}

fn run(program: &str, args: &[&str]) -> anyhow::Result<()> {
    let output = Command::new(program)
        .args(args)
        .output()
        .with_context(|| format!("running {program}"))?;
    anyhow::ensure!(
        output.status.success(),
        "{program} {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    Ok(())
}

/// Stops RabbitMQ's application (every connection drops, the port closes) for `down`, then
/// starts it again and waits until it serves.
pub async fn stop_rabbitmq(down: Duration) -> anyhow::Result<()> {
    run("rabbitmqctl", &["stop_app"])?;
    tokio::time::sleep(down).await;
    run("rabbitmqctl", &["start_app"])?;
    run("rabbitmqctl", &["await_startup"])?;
    Ok(())
}

/// Kills Redis with SIGKILL, as a crash or an evicted pod does, and starts it again the way
/// `scripts/lib.sh` does: from its append-only file, written every second as production's is
/// (deploy/kubernetes/data/redis.yaml), so a second of writes at most is lost.
pub async fn crash_redis() -> anyhow::Result<()> {
    let pids = Command::new("pidof").arg("redis-server").output()?;
    for pid in String::from_utf8_lossy(&pids.stdout).split_whitespace() {
        run("kill", &["-KILL", pid])?;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    lib_sh("ensure_redis")
}

/// Makes Redis keep what it holds across a restart (the append-only file, synced every
/// second), as production's does, if the running one was started without.
pub fn persist_redis() -> anyhow::Result<()> {
    lib_sh("ensure_redis")
}

/// Restarts PostgreSQL (a fast shutdown: every connection is cut, in-flight transactions roll
/// back).
pub async fn restart_postgres() -> anyhow::Result<()> {
    let version = std::fs::read_dir("/etc/postgresql")?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .max_by_key(|name| name.parse::<u32>().unwrap_or(0))
        .context("no PostgreSQL cluster")?;
    run(
        "pg_ctlcluster",
        &[
            "--skip-systemctl-redirect",
            &version,
            "main",
            "restart",
            "-m",
            "fast",
        ],
    )?;
    lib_sh("ensure_postgres")
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
