//! The REST API under `/api`: one router per resource, merged, behind the CSRF check.

mod auth;
pub mod dev;
mod email_verification;
mod giftcode;
pub mod me;
mod passkeys;
mod payment;
mod personal_data;
mod recharge;
mod recovery;
mod rum;
mod security;
mod sessions;
mod sign_ins;
mod staff;
mod support;
mod transactions;
mod two_factor;
mod webhooks;

use axum::{Router, body::Bytes, http::header, middleware, routing::get};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{csrf, error::ApiError, openapi, state::AppState};

/// Rates (exchange rates, fees, event rates) are exact decimals in the services; the screens
/// only show them.
fn rate(value: &str) -> f64 {
    value.parse().unwrap_or(0.0)
}

/// The `Idempotency-Key` header of a money call: the same key retried does the thing once.
/// Without one, the request gets its own.
fn idempotency_key(headers: &axum::http::HeaderMap) -> Result<String, ApiError> {
    match headers.get("idempotency-key") {
        None => Ok(uuid::Uuid::new_v4().to_string()),
        Some(value) => {
            let key = value.to_str().map(str::trim).unwrap_or_default();
            kid_contracts::money::IdempotencyKey::parse(key)
                .map(kid_contracts::money::IdempotencyKey::into_string)
                .ok_or(ApiError::BadHeader(
                    kid_contracts::messages::coin::MSG_KEY_INVALID,
                ))
        }
    }
}

/// Every documented route, with its description; each resource's routes under its tag.
fn routes() -> OpenApiRouter<AppState> {
    let auth = OpenApiRouter::new()
        .routes(routes!(csrf::csrf_cookie))
        .merge(auth::router())
        .merge(email_verification::router());
    OpenApiRouter::new()
        .merge(tagged("auth", auth))
        .merge(tagged("recovery", recovery::router()))
        .merge(tagged("security", security::router()))
        .merge(tagged("sessions", sessions::router()))
        .merge(tagged("sign-ins", sign_ins::router()))
        .merge(tagged("two-factor", two_factor::router()))
        .merge(tagged("passkeys", passkeys::router()))
        .merge(tagged("me", me::router()))
        .merge(tagged("personal-data", personal_data::router()))
        .merge(tagged("payment", payment::router()))
        .merge(tagged("transactions", transactions::router()))
        .merge(tagged("recharge", recharge::router()))
        .merge(tagged("giftcode", giftcode::router()))
        .merge(tagged("webhooks", webhooks::router()))
        .merge(tagged("rum", rum::router()))
        .merge(tagged("support", support::router()))
        .merge(tagged("staff", staff::router()))
}

/// `router` with each of its operations tagged `tag` in the document (the resource it serves).
fn tagged(tag: &str, mut router: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    for item in router.get_openapi_mut().paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ];
        for operation in operations.into_iter().flatten() {
            operation.tags = Some(vec![tag.to_owned()]);
        }
    }
    router
}

/// The OpenAPI document of the REST API (what `GET /api/openapi.json` serves).
pub fn openapi() -> utoipa::openapi::OpenApi {
    openapi::document(routes().into_openapi())
}

/// Every route, and the development portal's `extra` ones (`dev::router`; the gateway binary
/// has none).
pub fn router(state: AppState, extra: OpenApiRouter<AppState>) -> Router {
    let (router, paths) = routes().merge(extra).split_for_parts();
    // Serialized once: every request answers the same bytes.
    let document =
        Bytes::from(serde_json::to_vec(&openapi::document(paths)).expect("the OpenAPI document serializes"));
    let served = ([(header::CONTENT_TYPE, "application/json")], document);
    router
        .route("/openapi.json", get(move || async move { served.clone() }))
        .fallback(|| async { ApiError::RouteNotFound })
        .layer(middleware::from_fn_with_state(state.clone(), csrf::protect))
        .with_state(state)
}
