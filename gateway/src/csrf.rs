//! CSRF defence for every state-changing API call: the request must come from our own origin
//! and echo its XSRF token in `X-XSRF-TOKEN`. A signed-in caller's token is its session's. An
//! anonymous caller keeps no state on the server: its token is a signed double-submit cookie
//! (issue time, random nonce, HMAC), valid for two hours, and the header must repeat the cookie.
//! Webhooks are exempt: outside parties sign them instead. So are web-vitals beacons
//! (`/rum`): `navigator.sendBeacon` sets no header, and a beacon changes nothing but a figure.

use std::time::Duration;

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Sha256;

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
    session::{XSRF_COOKIE, XSRF_HEADER},
    state::AppState,
};

/// How long an anonymous token is accepted.
const ANONYMOUS_LIFETIME: Duration = Duration::from_secs(2 * 60 * 60);

/// Signs and checks anonymous XSRF tokens.
#[derive(Clone)]
pub struct AnonymousTokens {
    key: [u8; 32],
}

impl AnonymousTokens {
    /// The key is derived from `secret` (the gateway's signing secret), labelled so it signs
    /// nothing else.
    pub fn derived_from(secret: &[u8]) -> Self {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
        mac.update(b"kid-gateway anonymous xsrf v1");
        Self {
            key: mac.finalize().into_bytes().into(),
        }
    }

    fn mac(&self, payload: &str) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes a key of any length");
        mac.update(payload.as_bytes());
        mac
    }

    /// `<issued unix seconds>.<nonce>.<signature>`, URL-safe.
    pub fn issue(&self, now: i64) -> String {
        let mut nonce = [0u8; 16];
        rand::rng().fill_bytes(&mut nonce);
        let payload = format!("{now}.{}", URL_SAFE_NO_PAD.encode(nonce));
        let signature = URL_SAFE_NO_PAD.encode(self.mac(&payload).finalize().into_bytes());
        format!("{payload}.{signature}")
    }

    /// Whether we signed `token` less than two hours before `now`.
    pub fn verify(&self, token: &str, now: i64) -> bool {
        let Some((payload, signature)) = token.rsplit_once('.') else {
            return false;
        };
        let Some(issued) = payload
            .split_once('.')
            .and_then(|(issued, _)| issued.parse::<i64>().ok())
        else {
            return false;
        };
        let fresh = (0..ANONYMOUS_LIFETIME.as_secs() as i64).contains(&(now - issued));
        let signed = URL_SAFE_NO_PAD
            .decode(signature)
            .is_ok_and(|signature| self.mac(payload).verify_slice(&signature).is_ok());
        fresh && signed
    }
}

fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// `GET /api/auth/csrf-cookie`: sets `XSRF-TOKEN` for the caller's session or, for an anonymous
/// caller, a signed token that costs the server nothing to keep.
/// Sets the `XSRF-TOKEN` cookie: the session's token when signed in, else a signed anonymous
/// one (nothing is kept on the server for it).
#[utoipa::path(
    get,
    path = "/auth/csrf-cookie",
    responses((status = 204, description = "The XSRF-TOKEN cookie is set."))
)]
pub async fn csrf_cookie(State(state): State<AppState>, jar: CookieJar) -> ApiResult<Response> {
    let jar = match state.sessions.from_jar(&jar).await? {
        Some(session) => state.sessions.set_cookies(jar, &session),
        None => state
            .sessions
            .set_anonymous_xsrf(jar, state.anonymous_tokens.issue(now())),
    };
    Ok((StatusCode::NO_CONTENT, jar).into_response())
}

