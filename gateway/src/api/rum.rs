//! Real-user figures: the SPA measures each page's web vitals (LCP, INP, CLS, TTFB and FCP, by
//! the `web-vitals` library) and sends them with `navigator.sendBeacon` when the page is
//! hidden. They become Prometheus histograms for the dashboard and the slow-LCP alert:
//! `kid_web_vitals_seconds{metric,route}` and `kid_web_vitals_cls{route}`.
//!
//! Anyone may send them (a beacon carries no XSRF header, and a signed-out page is measured
//! too), so what one sender can do is bounded: a small body, a few figures, values a browser
//! can give, a route label from a fixed list (a path the portal does not know, or one holding a
//! token, is `other`: labels stay few), and an allowance per address.

use axum::{extract::State, http::StatusCode};
use serde::Deserialize;
use tower_http::limit::RequestBodyLimitLayer;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    client_address::ClientAddress,
    error::{ApiError, ApiResult, ValidJson},
    state::AppState,
    throttle::PER_BEACON_ADDRESS,
};

/// A page's beacon is a few hundred bytes.
const MAX_BODY: usize = 4 * 1024;
/// One beacon per page holds each metric once or a few times (INP and CLS may be reported again).
const MAX_FIGURES: usize = 16;
/// The longest time a browser's figure can sensibly be (ms): a page that took longer is `+Inf`
/// to nobody.
const MAX_MILLISECONDS: f64 = 120_000.0;
/// The largest layout shift score worth keeping.
const MAX_CLS: f64 = 100.0;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(record))
        .layer(RequestBodyLimitLayer::new(MAX_BODY))
}

/// A page's web vitals.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Beacon {
    /// The page's path (`location.pathname`); only its route is kept.
    #[schema(max_length = 512)]
    path: String,
    #[schema(max_items = 16)]
    figures: Vec<Figure>,
}

/// One figure, as `web-vitals` reports it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct Figure {
    name: Vital,
    /// Milliseconds (at most 120,000), or the unitless score for CLS (at most 100).
    #[schema(minimum = 0, maximum = 120000)]
    value: f64,
}

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
enum Vital {
    Lcp,
    Inp,
    Cls,
    Ttfb,
    Fcp,
}

impl Vital {
    fn label(self) -> &'static str {
        match self {
            Self::Lcp => "LCP",
            Self::Inp => "INP",
            Self::Cls => "CLS",
            Self::Ttfb => "TTFB",
            Self::Fcp => "FCP",
        }
    }
}

/// The routes of the SPA (web/src/app/router.tsx) as dashboard labels. Parameters become their
/// name; tokens in a path (reset, verification and session links) never reach a label.
fn route_label(path: &str) -> &'static str {
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
    match segments.as_slice() {
        [] => "/",
        ["login"] => "/login",
        ["register"] => "/register",
        ["security"] => "/security",
        ["payment"] => "/payment",
        ["payment", "bank-transfer"] => "/payment/bank-transfer",
        ["payment", "e-wallet"] => "/payment/e-wallet",
        ["payment", "card"] => "/payment/card",
        ["recharge"] => "/recharge",
        ["recharge", _] => "/recharge/:productCode",
        ["giftcode"] => "/giftcode",
        ["transactions"] => "/transactions",
        ["transactions", "all"] => "/transactions/all",
        ["transactions", _] => "/transactions/:id",
        ["recovery", "forgot-password"] => "/recovery/forgot-password",
        ["recovery", "forgot-password", _] => "/recovery/forgot-password/:token",
        ["recovery", "forgot-username"] => "/recovery/forgot-username",
        ["email-verification", _] => "/email-verification/:token",
        ["end-session", _] => "/end-session/:token",
        ["support", ..] => "/support",
        ["staff", ..] => "/staff",
        ["account-closed"] => "/account-closed",
        _ => "other",
    }
}

/// Records a page's web vitals. 204; 400 for a body that is not a beacon, or holds a figure no
/// browser gives; 413 over 4 KiB; 429 past 300 beacons from one address in 15 minutes.
#[utoipa::path(
    post,
    path = "/rum",
    request_body = Beacon,
    responses(
        (status = 204, description = "Recorded."),
        (status = 400, description = "Not a beacon, or a figure out of range.", body = crate::error::ErrorBody),
        (status = 413, description = "A body over 4 KiB."),
        (status = 429, description = "Too many beacons from this address.", body = crate::error::ErrorBody),
        (status = 503, description = "The throttle's store is down: the beacon is dropped.", body = crate::error::ErrorBody),
    )
)]
async fn record(
    State(state): State<AppState>,
    client: ClientAddress,
    ValidJson(beacon): ValidJson<Beacon>,
) -> ApiResult<StatusCode> {
    if beacon.path.len() > 512 || beacon.figures.len() > MAX_FIGURES {
        return Err(ApiError::BadRequest("a beacon of a few figures".into()));
    }
    let in_range = beacon.figures.iter().all(|figure| {
        let most = match figure.name {
            Vital::Cls => MAX_CLS,
            _ => MAX_MILLISECONDS,
        };
        figure.value.is_finite() && (0.0..=most).contains(&figure.value)
    });
    if !in_range {
        return Err(ApiError::BadRequest("a figure no browser gives".into()));
    }
    let attempt = state
        .throttle
        .count(&[(PER_BEACON_ADDRESS, &client.text())])
        .await
        .map_err(|error| ApiError::Unavailable(format!("redis: {error}")))?;
    if let Some(retry_after_seconds) = attempt.over_limit {
        return Err(ApiError::TooManyRequests { retry_after_seconds });
    }
    // Counted and kept: every beacon is one against the allowance.
    drop(attempt);
    let route = route_label(&beacon.path);
    for figure in beacon.figures {
        match figure.name {
            Vital::Cls => metrics::histogram!("kid_web_vitals_cls", "route" => route).record(figure.value),
            name => metrics::histogram!("kid_web_vitals_seconds", "metric" => name.label(), "route" => route)
                .record(figure.value / 1000.0),
        }
    }
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_has_a_route_of_the_spa_and_no_token_reaches_a_label() {
        assert_eq!(route_label("/"), "/");
        assert_eq!(route_label(""), "/");
        assert_eq!(route_label("/login/"), "/login");
        assert_eq!(route_label("/recharge/jxonline2"), "/recharge/:productCode");
        assert_eq!(route_label("/transactions/all"), "/transactions/all");
        assert_eq!(route_label("/transactions/0193"), "/transactions/:id");
        assert_eq!(
            route_label("/recovery/forgot-password/s3cr3t-token"),
            "/recovery/forgot-password/:token"
        );
        assert_eq!(
            route_label("/email-verification/s3cr3t"),
            "/email-verification/:token"
        );
        assert_eq!(route_label("/staff/players/42"), "/staff");
        assert_eq!(route_label("/wp-admin/setup.php"), "other");
        assert_eq!(route_label("/login/../../etc/passwd"), "other");
    }
}
