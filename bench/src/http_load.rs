//! The HTTP loads on one URL with one request (sign-ins, `/healthz`, `/api/me`, the history's
//! pages), sent by the harness's own client (reqwest on hyper, keep-alive) from its own process,
//! outside the portal's: `connections` closed-loop clients, or `rate` requests per second in all
//! spread evenly over them, for a fixed time.
//!
//! At a fixed rate each latency is measured from when the request was due, not from when it
//! could be sent: a slow answer delays the requests behind it on its connection, and that wait
//! is part of what a client at that rate sees (coordinated omission, as wrk2 and oha's
//! `--latency-correction` count it).

use std::time::{Duration, Instant};

use anyhow::Context;
use reqwest::{
    Client, Method,
    header::{HeaderMap, HeaderName, HeaderValue},
};
use tokio::task::JoinSet;

use crate::{Figures, figures};

/// One load: `connections` closed-loop clients (or `rate` requests/s in all) for `length`.
#[derive(Clone, Debug)]
pub struct Load {
    pub url: String,
    pub connections: usize,
    pub length: Duration,
    pub rate: Option<u32>,
    pub method: &'static str,
    /// `Name: value`, as curl takes them.
    pub headers: Vec<String>,
    /// Sent as `application/json`.
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

    fn header_map(&self) -> anyhow::Result<HeaderMap> {
        let mut map = HeaderMap::new();
        for header in &self.headers {
            let (name, value) = header
                .split_once(':')
                .with_context(|| format!("header {header:?} is not `Name: value`"))?;
            map.append(
                HeaderName::from_bytes(name.trim().as_bytes())?,
                HeaderValue::from_str(value.trim())?,
            );
        }
        if self.body.is_some() {
            map.insert(
                reqwest::header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
        }
        Ok(map)
    }
}

/// What one connection saw: every answer's latency, and how many were 2xx.
#[derive(Default)]
struct Seen {
    latencies: Vec<Duration>,
    successes: u64,
    errors: u64,
}

/// Sends `load` and measures it. The rate counts the 2xx answers per second of `load.length`;
/// the latencies are of every answer.
pub async fn run(load: &Load) -> anyhow::Result<Figures> {
    anyhow::ensure!(load.connections > 0, "a load needs a connection");
    let client = Client::builder()
        .pool_max_idle_per_host(load.connections)
        .default_headers(load.header_map()?)
        .build()?;
    let method = Method::from_bytes(load.method.as_bytes())?;
    // Each connection's requests at a fixed rate are this far apart, the connections staggered.
    let interval = load
        .rate
        .map(|rate| Duration::from_secs_f64(load.connections as f64 / f64::from(rate.max(1))));
    let started = Instant::now();
    let end = started + load.length;
    let mut tasks = JoinSet::new();
    for connection in 0..load.connections {
        let (client, method, url, body) = (
            client.clone(),
            method.clone(),
            load.url.clone(),
            load.body.clone(),
        );
        let first = interval.map_or(started, |interval| {
            started + interval.mul_f64(connection as f64 / load.connections as f64)
        });
        tasks.spawn(async move {
            let mut seen = Seen::default();
            let mut due = first;
            loop {
                match interval {
                    Some(_) if due >= end => break,
                    Some(_) => tokio::time::sleep_until(due.into()).await,
                    None if Instant::now() >= end => break,
                    None => due = Instant::now(),
                }
                let mut request = client.request(method.clone(), &url);
                if let Some(body) = &body {
                    request = request.body(body.clone());
                }
                // The body is read whole: an answer counts once the client has all of it.
                let answer = match request.send().await {
                    Ok(response) => {
                        let status = response.status();
                        response.bytes().await.map(|_| status)
                    }
                    Err(error) => Err(error),
                };
                match answer {
                    Ok(status) => {
                        seen.latencies.push(due.elapsed());
                        seen.successes += u64::from(status.is_success());
                    }
                    Err(_) => seen.errors += 1,
                }
                if let Some(interval) = interval {
                    due += interval;
                }
            }
            seen
        });
    }
    let mut all = Seen::default();
    while let Some(seen) = tasks.join_next().await {
        let seen = seen?;
        all.latencies.extend(seen.latencies);
        all.successes += seen.successes;
        all.errors += seen.errors;
    }
    anyhow::ensure!(
        !all.latencies.is_empty(),
        "no answer from {} ({} requests failed)",
        load.url,
        all.errors
    );
    Ok(Figures {
        tps: all.successes as f64 / load.length.as_secs_f64(),
        ..figures(all.latencies, load.length)
    })
}