fn is_safe(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Whether the request comes from a page not on one of `ours` (the public origin, and the
/// origin passkeys live on when that differs).
fn from_foreign_origin(headers: &HeaderMap, ours: &[impl AsRef<str>]) -> bool {
    let origin_foreign = headers
        .get("origin")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|origin| {
            let origin = origin.trim_end_matches('/');
            !ours.iter().any(|ours| ours.as_ref() == origin)
        });
    let fetch_site_foreign = headers
        .get("sec-fetch-site")
        .and_then(|value| value.to_str().ok())
        .is_some_and(|site| !matches!(site, "same-origin" | "none"));
    origin_foreign || fetch_site_foreign
}

/// The calls no XSRF token guards (the API path, without `/api`): webhooks, which their
/// provider signs, and web-vitals beacons, which `navigator.sendBeacon` sends without a header.
pub fn is_exempt(path: &str) -> bool {
    path.starts_with("/webhooks/") || path == "/rum"
}

pub async fn protect(
    State(state): State<AppState>,
    jar: CookieJar,
    request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    if is_safe(request.method()) || is_exempt(path) {
        return next.run(request).await;
    }
    let checked = if path.starts_with("/staff/") {
        check_staff(&state, &jar, request.headers(), path).await
    } else {
        check(&state, &jar, request.headers()).await
    };
    match checked {
        Ok(()) => next.run(request).await,
        Err(error) => error.into_response(),
    }
}

/// The support console's calls: the staff session's token in `X-XSRF-TOKEN`. Signing in (no
/// session yet) takes a signed anonymous token in the console's own XSRF cookie. Any other call
/// without a staff session can act as nobody: it goes on to be answered 401.
async fn check_staff(state: &AppState, jar: &CookieJar, headers: &HeaderMap, path: &str) -> ApiResult<()> {
    if from_foreign_origin(headers, &state.origins) {
        return Err(ApiError::ForeignOrigin);
    }
    let sent = headers.get(XSRF_HEADER).and_then(|value| value.to_str().ok());
    let matches = match (state.staff_sessions.from_jar(jar).await?, sent) {
        (Some(session), Some(sent)) => bool::from(session.data.xsrf_token.as_bytes().ct_eq(sent.as_bytes())),
        (Some(_), None) => false,
        (None, _) if !ANONYMOUS_STAFF_CALLS.contains(&path) => return Ok(()),
        (None, sent) => sent.is_some_and(|sent| {
            jar.get(state.staff_sessions.xsrf_cookie()).is_some_and(|cookie| {
                bool::from(cookie.value().as_bytes().ct_eq(sent.as_bytes()))
                    && state.anonymous_tokens.verify(sent, now())
            })
        }),
    };
    if matches {
        Ok(())
    } else {
        Err(ApiError::CsrfMismatch)
    }
}

/// The console calls made without a staff session: signing in, and enrolling through a link.
pub const ANONYMOUS_STAFF_CALLS: [&str; 3] = [
    "/staff/auth/sign-in",
    "/staff/enrolment/check",
    "/staff/enrolment",
];

async fn check(state: &AppState, jar: &CookieJar, headers: &HeaderMap) -> ApiResult<()> {
    if from_foreign_origin(headers, &state.origins) {
        return Err(ApiError::ForeignOrigin);
    }
    let sent = headers
        .get(XSRF_HEADER)
        .and_then(|value| value.to_str().ok())
        .ok_or(ApiError::CsrfMismatch)?;
    let matches = match state.sessions.from_jar(jar).await? {
        Some(session) => bool::from(session.data.xsrf_token.as_bytes().ct_eq(sent.as_bytes())),
        None => jar.get(XSRF_COOKIE).is_some_and(|cookie| {
            bool::from(cookie.value().as_bytes().ct_eq(sent.as_bytes()))
                && state.anonymous_tokens.verify(sent, now())
        }),
    };
    if matches {
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
        let ours = ["http://127.0.0.1:8080", "http://localhost:8080"];
        assert!(!from_foreign_origin(&headers(&[]), &ours));
        assert!(!from_foreign_origin(
            &headers(&[("origin", "http://localhost:8080")]),
            &ours
        ));
        assert!(!from_foreign_origin(
            &headers(&[("origin", "http://127.0.0.1:8080")]),
            &ours
        ));
        assert!(!from_foreign_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            &ours
        ));
    }

    #[test]
    fn anonymous_tokens_verify_only_when_ours_and_fresh() {
        let tokens = AnonymousTokens::derived_from(b"secret");
        let token = tokens.issue(1_000_000);
        assert!(tokens.verify(&token, 1_000_000));
        assert!(tokens.verify(&token, 1_000_000 + 7_199));
        assert!(!tokens.verify(&token, 1_000_000 + 7_200), "expired");
        assert!(!tokens.verify(&token, 999_999), "from the future");
        assert!(!AnonymousTokens::derived_from(b"other").verify(&token, 1_000_000));
        let moved = token.replacen("1000000", "1000001", 1);
        assert!(!tokens.verify(&moved, 1_000_001), "the time is signed");
        for bad in ["", "x", "1.2", "1000000.abc.", "not.a.token"] {
            assert!(!tokens.verify(bad, 1_000_000), "{bad}");
        }
    }

    #[test]
    fn requests_from_elsewhere_are_foreign() {
        let ours = ["http://127.0.0.1:8080", "http://localhost:8080"];
        assert!(from_foreign_origin(
            &headers(&[("origin", "http://localhost:9999")]),
            &ours
        ));
        assert!(from_foreign_origin(
            &headers(&[("origin", "https://evil.example")]),
            &ours
        ));
        assert!(from_foreign_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            &ours
        ));
    }
}
