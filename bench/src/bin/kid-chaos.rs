//! The reliability suite: starts the release portal as separate processes, plays many players
//! against it, breaks one thing at a time while the money moves, and after each scenario
//! checks that no KP was lost or doubled. Prints the table and writes the report. Run through
//! `./scripts/chaos`, which builds everything it needs.

use std::{
    path::PathBuf,
    sync::{Arc, Mutex as StdMutex},
    time::{Duration, Instant},
};

use anyhow::Context;
use clap::Parser;
use kid_bench::{
    chaos::{
        self, Fault, Outcome, Scenario, Suite, Timing,
        duplicator::Duplicator,
        game, invariants,
        traffic::{Journal, World},
    },
    portal::{Options, Portal},
};
use kid_payment::domain::bank_feed::BankFeed;
use kid_platform::db;
use tokio::sync::Mutex;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

#[derive(Parser)]
#[command(
    about = "Kid's reliability suite: faults injected while money moves, the ledger checked after each"
)]
struct Args {
    /// Directory holding the release binaries (kid-migrate, kid-gateway, kid-<service>).
    #[arg(long)]
    bin: PathBuf,
    /// The built SPA the gateway serves.
    #[arg(long)]
    web_dist: PathBuf,
    /// Where to write the Markdown report.
    #[arg(long)]
    out: PathBuf,
    /// Where processes' logs go.
    #[arg(long)]
    work: PathBuf,
    /// The commit measured, for the report.
    #[arg(long, default_value = "unknown")]
    commit: String,
    /// The smoke: each scenario once, short, with fewer players.
    #[arg(long)]
    quick: bool,
    /// Runs only the scenarios whose name contains this.
    #[arg(long)]
    only: Option<String>,
}

/// The coin orders' deadline the portal is given: short, so that a game that never answers is
/// refunded within a scenario. The late game answers after it ([`game::LATE_BY`]).
const DELIVERY_DEADLINE: Duration = Duration::from_secs(8);
/// Cards are called back this late: a player's card is pending across most faults.
const CARD_CALLBACK_DELAY: Duration = Duration::from_millis(1500);
/// The soak's plot, beside the report.
const SOAK_SVG: &str = "reliability-soak.svg";
/// Each funded player's KP: enough for every coin order of a run.
const FUNDS: i64 = 1_000_000_000;

fn scenarios(quick: bool) -> Vec<Scenario> {
    let broker_down = if quick {
        Duration::from_secs(5)
    } else {
        Duration::from_secs(30)
    };
    let bad_network = if quick {
        Duration::from_secs(4)
    } else {
        Duration::from_secs(20)
    };
    let mut list = vec![Scenario::new("baseline, nothing broken", Fault::None)];
    for name in ["identity", "wallet", "payment", "recharge", "gateway"] {
        list.push(Scenario::new(format!("kill -9 {name}"), Fault::Kill(name)));
    }
    list.extend([
        Scenario::new(
            format!("RabbitMQ stopped {} s", broker_down.as_secs()),
            Fault::StopRabbitmq(broker_down),
        ),
        Scenario::new("Redis killed and restarted", Fault::RestartRedis),
        Scenario::new("PostgreSQL restarted", Fault::RestartPostgres),
        Scenario::new("PostgreSQL connections cut", Fault::CutConnections),
        Scenario::new(
            format!(
                "gateway to services: 80±40 ms, 5% loss for {} s",
                bad_network.as_secs()
            ),
            Fault::BadNetwork(bad_network),
        ),
        Scenario::new("game answers twice", Fault::Game(game::Answering::Twice)),
        Scenario::new(
            "game answers late (refunded order)",
            Fault::Game(game::Answering::Late),
        ),
        Scenario::new("game never answers", Fault::Game(game::Answering::Never)),
        Scenario::new("broker delivers every event twice", Fault::Duplicates),
    ]);
    list
}

fn timing(quick: bool) -> Timing {
    if quick {
        Timing {
            lead: Duration::from_secs(2),
            tail: Duration::from_secs(2),
            settle_limit: Duration::from_secs(60),
        }
    } else {
        Timing {
            lead: Duration::from_secs(5),
            tail: Duration::from_secs(8),
            settle_limit: Duration::from_secs(120),
        }
    }
}

