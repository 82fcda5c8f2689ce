//! The soak: the players at a steady 70% of the rate they reach flat out, for minutes, while
//! each process's resident memory and open sockets are sampled. Memory must end within 10% of
//! where it was after the warm-up, and no request may fail.

use std::{
    path::Path,
    sync::{Arc, atomic::Ordering},
    time::{Duration, Instant},
};

use plotters::prelude::*;

use super::{Suite, lock, traffic::Pace};

/// Of the measured peak.
pub const LOAD: f64 = 0.7;
/// How far memory may end from where it was after the warm-up.
pub const MEMORY_TOLERANCE: f64 = 0.10;

/// One sample of every process.
#[derive(Clone, Debug)]
pub struct Sample {
    pub at: Duration,
    pub rss: Vec<(&'static str, u64)>,
    pub sockets: Vec<(&'static str, usize)>,
}

impl Sample {
    pub fn total_rss(&self) -> u64 {
        self.rss.iter().map(|(_, bytes)| bytes).sum()
    }

    pub fn total_sockets(&self) -> usize {
        self.sockets.iter().map(|(_, count)| count).sum()
    }
}

#[derive(Clone, Debug)]
pub struct Soak {
    /// Actions per second flat out.
    pub peak: f64,
    pub target: f64,
    pub achieved: f64,
    pub length: Duration,
    pub requests: u64,
    /// Requests answered 5xx or not at all, retried or not.
    pub failed_requests: u64,
    /// Actions the clients gave up on.
    pub errors: u64,
    pub samples: Vec<Sample>,
    /// The first sample after the warm-up.
    pub warm: usize,
}

impl Soak {
    /// The end's memory against the warm-up's, as a ratio less one.
    pub fn memory_drift(&self) -> f64 {
        match (self.samples.get(self.warm), self.samples.last()) {
            (Some(warm), Some(end)) if warm.total_rss() > 0 => {
                end.total_rss() as f64 / warm.total_rss() as f64 - 1.0
            }
            _ => f64::NAN,
        }
    }

    pub fn holds(&self) -> bool {
        self.memory_drift().abs() <= MEMORY_TOLERANCE && self.failed_requests == 0 && self.errors == 0
    }
}

/// Sockets `pid` holds open, from /proc.
fn sockets(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter(|entry| {
                std::fs::read_link(entry.path())
                    .is_ok_and(|target| target.to_string_lossy().starts_with("socket:"))
            })
            .count()
    })
}

fn sample(suite: &Suite, started: Instant) -> anyhow::Result<Sample> {
    let portal = lock(&suite.portal);
    Ok(Sample {
        at: started.elapsed(),
        rss: portal.rss()?,
        sockets: portal
            .pids()
            .into_iter()
            .map(|(name, pid)| (name, sockets(pid)))
            .collect(),
    })
}

/// Runs the players for `length` at `pace` (flat out when `None`); returns the actions per
/// second they reached and the samples taken every `every`.
async fn drive(
    suite: &Suite,
    length: Duration,
    pace: Option<Arc<Pace>>,
    every: Duration,
) -> anyhow::Result<(f64, Vec<Sample>)> {
    let stats = &suite.world.journal.stats;
    stats.actions.store(0, Ordering::SeqCst);
    let (players, stop) = suite.start_players(pace);
    let started = Instant::now();
    let mut samples = vec![sample(suite, started)?];
    while started.elapsed() < length {
        tokio::time::sleep(every.min(length.saturating_sub(started.elapsed()))).await;
        samples.push(sample(suite, started)?);
    }
    stop.cancel();
    players.join_all().await;
    let rate = stats.actions.swap(0, Ordering::SeqCst) as f64 / started.elapsed().as_secs_f64();
    Ok((rate, samples))
}

/// Measures the players' peak for `probe`, then soaks at [`LOAD`] of it for `length`,
/// sampling every `every`; the samples before `warm_up` are the warm-up.
pub async fn run(
    suite: &Suite,
    probe: Duration,
    length: Duration,
    every: Duration,
    warm_up: Duration,
) -> anyhow::Result<Soak> {
    let stats = &suite.world.journal.stats;
    let (peak, _) = drive(suite, probe, None, probe).await?;
    let _ = stats.take();
    stats.failed_requests.store(0, Ordering::SeqCst);
    let target = peak * LOAD;
    let (achieved, samples) = drive(suite, length, Some(Arc::new(Pace::new(target))), every).await?;
    let (requests, _, errors, _) = stats.take();
    let failed_requests = stats.failed_requests.swap(0, Ordering::SeqCst);
    let warm = samples.iter().position(|s| s.at >= warm_up).unwrap_or(0);
    Ok(Soak {
        peak,
        target,
        achieved,
        length,
        requests,
        failed_requests,
        errors,
        samples,
        warm,
    })
}

/// Draws each process's memory (MB) and all their open sockets over the soak, as an SVG.
pub fn plot(soak: &Soak, path: &Path) -> anyhow::Result<()> {
    let to_error = |error: &dyn std::fmt::Display| anyhow::anyhow!("plotting the soak: {error}");
    let root = SVGBackend::new(path, (720, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| to_error(&e))?;
    let (top, bottom) = root.split_vertically(260);
    let minutes = |at: Duration| at.as_secs_f64() / 60.0;
    let end = soak.samples.last().map_or(1.0, |s| minutes(s.at)).max(0.1);
    let most_rss = soak
        .samples
        .iter()
        .flat_map(|s| s.rss.iter().map(|(_, bytes)| *bytes as f64 / 1e6))
        .fold(1.0, f64::max);
    let mut memory = ChartBuilder::on(&top)
        .caption("Resident memory per process (MB)", ("sans-serif", 14))
        .margin(8)
        .x_label_area_size(20)
        .y_label_area_size(40)
        .build_cartesian_2d(0.0..end, 0.0..most_rss * 1.15)
        .map_err(|e| to_error(&e))?;
    memory.configure_mesh().draw().map_err(|e| to_error(&e))?;
    let names: Vec<&'static str> = soak
        .samples
        .first()
        .map(|s| s.rss.iter().map(|(name, _)| *name).collect())
        .unwrap_or_default();
    for (index, name) in names.iter().enumerate() {
        let color = Palette99::pick(index).to_rgba();
        let points = soak.samples.iter().filter_map(|s| {
            s.rss
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, bytes)| (minutes(s.at), *bytes as f64 / 1e6))
        });
        memory
            .draw_series(LineSeries::new(points, color.stroke_width(2)))
            .map_err(|e| to_error(&e))?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
    }
    memory
        .configure_series_labels()
        .position(SeriesLabelPosition::MiddleRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| to_error(&e))?;
    let most_sockets = soak.samples.iter().map(Sample::total_sockets).max().unwrap_or(1) as f64;
    let mut sockets = ChartBuilder::on(&bottom)
        .caption(
            "Open sockets, all five processes (minutes on the x axis)",
            ("sans-serif", 14),
        )
        .margin(8)
        .x_label_area_size(20)
        .y_label_area_size(40)
        .build_cartesian_2d(0.0..end, 0.0..most_sockets * 1.2)
        .map_err(|e| to_error(&e))?;
    sockets.configure_mesh().draw().map_err(|e| to_error(&e))?;
    sockets
        .draw_series(LineSeries::new(
            soak.samples
                .iter()
                .map(|s| (minutes(s.at), s.total_sockets() as f64)),
            BLUE.stroke_width(2),
        ))
        .map_err(|e| to_error(&e))?;
    root.present().map_err(|e| to_error(&e))?;
    Ok(())
}
