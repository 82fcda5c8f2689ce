//! `docs/reliability.md`: what the suite ran, the table of scenarios, and the invariants it
//! checked with what it found.

use std::{fmt::Write as _, time::Duration};

use super::{Outcome, TABLE_HEADER};

pub struct Meta<'a> {
    pub commit: &'a str,
    pub quick: bool,
    pub elapsed: Duration,
    pub players: usize,
    /// Events the broker delivered a second time.
    pub copies: u64,
    pub outcomes: &'a [Outcome],
    /// The checker's last word before the scenario that breaks the dedupe on purpose.
    pub invariants: &'a [(String, i64)],
    pub soak: Option<&'a super::soak::Soak>,
    /// The soak's plot's file name, beside the report.
    pub soak_svg: &'a str,
}

pub fn markdown(meta: &Meta<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Reliability\n");
    let _ = writeln!(
        out,
        "Written by `./scripts/chaos`{}: the release portal as five processes on the local PostgreSQL, \
         Redis and RabbitMQ, {} players at once signing up, topping up by bank transfer and phone card, \
         buying coins on every product (zone 99's game refuses), changing passwords and signing devices \
         out, while one fault at a time breaks the stack. After each scenario the portal is left to \
         finish its work and a checker holds the databases and what every client saw against each way \
         KP could be lost or doubled.\n",
        if meta.quick {
            " --quick (the smoke in `./scripts/test`: each scenario once, short)"
        } else {
            ""
        },
        meta.players
    );
    let _ = writeln!(
        out,
        "- date: {}",
        time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default()
    );
    let _ = writeln!(out, "- commit: {}", meta.commit);
    let _ = writeln!(
        out,
        "- machine: {} cores, {}",
        std::thread::available_parallelism().map_or(0, usize::from),
        crate::report::cpu_model()
    );
    let _ = writeln!(out, "- run time: {:.0} s", meta.elapsed.as_secs_f64());
    let _ = writeln!(out, "- events the broker delivered twice: {}\n", meta.copies);
    let _ = writeln!(out, "## Scenarios\n");
    out.push_str(TABLE_HEADER);
    for outcome in meta.outcomes {
        out.push_str(&outcome.markdown());
    }
    let _ = writeln!(
        out,
        "\n*Requests* counts every HTTP request the clients sent, retries included. *Client-visible \
         errors* are actions a client gave up on after every retry (timeouts and 5xx), which the \
         player would see as an error; refusals by design (a forged signature, an invalid card) are \
         not errors. *Recovered in*: from the fault's end until a probe player could buy coins \
         again. *Settled in*: from the traffic's end until every invariant below holds \
         (every order, card and outbox row finished: the portal is eventually consistent). *Restarts*: processes started again after they exited or were killed.\n"
    );
    let wrong: Vec<&Outcome> = meta.outcomes.iter().filter(|o| !o.as_it_must_be()).collect();
    if wrong.is_empty() {
        let _ = writeln!(
            out,
            "Every scenario ended with 0 violations, and the one that breaks the dedupe on purpose was caught.\n"
        );
    } else {
        let _ = writeln!(out, "**Not as it must be in this run:**\n");
        for outcome in wrong {
            let _ = writeln!(out, "- {} (round {}):", outcome.scenario, outcome.round);
            for (invariant, count) in &outcome.broken {
                let _ = writeln!(out, "  - {count} × {invariant}");
            }
        }
        out.push('\n');
    }
    for outcome in meta.outcomes.iter().filter(|o| o.expected_to_break) {
        let _ = writeln!(out, "What the checker found in \"{}\":\n", outcome.scenario);
        for (invariant, count) in &outcome.broken {
            let _ = writeln!(out, "- {count} × {invariant}");
        }
        out.push('\n');
    }
    if let Some(soak) = meta.soak {
        soak_section(&mut out, soak, meta.soak_svg);
    }
    let _ = writeln!(out, "## Invariants\n");
    let _ = writeln!(
        out,
        "Checked after every scenario; the counts after the last sound one:\n"
    );
    let _ = writeln!(out, "| invariant | violations |\n|---|---:|");
    for (invariant, count) in meta.invariants {
        let _ = writeln!(out, "| {invariant} | {count} |");
    }
    out
}

fn soak_section(out: &mut String, soak: &super::soak::Soak, svg: &str) {
    use super::soak::{LOAD, MEMORY_TOLERANCE};
    let _ = writeln!(out, "## Soak\n");
    let _ = writeln!(
        out,
        "The players flat out reached {:.1} actions/s; the soak held them at {:.0}% of that ({:.1}/s, \
         {:.1}/s achieved) for {:.0} s, sampling each process's resident memory and open sockets. \
         It must end with memory within {:.0}% of the first sample after the warm-up and no request \
         failed.\n",
        soak.peak,
        LOAD * 100.0,
        soak.target,
        soak.achieved,
        soak.length.as_secs_f64(),
        MEMORY_TOLERANCE * 100.0
    );
    let _ = writeln!(out, "![Memory and sockets over the soak]({svg})\n");
    let _ = writeln!(
        out,
        "| process | RSS after warm-up | RSS at the end | change | sockets after warm-up | sockets at the end |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|");
    if let (Some(warm), Some(end)) = (soak.samples.get(soak.warm), soak.samples.last()) {
        for ((name, before), (_, after)) in warm.rss.iter().zip(&end.rss) {
            let sockets = |sample: &super::soak::Sample| {
                sample
                    .sockets
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or(0, |(_, count)| *count)
            };
            let _ = writeln!(
                out,
                "| {name} | {} | {} | {:+.1}% | {} | {} |",
                crate::report::megabytes(*before),
                crate::report::megabytes(*after),
                (*after as f64 / (*before).max(1) as f64 - 1.0) * 100.0,
                sockets(warm),
                sockets(end)
            );
        }
        let _ = writeln!(
            out,
            "| all five | {} | {} | {:+.1}% | {} | {} |",
            crate::report::megabytes(warm.total_rss()),
            crate::report::megabytes(end.total_rss()),
            soak.memory_drift() * 100.0,
            warm.total_sockets(),
            end.total_sockets()
        );
    }
    let _ = writeln!(
        out,
        "\n{} requests, {} answered 5xx or not at all, {} actions given up: {}.\n",
        soak.requests,
        soak.failed_requests,
        soak.errors,
        if soak.holds() {
            "holds"
        } else {
            "**does not hold**"
        }
    );
}
