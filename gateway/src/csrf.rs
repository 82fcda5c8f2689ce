//! CSRF defence for every state-changing API call: the request must come from our own origin
//! and echo its session's XSRF token in `X-XSRF-TOKEN`. Webhooks are exempt: outside parties
//! sign them instead.

use axum::{
    extract::{Request, State},
    http::{HeaderMap, Method, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};
use axum_extra::extract::CookieJar;
use subtle::ConstantTimeEq;

use crate::{
    error::{ApiError, ApiResult},
    session::XSRF_HEADER,
    state::AppState,
};

/// `GET /api/auth/csrf-cookie`: sets `XSRF-TOKEN` for the caller's session, creating an
/// anonymous session when there is none.
pub async fn csrf_cookie(State(state): State<AppState>, jar: CookieJar) -> ApiResult<Response> {
    let session = match state.sessions.from_jar(&jar).await? {
        Some(session) => session,
        None => state.sessions.create().await?,
    };
    Ok((StatusCode::NO_CONTENT, state.sessions.set_cookies(jar, &session)).into_response())
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

fn from_foreign_origin(headers: &HeaderMap, public_origin: &str) -> bool {
    let origin_foreign = headers
        .get("origin")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|origin| origin.trim_end_matches('/') != public_origin);
    let fetch_site_foreign = headers
        .get("sec-fetch-site")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|site| !matches!(site, "same-origin" | "none"));
    origin_foreign || fetch_site_foreign
}

pub async fn protect(
    State(state): State<AppState>,
    jar: CookieJar,
    request: Request,
    next: Next,
) -> Response {
    if is_safe(request.method()) || request.uri().path().starts_with("/webhooks/") {
        return next.run(request).await;
    }
    match check(&state, &jar, request.headers()).await {
        Ok(()) => next.run(request).await,
        Err(error) => error.into_response(),
    }
}

async fn check(state: &AppState, jar: &CookieJar, headers: &HeaderMap) -> ApiResult<()> {
    if from_foreign_origin(headers, &state.public_origin) {
        return Err(ApiError::ForeignOrigin);
    }
    let sent = headers
        .get(XSRF_HEADER)
        .and_then(|value| value.to_str().ok())
        .ok_or(ApiError::CsrfMismatch)?;
    let session = state
        .sessions
        .from_jar(jar)
        .await?
        .ok_or(ApiError::CsrfMismatch)?;
    let expected = session.data.xsrf_token.as_bytes();
    if bool::from(expected.ct_eq(sent.as_bytes())) {
        Ok(())
    } else {
        Err(ApiError::CsrfMismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().expect("header value"));
        }
        map
    }

    #[test]
    fn requests_from_our_origin_or_without_origin_pass() {
        let ours = "http://127.0.0.1:8080";
        assert!(!from_foreign_origin(&headers(&[]), ours));
        assert!(!from_foreign_origin(
            &headers(&[("origin", "http://127.0.0.1:8080")]),
            ours
        ));
        assert!(!from_foreign_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            ours
        ));
    }

    #[test]
    fn requests_from_elsewhere_are_foreign() {
        let ours = "http://127.0.0.1:8080";
        assert!(from_foreign_origin(
            &headers(&[("origin", "https://evil.example")]),
            ours
        ));
        assert!(from_foreign_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            ours
        ));
    }
}
