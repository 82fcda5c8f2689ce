//! The portal as production runs it: `kid-migrate` first, then each service and the gateway as
//! its own release binary and process, configured only through `KID_*` variables, on a fresh
//! database, exchange and Redis prefix. The outside parties (the card aggregator and the
//! reference game) are simulators in the benchmark's own process.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::Context;
use secrecy::ExposeSecret;
use tokio_util::sync::CancellationToken;

use kid_platform::{Settings, grpc, service::ServiceSpec};

/// The services, in the order they start (each reports its spec's gRPC name healthy): the
/// development portal's, whose identity keeps mail in the development mailbox.
fn services() -> [&'static ServiceSpec; 4] {
    kid_launcher::SERVICES
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
    processes: Vec<Process>,
    /// Where the processes' logs go.
    logs: PathBuf,
    _simulators: tokio_util::sync::DropGuard,
}

/// One of the portal's processes, and how to start it again.
struct Process {
    name: &'static str,
    program: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
    child: Child,
    /// How many times it was started again after it exited or was killed.
    restarts: u32,
}

/// How the reliability suite changes the portal the benchmark runs.
#[derive(Default, Clone)]
pub struct Options {
    /// `KID_*` variables every process gets besides the usual ones.
    pub env: Vec<(String, String)>,
    /// Run the reference game in this process (the benchmark); the suite runs its own game.
    pub no_reference_game: bool,
    /// How long the card aggregator's simulator takes to call back, if not the tests' 100 ms.
    pub card_callback_delay: Option<Duration>,
    /// Puts a relay with this impairment between the gateway and each service.
    pub gateway_links: Option<std::sync::Arc<crate::chaos::network::Impairment>>,
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
        Self::start_with(bin, web_dist, logs, Options::default()).await
    }

    /// [`Self::start`], changed by `options`.
    pub async fn start_with(
        bin: &Path,
        web_dist: &Path,
        logs: &Path,
        options: Options,
    ) -> anyhow::Result<Self> {
        kid_platform::install_tls_provider();
        let mut settings = kid_testing::isolated_settings().await?;
        settings.recharge.reference_game = !options.no_reference_game;
        if let Some(delay) = options.card_callback_delay {
            settings.payment.simulator_delay = delay;
        }
        let shutdown = CancellationToken::new();
        let gateway_port = kid_testing::unused_port()?;
        settings.gateway.public_url = format!("http://127.0.0.1:{gateway_port}");
        kid_launcher::start_outside_parties(&mut settings, &format!("127.0.0.1:{gateway_port}"), &shutdown)
            .await?;

        // Bound before the services' ports are chosen: a listener bound on port 0 while a
        // service starts could take the port it was given.
        let mut relays = Vec::new();
        if options.gateway_links.is_some() {
            for _ in services() {
                relays.push(tokio::net::TcpListener::bind("127.0.0.1:0").await?);
            }
        }
        let mut endpoints = BTreeMap::new();
        let mut ports = BTreeMap::new();
        for name in services().map(|spec| spec.schema) {
            let port = kid_testing::unused_port()?;
            ports.insert(name, port);
            endpoints.insert(name, format!("http://127.0.0.1:{port}"));
        }
        let mut common = common_env(&settings, &endpoints);
        common.extend(options.env.iter().cloned());
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
            logs: logs.to_owned(),
            _simulators: shutdown.drop_guard(),
        };
        for name in services().map(|spec| spec.schema) {
            let own = [
                ("KID_GRPC__HOST".to_owned(), "127.0.0.1".to_owned()),
                ("KID_GRPC__PORT".to_owned(), ports[name].to_string()),
                (
                    "KID_METRICS__PORT".to_owned(),
                    kid_testing::unused_port()?.to_string(),
                ),
            ];
            // Identity's production binary sends mail by SMTP only; the harness has no SMTP
            // server, so it runs the same service with the development mailbox (the launcher's
            // `identity`).
            let (binary, args) = match name {
                "identity" => ("kid-launcher".to_owned(), vec!["identity".to_owned()]),
                _ => (format!("kid-{name}"), Vec::new()),
            };
            portal.spawn(bin.join(binary), args, name, &common, &own, logs)?;
        }
        let mut own = vec![
            ("KID_GATEWAY__HOST".to_owned(), "127.0.0.1".to_owned()),
            ("KID_GATEWAY__PORT".to_owned(), gateway_port.to_string()),
            ("KID_GATEWAY__WEB_DIST".to_owned(), web_dist.display().to_string()),
        ];
        if let Some(impairment) = &options.gateway_links {
            for ((name, port), listener) in ports.iter().zip(relays) {
                let relay = crate::chaos::network::relay(
                    listener,
                    ([127, 0, 0, 1], *port).into(),
                    impairment.clone(),
                )?;
                own.push((
                    format!("KID_SERVICES__{}", name.to_uppercase()),
                    format!("http://127.0.0.1:{relay}"),
                ));
            }
        }
        portal.spawn(
            bin.join("kid-gateway"),
            Vec::new(),
            "gateway",
            &common,
            &own,
            logs,
        )?;
        portal.wait_ready().await?;
        Ok(portal)
    }

    fn spawn(
        &mut self,
        program: PathBuf,
        args: Vec<String>,
        name: &'static str,
        common: &[(String, String)],
        own: &[(String, String)],
        logs: &Path,
    ) -> anyhow::Result<()> {
        let env: Vec<(String, String)> = common.iter().chain(own).cloned().collect();
        let child = launch(&program, &args, &env, logs, name)?;
        self.processes.push(Process {
            name,
            program,
            args,
            env,
            child,
            restarts: 0,
        });
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
        for Process { name, child, .. } in &mut self.processes {
            if let Some(status) = child.try_wait()? {
                anyhow::bail!("{name} exited ({status}); see its log");
            }
        }
        Ok(())
    }

    /// Kills `name` with SIGKILL, as a node failure or the OOM killer does, and waits for it.
    pub fn kill(&mut self, name: &str) -> anyhow::Result<()> {
        let process = self.process(name)?;
        process.child.kill()?;
        process.child.wait()?;
        Ok(())
    }

    /// Starts again every process that is not running, as Kubernetes restarts a container
    /// whose process exited; returns their names. Each appends to its earlier logs.
    pub fn revive(&mut self) -> anyhow::Result<Vec<&'static str>> {
        let mut revived = Vec::new();
        for process in &mut self.processes {
            if process.child.try_wait()?.is_some() {
                process.child = launch(
                    &process.program,
                    &process.args,
                    &process.env,
                    &self.logs,
                    process.name,
                )?;
                process.restarts += 1;
                revived.push(process.name);
            }
        }
        Ok(revived)
    }

    /// How many times each process was started again.
    pub fn restarts(&self) -> Vec<(&'static str, u32)> {
        self.processes
            .iter()
            .map(|process| (process.name, process.restarts))
            .collect()
    }

    /// Each process's id, by name.
    pub fn pids(&self) -> Vec<(&'static str, u32)> {
        self.processes
            .iter()
            .map(|process| (process.name, process.child.id()))
            .collect()
    }

    fn process(&mut self, name: &str) -> anyhow::Result<&mut Process> {
        self.processes
            .iter_mut()
            .find(|process| process.name == name)
            .with_context(|| format!("no process {name}"))
    }

    /// Each process's resident memory, in bytes, from /proc.
    pub fn rss(&self) -> anyhow::Result<Vec<(&'static str, u64)>> {
        self.processes
            .iter()
            .map(|Process { name, child, .. }| {
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
        for Process { child, .. } in &self.processes {
            let _ = Command::new("kill")
                .arg("-TERM")
                .arg(child.id().to_string())
                .status();
        }
        for Process { name, child, .. } in &mut self.processes {
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

/// Starts `program` with `args` and `env`, appending its output to `logs/<name>.log` and
/// `.err.log`.
fn launch(
    program: &Path,
    args: &[String],
    env: &[(String, String)],
    logs: &Path,
    name: &str,
) -> anyhow::Result<Child> {
    let append = |file: String| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(logs.join(file))
    };
    Command::new(program)
        .args(args)
        .envs(env.iter().cloned())
        .stdout(Stdio::from(append(format!("{name}.log"))?))
        .stderr(Stdio::from(append(format!("{name}.err.log"))?))
        .spawn()
        .with_context(|| format!("starting {}", program.display()))
}

impl Drop for Portal {
    fn drop(&mut self) {
        self.stop();
    }
}
