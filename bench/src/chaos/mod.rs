//! The reliability suite (`./scripts/chaos`): the release portal under a traffic model of many
//! players, one fault at a time while money moves, and after each scenario a checker that holds
//! the databases and what the clients saw against every way KP could be lost or doubled.

pub mod duplicator;
pub mod faults;
pub mod game;
pub mod invariants;
pub mod network;
pub mod report;
pub mod soak;
pub mod traffic;

use std::{
    fmt::Write as _,
    sync::{Arc, Mutex as StdMutex},
    time::{Duration, Instant},
};

use reqwest::StatusCode;
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;

use crate::portal::Portal;
use game::Answering;
use traffic::{Player, World};

/// What goes wrong in a scenario.
#[derive(Clone, Debug)]
pub enum Fault {
    /// Nothing: the baseline.
    None,
    /// SIGKILL of one process; it is started again as Kubernetes would.
    Kill(&'static str),
    /// RabbitMQ stopped for this long, then started.
    StopRabbitmq(Duration),
    /// Redis killed with SIGKILL and started again from its append-only file.
    RestartRedis,
    RestartPostgres,
    CutConnections,
    /// The network between the gateway and the services turns bad for this long: latency,
    /// jitter and loss (see [`network`]).
    BadNetwork(Duration),
    /// The game answers this way for the whole scenario.
    Game(Answering),
    /// The broker delivers every event twice.
    Duplicates,
    /// Duplicates, with the game's inbox dedupe switched off (`testing.skip_inbox_dedupe`):
    /// the checker must find the coins it grants twice.
    BrokenDedupe,
}

#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub fault: Fault,
}

impl Scenario {
    pub fn new(name: impl Into<String>, fault: Fault) -> Self {
        Self {
            name: name.into(),
            fault,
        }
    }

    /// Whether the checker must find violations: only the scenario that breaks the dedupe.
    pub fn breaks_on_purpose(&self) -> bool {
        matches!(self.fault, Fault::BrokenDedupe)
    }
}

/// One run of a scenario, as the table shows it.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub scenario: String,
    pub round: usize,
    pub requests: u64,
    pub succeeded: u64,
    pub errors: u64,
    /// Answered requests' time, retries each counted apart.
    pub p50: Duration,
    pub p99: Duration,
    pub violations: i64,
    /// What the violations were, by invariant.
    pub broken: Vec<(String, i64)>,
    /// From the fault's end until a player could buy coins again.
    pub recovered_in: Option<Duration>,
    /// From the traffic's end until every order, card and outbox row was finished.
    pub settled_in: Option<Duration>,
    pub restarts: u32,
    pub expected_to_break: bool,
}

impl Outcome {
    /// Whether the run is as it must be: the portal recovered, and no violation (or some,
    /// where the scenario breaks the dedupe on purpose).
    pub fn as_it_must_be(&self) -> bool {
        let recovered = self.recovered_in.is_some();
        if self.expected_to_break {
            // Caught for what it breaks: the game's grants, not anything else.
            recovered
                && self
                    .broken
                    .iter()
                    .any(|(invariant, count)| invariant == invariants::GAME_GRANTS_ONCE && *count > 0)
        } else {
            recovered && self.settled_in.is_some() && self.violations == 0
        }
    }
}

/// Lengths of a scenario's parts.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Traffic before the fault.
    pub lead: Duration,
    /// Traffic after the portal recovered.
    pub tail: Duration,
    /// The longest the portal may take to finish a scenario's work.
    pub settle_limit: Duration,
}

/// The portal, its players and the parts the scenarios switch.
pub struct Suite {
    pub portal: Arc<StdMutex<Portal>>,
    pub world: Arc<World>,
    pub players: Vec<Arc<Mutex<Player>>>,
    /// The player the recovery probe buys coins as.
    pub probe: Arc<Mutex<Player>>,
    pub wallet_db: sqlx::PgPool,
    pub behaviour: game::Behaviour,
    pub duplicator: duplicator::Duplicator,
    /// The impairment of the relays between the gateway and the services.
    pub network: Arc<network::Impairment>,
    pub timing: Timing,
    /// Stops the harness's game (replaced by a broken one for the last scenario).
    pub game_stop: CancellationToken,
}

