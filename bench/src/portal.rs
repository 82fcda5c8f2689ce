//! The portal as production runs it: `kid-migrate` first, then each service and the gateway as
//! its own release binary and process, configured only through `KID_*` variables, on a fresh
//! database, exchange and Redis prefix. The outside parties (the card aggregator and the
//! reference game) are simulators in the benchmark's own process.

use std::{
    collections::BTreeMap,
    net::TcpListener,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::Context;
use secrecy::ExposeSecret;
use tokio_util::sync::CancellationToken;

use kid_platform::{Settings, grpc, service::ServiceSpec};

/// The services, in the order they start (each reports its spec's gRPC name healthy).
fn services() -> [&'static ServiceSpec; 4] {
    [
        &kid_identity::SERVICE,
        &kid_wallet::SERVICE,
        &kid_payment::SERVICE,
        &kid_recharge::SERVICE,
    ]
}

/// How long a process may take to answer healthy after it starts.
const START_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Portal {
    /// `http://127.0.0.1:<port>` of the gateway.
    pub base: String,
    /// The settings the processes were given (the benchmark's clients and simulators use them).
    pub settings: Settings,
    /// gRPC endpoint of each service, by name.
    pub endpoints: BTreeMap<&'static str, String>,
    processes: Vec<(&'static str, Child)>,
    _simulators: tokio_util::sync::DropGuard,
}

fn free_port() -> anyhow::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The variables every process shares, from `settings` (production's RUST_LOG and pool size;
/// the development secrets, so the dev captcha token and the simulators' keys work).
fn common_env(settings: &Settings, endpoints: &BTreeMap<&'static str, String>) -> Vec<(String, String)> {
    let mut env = vec![
        ("RUST_LOG".into(), "info".into()),
        ("KID_ENVIRONMENT".into(), "development".into()),
        (
            "KID_DATABASE__URL".into(),
            settings.database.url.expose_secret().to_owned(),
        ),
        ("KID_DATABASE__MAX_CONNECTIONS".into(), "10".into()),
        ("KID_DATABASE__MIGRATE".into(), "verify".into()),
        ("KID_REDIS__KEY_PREFIX".into(), settings.redis.key_prefix.clone()),
        ("KID_AMQP__EXCHANGE".into(), settings.amqp.exchange.clone()),
        ("KID_AMQP__QUEUE_EXPIRES_MS".into(), "60000".into()),
        ("KID_MAIL__MAILBOX_DIR".into(), settings.mail.mailbox_dir.clone()),
        (
            "KID_PAYMENT__AGGREGATOR_URL".into(),
            settings.payment.aggregator_url.clone(),
        ),
        (
            "KID_PAYMENT__CARD_CALLBACK_URL".into(),
            settings.payment.card_callback_url.clone(),
        ),
        (
            "KID_GATEWAY__PUBLIC_URL".into(),
            settings.gateway.public_url.clone(),
        ),
    ];
    for (name, endpoint) in endpoints {
        env.push((format!("KID_SERVICES__{}", name.to_uppercase()), endpoint.clone()));
    }
    env
}

impl Portal {
    /// Migrates a fresh database and starts the four services and the gateway from `bin`
    /// (the release target directory), each logging to `logs/<name>.log`; returns once every
    /// service answers healthy and the gateway ready.
    pub async fn start(bin: &Path, web_dist: &Path, logs: &Path) -> anyhow::Result<Self> {
        kid_platform::install_tls_provider();
        let mut settings = kid_testing::isolated_settings().await?;
        let shutdown = CancellationToken::new();
        let gateway_port = free_port()?;
        settings.gateway.public_url = format!("http://127.0.0.1:{gateway_port}");
        kid_launcher::start_outside_parties(&mut settings, &format!("127.0.0.1:{gateway_port}"), &shutdown)
            .await?;

        let mut endpoints = BTreeMap::new();
        let mut ports = BTreeMap::new();
        for name in services().map(|spec| spec.schema) {
            let port = free_port()?;
            ports.insert(name, port);
            endpoints.insert(name, format!("http://127.0.0.1:{port}"));
        }
        let common = common_env(&settings, &endpoints);
        std::fs::create_dir_all(logs)?;

        let migrated = Command::new(bin.join("kid-migrate"))
            .envs(common.iter().cloned())
            .stdout(Stdio::from(std::fs::File::create(logs.join("migrate.log"))?))
            .stderr(Stdio::from(std::fs::File::create(logs.join("migrate.err.log"))?))
            .status()
            .context("running kid-migrate")?;
        anyhow::ensure!(migrated.success(), "kid-migrate failed: see {}", logs.display());

        let mut portal = Self {
            base: format!("http://127.0.0.1:{gateway_port}"),
            settings,
            endpoints,
            processes: Vec::new(),
            _simulators: shutdown.drop_guard(),
        };
        for name in services().map(|spec| spec.schema) {
            let own = [
                ("KID_GRPC__HOST".to_owned(), "127.0.0.1".to_owned()),
                ("KID_GRPC__PORT".to_owned(), ports[name].to_string()),
                ("KID_METRICS__PORT".to_owned(), free_port()?.to_string()),
            ];
            portal.spawn(bin, &format!("kid-{name}"), name, &common, &own, logs)?;
        }
        let own = [
            ("KID_GATEWAY__HOST".to_owned(), "127.0.0.1".to_owned()),
            ("KID_GATEWAY__PORT".to_owned(), gateway_port.to_string()),
            ("KID_GATEWAY__WEB_DIST".to_owned(), web_dist.display().to_string()),
        ];
        portal.spawn(bin, "kid-gateway", "gateway", &common, &own, logs)?;
        portal.wait_ready().await?;
        Ok(portal)
    }

    fn spawn(
        &mut self,
        bin: &Path,
        binary: &str,
        name: &'static str,
        common: &[(String, String)],
        own: &[(String, String)],
        logs: &Path,
    ) -> anyhow::Result<()> {
        let child = Command::new(bin.join(binary))
            .envs(common.iter().chain(own).cloned())
            .stdout(Stdio::from(std::fs::File::create(
                logs.join(format!("{name}.log")),
            )?))
            .stderr(Stdio::from(std::fs::File::create(
                logs.join(format!("{name}.err.log")),
            )?))
            .spawn()
            .with_context(|| format!("starting {binary}"))?;
        self.processes.push((name, child));
        Ok(())
    }

    async fn wait_ready(&mut self) -> anyhow::Result<()> {
        let started = Instant::now();
        for ServiceSpec {
            schema: name,
            grpc_name,
            ..
        } in services()
        {
            let channel = grpc::lazy_channel(&self.endpoints[name])?;
            let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
            loop {
                self.check_alive()?;
                let answer = health
                    .check(tonic_health::pb::HealthCheckRequest {
                        service: (*grpc_name).to_owned(),
                    })
                    .await;
                if answer.is_ok_and(|answer| answer.into_inner().status == 1) {
                    break;
                }
                anyhow::ensure!(started.elapsed() < START_TIMEOUT, "{name} never answered healthy");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        let http = reqwest::Client::new();
        loop {
            self.check_alive()?;
            let ready = http.get(format!("{}/readyz", self.base)).send().await;
            if ready.is_ok_and(|answer| answer.status().is_success()) {
                return Ok(());
            }
            anyhow::ensure!(
                started.elapsed() < START_TIMEOUT,
                "the gateway never answered ready"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Fails naming the first process that exited.
    pub fn check_alive(&mut self) -> anyhow::Result<()> {
        for (name, child) in &mut self.processes {
            if let Some(status) = child.try_wait()? {
                anyhow::bail!("{name} exited ({status}); see its log");
            }
        }
        Ok(())
    }

    /// Each process's resident memory, in bytes, from /proc.
    pub fn rss(&self) -> anyhow::Result<Vec<(&'static str, u64)>> {
        self.processes
            .iter()
            .map(|(name, child)| {
                let status = std::fs::read_to_string(PathBuf::from(format!("/proc/{}/status", child.id())))?;
                let kib = status
                    .lines()
                    .find_map(|line| line.strip_prefix("VmRSS:"))
                    .and_then(|value| value.split_whitespace().next())
                    .and_then(|value| value.parse::<u64>().ok())
                    .with_context(|| format!("no VmRSS for {name}"))?;
                Ok((*name, kib * 1024))
            })
            .collect()
    }

    /// Stops every process as Kubernetes would (SIGTERM), then waits for them.
    pub fn stop(&mut self) {
        for (_, child) in &self.processes {
            let _ = Command::new("kill")
                .arg("-TERM")
                .arg(child.id().to_string())
                .status();
        }
        for (name, child) in &mut self.processes {
            let deadline = Instant::now() + Duration::from_secs(10);
            while matches!(child.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            if matches!(child.try_wait(), Ok(None)) {
                eprintln!("{name} did not stop on SIGTERM within 10 s; killing it");
                let _ = child.kill();
                let _ = child.wait();
            }
        }
        self.processes.clear();
    }
}

impl Drop for Portal {
    fn drop(&mut self) {
        self.stop();
    }
}
