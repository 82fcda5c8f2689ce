//! Prometheus metrics: one recorder per process, rendered at `/metrics`.

use std::sync::OnceLock;

use axum::{Router, routing::get};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process-wide recorder on first call and returns its handle.
pub fn handle() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new().build_recorder();
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