impl Suite {
    /// Runs `scenario` once: traffic, the fault, recovery, more traffic, then the portal left
    /// to finish and the checker.
    pub async fn run(&mut self, scenario: &Scenario, round: usize) -> anyhow::Result<Outcome> {
        let restarts_before = self.restarts();
        let copies_before = self.duplicator.copies();
        let _ = self.world.journal.stats.take();
        let (players, stop) = self.start_players(None);
        tokio::time::sleep(self.timing.lead).await;

        // A guesser has used up a player's free password attempts: a restart of the store
        // that counts them must not give them back.
        let victim = format!("chaos_victim_{round}");
        if matches!(scenario.fault, Fault::RestartRedis) {
            anyhow::ensure!(
                self.world.guess_until_throttled(&victim).await,
                "twenty wrong passwords for {victim} were never throttled"
            );
        }
        match &scenario.fault {
            Fault::None => {}
            Fault::Kill(name) => lock(&self.portal).kill(name)?,
            Fault::StopRabbitmq(down) => faults::stop_rabbitmq(*down).await?,
            Fault::RestartRedis => faults::crash_redis().await?,
            Fault::RestartPostgres => faults::restart_postgres().await?,
            Fault::CutConnections => {
                faults::cut_connections(&self.wallet_db).await?;
            }
            Fault::BadNetwork(length) => {
                self.network
                    .set(Duration::from_millis(80), Duration::from_millis(40), 5.0);
                tokio::time::sleep(*length).await;
                self.network.clear();
            }
            Fault::Game(answering) => self.behaviour.set(*answering),
            Fault::Duplicates | Fault::BrokenDedupe => self.duplicator.set(true),
        }
        let healed = Instant::now();
        if matches!(scenario.fault, Fault::RestartRedis) {
            self.check_throttle_kept(&victim).await;
        }
        let recovered_in = match self.recovery(Duration::from_secs(120)).await {
            Ok(()) => Some(healed.elapsed()),
            Err(last) => {
                println!("  the probe could not buy coins within 120 s; its last answer: {last}");
                None
            }
        };
        tokio::time::sleep(self.timing.tail).await;
        stop.cancel();
        players.join_all().await;
        self.behaviour.set(Answering::Promptly);
        self.duplicator.set(false);

        // What the broken scenario breaks stays broken: no need to wait long for it.
        let limit = if scenario.breaks_on_purpose() {
            Duration::from_secs(15)
        } else {
            self.timing.settle_limit
        };
        let settled_in = invariants::settle(&self.wallet_db, &self.world.journal, limit).await?;
        let found = invariants::check(&self.wallet_db, &self.world.journal).await?;
        let (requests, succeeded, errors, latencies) = self.world.journal.stats.take();
        self.world
            .journal
            .stats
            .actions
            .store(0, std::sync::atomic::Ordering::SeqCst);
        self.world
            .journal
            .stats
            .failed_requests
            .store(0, std::sync::atomic::Ordering::SeqCst);
        let latency = crate::figures(latencies, Duration::from_secs(1));
        let mut broken: Vec<(String, i64)> = found.into_iter().filter(|(_, count)| *count != 0).collect();
        // A scenario of duplicates that duplicated nothing proves nothing.
        if matches!(scenario.fault, Fault::Duplicates | Fault::BrokenDedupe)
            && self.duplicator.copies() == copies_before
        {
            broken.push((
                "the broker delivered no event twice (the duplicator failed)".into(),
                1,
            ));
        }
        Ok(Outcome {
            scenario: scenario.name.clone(),
            round,
            requests,
            succeeded,
            errors,
            p50: latency.p50,
            p99: latency.p99,
            violations: broken.iter().map(|(_, count)| count).sum(),
            broken,
            recovered_in,
            settled_in,
            restarts: self.restarts() - restarts_before,
            expected_to_break: scenario.breaks_on_purpose(),
        })
    }

