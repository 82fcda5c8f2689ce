//! The gateway: the only HTTP edge. Sessions and CSRF here, everything else over gRPC.

pub mod api;
pub mod captcha;
pub mod client_address;
pub mod csrf;
pub mod error;
pub mod health;
pub mod openapi;
pub mod session;
pub mod state;
pub mod throttle;
pub mod web;

use std::{net::SocketAddr, path::Path, time::Instant};

use anyhow::Context;
use axum::{
    Router,
    extract::{MatchedPath, Request},
    http::{HeaderName, HeaderValue, header},
    middleware::{self, Next},
    response::Response,
    routing::get,
};
use futures::{FutureExt, future::BoxFuture};
use kid_platform::{Settings, config::Environment, telemetry};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tower_http::{set_header::SetResponseHeaderLayer, trace::TraceLayer};
use utoipa_axum::router::OpenApiRouter;

use crate::state::{AppState, Readiness};

const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
     script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/ https://www.googletagmanager.com; \
     frame-src https://www.google.com/recaptcha/; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; \
     connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/// What the gateway binary reads that production must be given.
pub const NEEDS: &[&str] = &[
    "environment",
    "redis.url",
    "jwt.signing_keys.gateway",
    "captcha.secret",
    "gateway.host",
    "gateway.port",
    "gateway.public_url",
    "gateway.web_dist",
    // Behind the Envoy Gateway the TCP peer is the proxy: per-IP throttles need the header it sets.
    "gateway.client_ip_source",
    "services.identity",
    "services.wallet",
    "services.payment",
    "services.recharge",
];

pub struct Gateway {
    listener: TcpListener,
    router: Router,
    shutdown: CancellationToken,
}

impl Gateway {
    /// The gateway binary: binds `settings.gateway` (port 0 picks a free one) and connects to
    /// Redis; ready when Redis answers.
    ///
    /// Boxed here, as `kid_platform::service::Application`'s are and for its reason: polled from
    /// another crate, an async function's body is compiled again in that crate.
    pub fn build(
        settings: Settings,
        shutdown: CancellationToken,
    ) -> BoxFuture<'static, anyhow::Result<Self>> {
        async move {
            let address = format!("{}:{}", settings.gateway.host, settings.gateway.port);
            let listener = TcpListener::bind(&address)
                .await
                .with_context(|| format!("gateway: cannot bind {address}"))?;
            Self::build_on(
                listener,
                settings,
                Readiness::Edge,
                OpenApiRouter::new(),
                shutdown,
            )
            .await
        }
        .boxed()
    }

    /// Serves on a listener already bound, for a caller that must know the address before the
    /// gateway exists (the launcher gives it to the card simulator as the callback address),
    /// with `extra` routes under `/api` (the launcher's development mailbox, `api::dev`).
    pub fn build_on(
        listener: TcpListener,
        settings: Settings,
        readiness: Readiness,
        extra: OpenApiRouter<AppState>,
        shutdown: CancellationToken,
    ) -> BoxFuture<'static, anyhow::Result<Self>> {
        async move {
            kid_platform::install_tls_provider();
            let state = AppState::new(&settings, readiness).await?;
            let router = router(state, &settings, extra);
            if settings.metrics.port != 0 {
                tokio::spawn(kid_platform::metrics::serve(
                    "0.0.0.0",
                    settings.metrics.port,
                    shutdown.clone(),
                ));
            }
            tracing::info!(address = %listener.local_addr()?, "gateway started");
            Ok(Self {
                listener,
                router,
                shutdown,
            })
        }
        .boxed()
    }

    pub fn address(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// Serves until the shutdown token is cancelled (boxed: see `build`).
    pub fn run_until_stopped(self) -> BoxFuture<'static, anyhow::Result<()>> {
        async move {
            axum::serve(
                self.listener,
                self.router.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .with_graceful_shutdown(self.shutdown.cancelled_owned())
            .await
            .context("gateway server")
        }
        .boxed()
    }
}

pub fn router(state: AppState, settings: &Settings, extra: OpenApiRouter<AppState>) -> Router {
    let client_ip_source = state.client_ip_source.clone();
    let mut router = Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz).with_state(state.clone()))
        // Nothing under /api may be kept by a browser or a proxy: it is per player, or a token.
        .nest(
            "/api",
            api::router(state, extra).layer(SetResponseHeaderLayer::overriding(
                header::CACHE_CONTROL,
                HeaderValue::from_static("no-store"),
            )),
        )
        .fallback_service(web::spa(Path::new(&settings.gateway.web_dist)))
        .layer(client_ip_source.into_extension())
        .layer(middleware::from_fn(record_metrics))
        .layer(TraceLayer::new_for_http().make_span_with(|request: &Request| {
            let span = tracing::info_span!("http", method = %request.method(), path = %loggable_path(request.uri().path()));
            telemetry::adopt_parent_from_headers(&span, request.headers());
            span
        }))
        .layer(header_layer(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(header_layer(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(header_layer(header::X_FRAME_OPTIONS, "DENY"))
        // Reset and verification links carry their token in the path: never let it leak.
        .layer(header_layer(header::REFERRER_POLICY, "no-referrer"));
    // With a metrics port of its own (Kubernetes), /metrics stays off the public listener.
    if settings.metrics.port == 0 {
        router = router.merge(kid_platform::metrics::router());
    }
    if settings.environment == Environment::Production {
        router = router.layer(header_layer(
            header::STRICT_TRANSPORT_SECURITY,
            "max-age=31536000; includeSubDomains",
        ));
    }
    router
}

/// Pages and calls whose last path segment is a secret: reset and verification links.
const SECRET_PATH_PREFIXES: &[&str] = &[
    "/recovery/forgot-password/",
    "/email-verification/",
    "/api/auth/reset-password/",
];

/// The request path as spans, logs and traces may keep it: a reset or verification token is
/// replaced by `{token}` (metrics use the route's template, which never holds one).
pub fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    for prefix in SECRET_PATH_PREFIXES {
        if let Some(rest) = path.strip_prefix(prefix)
            && !rest.is_empty()
            && rest != "send-email"
        {
            return format!("{prefix}{{token}}").into();
        }
    }
    path.into()
}

fn header_layer(name: HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

async fn record_metrics(request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!("http_requests_total", "method" => method, "route" => route.clone(), "status" => status).increment(1);
    metrics::histogram!("http_request_seconds", "route" => route).record(started.elapsed().as_secs_f64());
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_in_paths_never_reach_a_span() {
        assert_eq!(
            loggable_path("/recovery/forgot-password/abc123"),
            "/recovery/forgot-password/{token}"
        );
        assert_eq!(
            loggable_path("/api/auth/reset-password/abc123/extra"),
            "/api/auth/reset-password/{token}"
        );
        assert_eq!(
            loggable_path("/email-verification/xyz"),
            "/email-verification/{token}"
        );
        assert_eq!(
            loggable_path("/api/auth/reset-password/send-email"),
            "/api/auth/reset-password/send-email"
        );
        assert_eq!(
            loggable_path("/recovery/forgot-password"),
            "/recovery/forgot-password"
        );
        assert_eq!(loggable_path("/api/me"), "/api/me");
    }
}
