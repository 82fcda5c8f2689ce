//! Serving and calling gRPC: every server gets the health service, a span per call that
//! continues the caller's trace, request metrics, and graceful shutdown.

use std::time::{Duration, Instant};

use tokio::{net::TcpListener, sync::watch};
use tokio_util::sync::CancellationToken;
use tonic::transport::server::TcpIncoming;
use tonic::{
    service::Routes,
    transport::{Channel, Endpoint, Server},
};
use tonic_health::ServingStatus;

use crate::telemetry;

fn call_span(request: &http::Request<()>) -> tracing::Span {
    let span = tracing::info_span!("grpc", path = %request.uri().path());
    telemetry::adopt_parent_from_headers(&span, request.headers());
    span
}

/// Serves `routes` and the gRPC health service on `listener` until `shutdown`; in-flight calls
/// finish first. The process as a whole (service `""`, for liveness) serves while it runs;
/// `names`, the fully qualified services (for readiness), serve while `ready` holds true.
pub async fn serve(
    listener: TcpListener,
    routes: Routes,
    names: &[&str],
    mut ready: watch::Receiver<bool>,
    shutdown: CancellationToken,
) -> Result<(), tonic::transport::Error> {
    let (reporter, health) = tonic_health::server::health_reporter();
    let names: Vec<String> = names.iter().map(|name| (*name).to_owned()).collect();
    let follower = reporter.clone();
    let following = shutdown.clone();
    tokio::spawn(async move {
        loop {
            let status = if *ready.borrow_and_update() {
                ServingStatus::Serving
            } else {
                ServingStatus::NotServing
            };
            for name in &names {
                follower.set_service_status(name, status).await;
            }
            tokio::select! {
                changed = ready.changed() => if changed.is_err() { return },
                () = following.cancelled() => return,
            }
        }
    });
    let stopping = shutdown.clone();
    let mut server = Server::builder()
        .trace_fn(call_span)
        .layer(tower::layer::layer_fn(metrics_layer::CallMetrics::new));
    server
        .add_routes(routes)
        .add_service(health)
        // Without TCP_NODELAY (which tonic sets only on listeners it binds itself) an answer's
        // last small write waits for the caller's delayed ACK: milliseconds per call.
        .serve_with_incoming_shutdown(TcpIncoming::from(listener).with_nodelay(Some(true)), async move {
            stopping.cancelled().await;
            reporter.set_service_status("", ServingStatus::NotServing).await;
        })
        .await
}

/// A failure the caller cannot act on (`what`: "wallet database", say): logged here with its
/// cause, answered as a bare `internal` so no detail of it leaves the service.
pub fn internal(what: &str, error: &dyn std::fmt::Display) -> tonic::Status {
    tracing::error!(%error, what, "internal error");
    tonic::Status::internal("internal error")
}

/// A protobuf timestamp of `at`, as every service's answers carry times.
pub fn timestamp(at: time::OffsetDateTime) -> prost_types::Timestamp {
    prost_types::Timestamp {
        seconds: at.unix_timestamp(),
        nanos: i32::try_from(at.nanosecond()).unwrap_or(0),
    }
}

/// The instant a protobuf timestamp names (`None` out of `time`'s range).
pub fn instant(at: &prost_types::Timestamp) -> Option<time::OffsetDateTime> {
    let nanos = i128::from(at.seconds) * 1_000_000_000 + i128::from(at.nanos);
    time::OffsetDateTime::from_unix_timestamp_nanos(nanos).ok()
}

/// A channel that connects on first use and reconnects after failures.
pub fn lazy_channel(uri: &str) -> Result<Channel, tonic::transport::Error> {
    Ok(Endpoint::from_shared(uri.to_owned())?
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(10))
        .connect_lazy())
}

/// Asks a service's health endpoint whether it serves, within `timeout`.
pub async fn check_health(channel: Channel, timeout: Duration) -> Result<(), String> {
    let mut client = tonic_health::pb::health_client::HealthClient::new(channel);
    let request = tonic_health::pb::HealthCheckRequest {
        service: String::new(),
    };
    match tokio::time::timeout(timeout, client.check(request)).await {
        Ok(Ok(response)) if response.get_ref().status == ServingStatus::Serving as i32 => Ok(()),
        Ok(Ok(response)) => Err(format!("status {}", response.get_ref().status)),
        Ok(Err(status)) => Err(status.message().to_owned()),
        Err(_) => Err(format!("no answer within {timeout:?}")),
    }
}

mod metrics_layer {
    use std::{
        future::Future,
        pin::Pin,
        task::{Context, Poll},
    };

    use super::Instant;

    /// Counts calls and their latency by path and gRPC status.
    #[derive(Clone)]
    pub struct CallMetrics<S> {
        inner: S,
    }

    impl<S> CallMetrics<S> {
        pub fn new(inner: S) -> Self {
            Self { inner }
        }
    }

    impl<S, B, R> tower::Service<http::Request<B>> for CallMetrics<S>
    where
        S: tower::Service<http::Request<B>, Response = http::Response<R>>,
        S::Future: Send + 'static,
    {
        type Response = S::Response;
        type Error = S::Error;
        type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

        fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            self.inner.poll_ready(cx)
        }

        fn call(&mut self, request: http::Request<B>) -> Self::Future {
            let path = request.uri().path().to_owned();
            let started = Instant::now();
            let future = self.inner.call(request);
            Box::pin(async move {
                let response = future.await;
                // The code's name (`Ok`, `NotFound`, `Internal`…), as alert rules read it. A
                // unary answer carries an error's status in its headers; no status there is Ok.
                let code = match &response {
                    Ok(response) => {
                        let number = response
                            .headers()
                            .get("grpc-status")
                            .and_then(|value| value.to_str().ok())
                            .and_then(|value| value.parse::<i32>().ok())
                            .unwrap_or(0);
                        format!("{:?}", tonic::Code::from_i32(number))
                    }
                    Err(_) => "transport".to_owned(),
                };
                metrics::counter!("grpc_server_calls_total", "path" => path.clone(), "code" => code)
                    .increment(1);
                metrics::histogram!("grpc_server_call_seconds", "path" => path)
                    .record(started.elapsed().as_secs_f64());
                response
            })
        }
    }
}
