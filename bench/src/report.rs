//! The benchmark's table: each figure beside the ceiling measured in the same run, their
//! ratio, the target and whether it is met, printed and written as `docs/performance.md`.

use std::fmt::Write as _;

/// Whether a row meets its target; rows without one (ceilings, information) say nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Met,
    NotMet,
    Information,
}

impl Verdict {
    pub fn of(met: bool) -> Self {
        if met { Self::Met } else { Self::NotMet }
    }

    fn word(self) -> &'static str {
        match self {
            Self::Met => "met",
            Self::NotMet => "NOT MET",
            Self::Information => "",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Row {
    pub measure: String,
    pub figure: String,
    pub ceiling: String,
    pub ratio: String,
    pub target: String,
    pub latency: String,
    pub verdict: Verdict,
}

impl Row {
    /// The row as one line of the console's table.
    pub fn line(&self) -> String {
        format!(
            "{:<58} {:>14}  ceiling {:>14}  ratio {:>5}  target {:<22} {:<20} {}",
            self.measure,
            self.figure,
            self.ceiling,
            self.ratio,
            self.target,
            self.latency,
            self.verdict.word()
        )
    }

    pub fn new(
        measure: impl Into<String>,
        figure: String,
        ceiling: String,
        ratio: String,
        target: &str,
        latency: String,
        verdict: Verdict,
    ) -> Self {
        Self {
            measure: measure.into(),
            figure,
            ceiling,
            ratio,
            target: target.into(),
            latency,
            verdict,
        }
    }
}

/// What the report says about where and when it was measured.
pub struct Context {
    pub date: String,
    pub commit: String,
    pub cores: usize,
    pub cpu: String,
    pub tools: String,
    pub quick: bool,
}

pub fn ratio(figure: f64, ceiling: f64) -> String {
    if ceiling > 0.0 {
        format!("{:.2}", figure / ceiling)
    } else {
        "–".into()
    }
}

pub fn ms(duration: std::time::Duration) -> String {
    let millis = duration.as_secs_f64() * 1000.0;
    if millis < 10.0 {
        format!("{millis:.2} ms")
    } else {
        format!("{millis:.0} ms")
    }
}

pub fn p50_p99(p50: std::time::Duration, p99: std::time::Duration) -> String {
    format!("{} / {}", ms(p50), ms(p99))
}

pub fn per_second(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}/s")
    } else {
        format!("{value:.1}/s")
    }
}

pub fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// The report as Markdown: a heading with where and when, the table, the rows not met.
pub fn markdown(context: &Context, rows: &[Row], notes: &[String]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Performance\n");
    let _ = writeln!(
        out,
        "Written by `./scripts/bench`{}: the release binaries, each service and the gateway as its own \
         process, driven from outside by the benchmark's own clients, on the local PostgreSQL, \
         Redis and RabbitMQ. Each ratio divides a figure by a ceiling measured on the same machine in \
         the same run; absolute figures on this machine vary 1.3–3.5× from run to run, ratios much less.\n",
        if context.quick {
            " --quick (a smoke: one-second phases, figures not meaningful)"
        } else {
            ""
        }
    );
    let _ = writeln!(out, "- date: {}", context.date);
    let _ = writeln!(out, "- commit: {}", context.commit);
    let _ = writeln!(out, "- machine: {} cores, {}", context.cores, context.cpu);
    let _ = writeln!(out, "- tools: {}\n", context.tools);
    let _ = writeln!(
        out,
        "| measure | figure | ceiling (same run) | ratio | target | p50 / p99 | met |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|");
    for row in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            row.measure,
            row.figure,
            row.ceiling,
            row.ratio,
            row.target,
            row.latency,
            match row.verdict {
                Verdict::NotMet => format!("**{}**", row.verdict.word()),
                verdict => verdict.word().to_owned(),
            }
        );
    }
    let missed: Vec<&Row> = rows.iter().filter(|row| row.verdict == Verdict::NotMet).collect();
    let _ = writeln!(
        out,
        "\n{} of {} targets met.",
        rows.iter().filter(|row| row.verdict == Verdict::Met).count(),
        rows.iter()
            .filter(|row| row.verdict != Verdict::Information)
            .count()
    );
    if !missed.is_empty() {
        let _ = writeln!(out, "\nNot met in this run:\n");
        for row in missed {
            let _ = writeln!(out, "- {}: {} (target {})", row.measure, row.figure, row.target);
        }
    }
    if !notes.is_empty() {
        let _ = writeln!(out, "\n## How each figure is taken\n");
        for note in notes {
            let _ = writeln!(out, "- {note}");
        }
    }
    out
}

/// The machine's CPU, as /proc/cpuinfo names it.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("model name"))
                .map(|rest| rest.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}
