//! The REST API under `/api`: one router per resource, merged, behind the CSRF check.

mod auth;
mod dev;
mod email_verification;
pub mod me;
mod payment;
mod recharge;
mod recovery;
mod security;
mod sessions;
mod webhooks;

use axum::{Router, middleware, routing::get};

use crate::{csrf, error::ApiError, state::AppState};

/// Rates (exchange rates, fees, event rates) are exact decimals in the services; the screens
/// only show them.
fn rate(value: &str) -> f64 {
    value.parse().unwrap_or(0.0)
}

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/auth/csrf-cookie", get(csrf::csrf_cookie))
        .merge(auth::router())
        .merge(email_verification::router())
        .merge(recovery::router())
        .merge(security::router())
        .merge(sessions::router())
        .merge(me::router())
        .merge(payment::router())
        .merge(recharge::router())
        .merge(webhooks::router())
        .merge(if state.mailbox_dir.is_some() {
            dev::router()
        } else {
            Router::new()
        })
        .fallback(|| async { ApiError::RouteNotFound })
        .layer(middleware::from_fn_with_state(state.clone(), csrf::protect))
        .with_state(state)
}