    /// Once Redis answers again, one more guess for `victim` must still be throttled.
    async fn check_throttle_kept(&self, victim: &str) {
        for _ in 0..100 {
            match self.world.guess(victim).await {
                Some(StatusCode::TOO_MANY_REQUESTS) => return,
                Some(status) if !status.is_server_error() => {
                    println!("  a guess for {victim} after the restart was answered {status}, not throttled");
                    self.world
                        .journal
                        .forgotten_throttles
                        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    return;
                }
                _ => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
    }

    /// Sets every player playing, at `pace` (flat out when `None`), until the token is
    /// cancelled.
    pub fn start_players(
        &self,
        pace: Option<Arc<traffic::Pace>>,
    ) -> (tokio::task::JoinSet<()>, CancellationToken) {
        let stop = CancellationToken::new();
        let mut players = tokio::task::JoinSet::new();
        for player in &self.players {
            let (world, player, stop, pace) =
                (self.world.clone(), player.clone(), stop.clone(), pace.clone());
            players.spawn(async move { world.play(player, stop, pace).await });
        }
        (players, stop)
    }

    fn restarts(&self) -> u32 {
        lock(&self.portal).restarts().iter().map(|(_, count)| count).sum()
    }

    /// Waits until the probe player can buy coins again (the whole chain: gateway, identity's
    /// session, recharge, the wallet's debit), giving up after `limit`.
    async fn recovery(&self, limit: Duration) -> Result<(), String> {
        let started = Instant::now();
        let mut last = String::from("none");
        while started.elapsed() < limit {
            let bought = {
                let mut probe = self.probe.lock().await;
                self.world.probe_purchase(&mut probe).await
            };
            match bought {
                Some(StatusCode::CREATED) => return Ok(()),
                Some(other) => last = other.to_string(),
                None => last = "no answer".into(),
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        Err(last)
    }
}

/// The portal's lock; a panic elsewhere does not make its processes unreachable.
pub fn lock(portal: &StdMutex<Portal>) -> std::sync::MutexGuard<'_, Portal> {
    portal.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts again, every quarter second, every process that exited or was killed, as the
/// kubelet does, until `shutdown`.
pub fn supervise(portal: Arc<StdMutex<Portal>>, shutdown: CancellationToken) {
    tokio::spawn(async move {
        while !shutdown.is_cancelled() {
            tokio::time::sleep(Duration::from_millis(250)).await;
            match lock(&portal).revive() {
                Ok(revived) if !revived.is_empty() => println!("  restarted {}", revived.join(", ")),
                Ok(_) => {}
                Err(error) => eprintln!("  could not restart a process: {error:#}"),
            }
        }
    });
}

fn seconds(duration: Option<Duration>) -> String {
    duration.map_or_else(|| "never".to_owned(), |d| format!("{:.1} s", d.as_secs_f64()))
}

/// The table's header, in Markdown.
pub const TABLE_HEADER: &str = "| scenario | round | requests | succeeded | client-visible errors | p50 / p99 | invariant violations | recovered in | settled in | restarts |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";

impl Outcome {
    /// The outcome as a row of the Markdown table.
    pub fn markdown(&self) -> String {
        let violations = if self.expected_to_break {
            format!("{} (must be > 0)", self.violations)
        } else {
            self.violations.to_string()
        };
        format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            self.scenario,
            self.round,
            self.requests,
            self.succeeded,
            self.errors,
            crate::report::p50_p99(self.p50, self.p99),
            violations,
            seconds(self.recovered_in),
            seconds(self.settled_in),
            self.restarts
        )
    }

    /// The outcome as a line of the console's table.
    pub fn line(&self) -> String {
        let mut line = format!(
            "{:<34} #{} requests {:>6}  ok {:>6}  errors {:>4}  p50/p99 {:>18}  violations {:>4}  recovered {:>8}  settled {:>8}  restarts {}",
            self.scenario,
            self.round,
            self.requests,
            self.succeeded,
            self.errors,
            crate::report::p50_p99(self.p50, self.p99),
            self.violations,
            seconds(self.recovered_in),
            seconds(self.settled_in),
            self.restarts
        );
        for (invariant, count) in &self.broken {
            let _ = write!(line, "\n    {count} × {invariant}");
        }
        if !self.as_it_must_be() {
            line.push_str("\n    NOT AS IT MUST BE");
        }
        line
    }
}
