//! The external HTTP load generator: oha (crates.io), run as its own process for a fixed time,
//! its JSON summary read back.

use std::{process::Stdio, time::Duration};

use anyhow::Context;
use serde::Deserialize;

use crate::Figures;

/// One oha run: `connections` closed-loop clients (or `rate` requests/s in all) for `length`.
#[derive(Clone, Debug)]
pub struct Load {
    pub url: String,
    pub connections: usize,
    pub length: Duration,
    pub rate: Option<u32>,
    pub method: &'static str,
    pub headers: Vec<String>,
    pub body: Option<String>,
}

impl Load {
    pub fn get(url: String, connections: usize, length: Duration) -> Self {
        Self {
            url,
            connections,
            length,
            rate: None,
            method: "GET",
            headers: Vec::new(),
            body: None,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    success_rate: f64,
}

#[derive(Deserialize)]
struct Percentiles {
    p50: Option<f64>,
    p99: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    summary: Summary,
    latency_percentiles: Percentiles,
    #[serde(default)]
    status_code_distribution: std::collections::BTreeMap<String, u64>,
}

/// Runs oha for `load.length` and reads its JSON report. `oha` is the binary's path.
/// Its figures count the 2xx answers per second; the latencies are of every answer.
pub async fn run(oha: &str, load: &Load) -> anyhow::Result<Figures> {
    let mut command = tokio::process::Command::new(oha);
    command
        .args(["--no-tui", "--output-format", "json", "-m", load.method])
        .args(["-c", &load.connections.to_string()])
        .args(["-z", &format!("{}ms", load.length.as_millis())]);
    if let Some(rate) = load.rate {
        command.args(["-q", &rate.to_string(), "--latency-correction"]);
    }
    for header in &load.headers {
        command.args(["-H", header]);
    }
    if let Some(body) = &load.body {
        command.args(["-T", "application/json", "-d", body]);
    }
    let output = command
        .arg(&load.url)
        .stdin(Stdio::null())
        .output()
        .await
        .with_context(|| format!("running {oha}"))?;
    anyhow::ensure!(
        output.status.success(),
        "oha failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Report = serde_json::from_slice(&output.stdout).context("reading oha's JSON report")?;
    let total: u64 = report.status_code_distribution.values().sum();
    let ok: u64 = report
        .status_code_distribution
        .iter()
        .filter(|(status, _)| status.starts_with('2'))
        .map(|(_, count)| count)
        .sum();
    let seconds = |value: Option<f64>| Duration::from_secs_f64(value.unwrap_or(0.0).max(0.0));
    anyhow::ensure!(
        total > 0 && report.summary.success_rate > 0.0,
        "oha got no answers from {}",
        load.url
    );
    Ok(Figures {
        tps: ok as f64 / load.length.as_secs_f64(),
        p50: seconds(report.latency_percentiles.p50),
        p99: seconds(report.latency_percentiles.p99),
    })
}