async fn packages(wallet_db: &sqlx::PgPool) -> anyhow::Result<Vec<(String, i64)>> {
    Ok(sqlx::query_as(
        "select product_code, credit from recharge.payable_value where credit <= 100000 order by credit, product_code",
    )
    .fetch_all(wallet_db)
    .await?)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let started = Instant::now();
    chaos::faults::check_own_stores()?;
    std::fs::create_dir_all(&args.work)?;
    let logs = args.work.join("logs");
    let network = Arc::new(chaos::network::Impairment::default());
    let options = Options {
        env: vec![
            (
                "KID_RECHARGE__DELIVERY_DEADLINE_MS".into(),
                DELIVERY_DEADLINE.as_millis().to_string(),
            ),
            ("KID_RECHARGE__SWEEP_INTERVAL_MS".into(), "500".into()),
            ("KID_RECHARGE__REDRIVE_AFTER_MS".into(), "2000".into()),
            ("KID_OUTBOX__POLL_INTERVAL_MS".into(), "200".into()),
        ],
        no_reference_game: true,
        card_callback_delay: Some(CARD_CALLBACK_DELAY),
        gateway_links: Some(network.clone()),
    };
    let portal = Portal::start_with(&args.bin, &args.web_dist, &logs, options).await?;
    let settings = portal.settings.clone();
    let base = portal.base.clone();
    println!(
        "the portal runs at {base}: five release processes (logs in {})",
        logs.display()
    );
    let shutdown = CancellationToken::new();
    let _stop_all = shutdown.clone().drop_guard();

    let game_stop = shutdown.child_token();
    let behaviour = game::Behaviour::default();
    game::start(&settings, behaviour.clone(), game_stop.clone()).await?;
    let duplicator = Duplicator::default();
    duplicator.start(&settings, shutdown.child_token()).await?;
    let portal = Arc::new(StdMutex::new(portal));
    chaos::supervise(portal.clone(), shutdown.child_token());

    let wallet_db = db::connect(&settings.database, "wallet").await?;
    let world = Arc::new(World {
        base: base.clone(),
        feed: BankFeed::from_settings(&settings.payment),
        forger: BankFeed::new(
            settings.payment.bank_feed,
            "not-the-provider's-key".to_owned().into(),
        ),
        packages: packages(&wallet_db).await?,
        journal: Arc::new(Journal::default()),
        run: Uuid::new_v4().simple().to_string()[..8].to_owned(),
    });
    let count = if args.quick { 6 } else { 16 };
    let mut players = Vec::new();
    for n in 0..count {
        players.push(Arc::new(Mutex::new(
            world.sign_up(&format!("chaos_{n:02}")).await?,
        )));
    }
    let probe = Arc::new(Mutex::new(world.sign_up("chaos_probe").await?));
    let rounds = if args.quick { 1 } else { 2 };
    // The players a guesser throttles before Redis restarts, one per round.
    for round in 1..=rounds {
        world.sign_up(&format!("chaos_victim_{round}")).await?;
    }
    let identity_db = db::connect(&settings.database, "identity").await?;
    let registered: Vec<Uuid> = sqlx::query_scalar("select id from user_account")
        .fetch_all(&identity_db)
        .await?;
    let wallet = kid_testing::portal::operator_wallet(&settings, &chaos::lock(&portal).endpoints["wallet"])?;
    kid_bench::load::fund(&wallet, &registered, FUNDS).await?;

    let mut suite = Suite {
        portal: portal.clone(),
        world,
        players,
        probe,
        wallet_db: wallet_db.clone(),
        behaviour,
        duplicator: duplicator.clone(),
        network,
        timing: timing(args.quick),
        game_stop,
    };
    let chosen: Vec<Scenario> = scenarios(args.quick)
        .into_iter()
        .filter(|scenario| {
            args.only
                .as_ref()
                .is_none_or(|only| scenario.name.contains(only.as_str()))
        })
        .collect();
    let mut outcomes: Vec<Outcome> = Vec::new();
    for scenario in &chosen {
        for round in 1..=rounds {
            let outcome = suite
                .run(scenario, round)
                .await
                .with_context(|| scenario.name.clone())?;
            println!("{}", outcome.line());
            outcomes.push(outcome);
        }
    }

    // The soak: 70% of the players' peak for minutes, memory and sockets sampled.
    let soak = if args
        .only
        .as_ref()
        .is_none_or(|only| "soak".contains(only.as_str()))
    {
        let (probe, length, every, warm_up) = if args.quick {
            (
                Duration::from_secs(3),
                Duration::from_secs(20),
                Duration::from_secs(2),
                Duration::from_secs(6),
            )
        } else {
            (
                Duration::from_secs(15),
                Duration::from_secs(600),
                Duration::from_secs(10),
                Duration::from_secs(60),
            )
        };
        let soak = chaos::soak::run(&suite, probe, length, every, warm_up).await?;
        let svg = args.out.with_file_name(SOAK_SVG);
        chaos::soak::plot(&soak, &svg)?;
        println!(
            "soak {:.0} s at {:.1} actions/s (70% of {:.1}): {} requests, {} failed, memory {:+.1}% after the warm-up{}",
            soak.length.as_secs_f64(),
            soak.achieved,
            soak.peak,
            soak.requests,
            soak.failed_requests,
            soak.memory_drift() * 100.0,
            if soak.holds() { "" } else { "  NOT AS IT MUST BE" }
        );
        invariants::settle(&wallet_db, &suite.world.journal, suite.timing.settle_limit).await?;
        Some(soak)
    } else {
        None
    };
    let final_check = invariants::check(&wallet_db, &suite.world.journal).await?;

    // Last, as it leaves the game's ledger broken: the game's dedupe switched off while the
    // broker delivers everything twice. The checker must catch it.
    if args
        .only
        .as_ref()
        .is_none_or(|only| "broken".contains(only.as_str()))
    {
        suite.game_stop.cancel();
        let mut broken = settings.clone();
        broken.testing.skip_inbox_dedupe = true;
        suite.game_stop = shutdown.child_token();
        game::start(&broken, suite.behaviour.clone(), suite.game_stop.clone()).await?;
        let scenario = Scenario::new(
            "broken on purpose: game's inbox dedupe off, every event twice",
            Fault::BrokenDedupe,
        );
        let outcome = suite.run(&scenario, 1).await?;
        println!("{}", outcome.line());
        outcomes.push(outcome);
    }

    let elapsed = started.elapsed();
    let report = chaos::report::markdown(&chaos::report::Meta {
        commit: &args.commit,
        quick: args.quick,
        elapsed,
        players: count,
        copies: duplicator.copies(),
        outcomes: &outcomes,
        invariants: &final_check,
        soak: soak.as_ref(),
        soak_svg: SOAK_SVG,
    });
    std::fs::write(&args.out, &report).with_context(|| format!("writing {}", args.out.display()))?;
    chaos::lock(&portal).stop();
    let wrong: Vec<&Outcome> = outcomes
        .iter()
        .filter(|outcome| !outcome.as_it_must_be())
        .collect();
    println!(
        "\n{} scenario runs in {:.0} s; report written to {}",
        outcomes.len(),
        elapsed.as_secs_f64(),
        args.out.display()
    );
    anyhow::ensure!(
        soak.as_ref().is_none_or(chaos::soak::Soak::holds),
        "the soak does not hold: see {}",
        args.out.display()
    );
    anyhow::ensure!(
        final_check.iter().all(|(_, count)| *count == 0),
        "invariants broken after the soak: see {}",
        args.out.display()
    );
    anyhow::ensure!(
        wrong.is_empty(),
        "{} scenario runs are not as they must be: {}",
        wrong.len(),
        wrong
            .iter()
            .map(|outcome| outcome.scenario.as_str())
            .collect::<Vec<_>>()
            .join("; ")
    );
    Ok(())
}
