//! Prometheus metrics: one recorder per process, rendered at `/metrics`.

use std::sync::OnceLock;

use axum::{Router, routing::get};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Seconds: from a cached read to a slow payment path, and up to the journeys' objectives (a
/// top-up credited within 60 s: `wallet_topup_credit_delay_seconds`, le="60").
const LATENCY_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0,
];

/// Seconds, for the web vitals players' browsers report (`kid_web_vitals_seconds`): finer where
/// the thresholds are (LCP good under 2.5 s, INP under 0.2 s, TTFB under 0.8 s).
const WEB_VITAL_BUCKETS: &[f64] = &[
    0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.0, 1.5, 1.8, 2.0, 2.5, 3.0, 4.0, 5.0, 7.5, 10.0, 20.0,
];

/// Cumulative layout shift scores (`kid_web_vitals_cls`): good under 0.1.
const LAYOUT_SHIFT_BUCKETS: &[f64] = &[0.01, 0.02, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0];

/// Installs the process-wide recorder on first call and returns its handle.
pub fn handle() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            // Latencies as histograms with buckets (not summaries), so p99 can be aggregated
            // across replicas with histogram_quantile.
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), LATENCY_BUCKETS)
                .expect("the latency buckets are not empty")
                // A full name is matched before a suffix.
                .set_buckets_for_metric(
                    Matcher::Full("kid_web_vitals_seconds".to_owned()),
                    WEB_VITAL_BUCKETS,
                )
                .expect("the web vitals' buckets are not empty")
                .set_buckets_for_metric(
                    Matcher::Full("kid_web_vitals_cls".to_owned()),
                    LAYOUT_SHIFT_BUCKETS,
                )
                .expect("the layout shift buckets are not empty")
                .build_recorder();
            let handle = recorder.handle();
            // A recorder installed elsewhere keeps working; ours then renders nothing.
            let _ = metrics::set_global_recorder(recorder);
            handle
        })
        .clone()
}

pub fn router() -> Router {
    let handle = handle();
    Router::new().route("/metrics", get(move || std::future::ready(handle.render())))
}

/// Serves `/metrics` on `port` until `shutdown` (a service binary's own listener).
pub async fn serve(host: &str, port: u16, shutdown: CancellationToken) -> std::io::Result<()> {
    let listener = TcpListener::bind((host, port)).await?;
    axum::serve(listener, router())
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}
