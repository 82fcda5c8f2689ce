//! Sign-up, sign-in and sign-out. A sign-in always starts a new session id and XSRF token.

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use axum_extra::extract::{CookieJar, cookie::Cookie};
use kid_contracts::identity::v1::{AuthenticateRequest, RegisterRequest, User};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    api::me::{UserBody, the_user},
    client_address::ClientAddress,
    error::{ApiError, ApiResult, ValidJson},
    session::{Client, SESSION_COOKIE, XSRF_COOKIE},
    state::AppState,
    throttle::{Attempt, Limit, PER_ADDRESS, PER_USERNAME},
};
use kid_contracts::messages::sign_in::{
    MSG_CAPTCHA, MSG_LOGIN_FAILED, MSG_PASSWORD_REQUIRED, MSG_USERNAME_REQUIRED, MSG_USERNAME_SHORT,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(logout))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    receive_newsletter: bool,
    #[serde(default)]
    dob: String,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password_confirm: String,
    #[serde(default)]
    g_re_captcha_token: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginBody {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    remember: bool,
    /// Needed only once the username or the address is past its free attempts.
    #[serde(default)]
    g_re_captcha_token: String,
}

/// The browser's own description of itself, cut to a sane length.
fn user_agent(headers: &HeaderMap) -> String {
    headers
        .get(header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .chars()
        .take(300)
        .collect()
}

/// Counts a password attempt before it is checked; past the allowance the attempt needs a
/// solved captcha for `action`, and without one is answered 429 with Retry-After (and not
/// counted, so waiting is enough).
pub(super) async fn admit(
    state: &AppState,
    subjects: &[(Limit, &str)],
    captcha_token: &str,
    action: &str,
    ip: &str,
) -> ApiResult<Attempt> {
    let attempt = state.throttle.count(subjects).await?;
    let Some(retry_after_seconds) = attempt.over_limit else {
        return Ok(attempt);
    };
    let solved = !captcha_token.is_empty() && state.captcha.verify(captcha_token, action, ip).await.is_ok();
    if solved {
        return Ok(attempt);
    }
    tracing::info!(action, "throttled: past the free attempts without a captcha");
    state.throttle.release(attempt).await?;
    Err(ApiError::TooManyRequests { retry_after_seconds })
}

/// Settles an admitted attempt by identity's answer to it: a success clears the count; a wrong
/// guess, which `wrong_guess` answers, stays counted; any other refusal is released, as nothing
/// was guessed.
pub(super) async fn settle<T>(
    state: &AppState,
    attempt: Attempt,
    answer: Result<T, tonic::Status>,
    wrong_guess: impl FnOnce(&tonic::Status) -> Option<ApiError>,
) -> ApiResult<T> {
    let status = match answer {
        Ok(answer) => {
            state.throttle.clear(attempt).await?;
            return Ok(answer);
        }
        Err(status) => status,
    };
    if let Some(refusal) = wrong_guess(&status) {
        return Err(refusal);
    }
    state.throttle.release(attempt).await?;
    Err(status.into())
}

/// Refuses the request with the captcha's 422 unless `token` passes for `action`.
pub(super) async fn require_captcha(state: &AppState, token: &str, action: &str, ip: &str) -> ApiResult<()> {
    state.captcha.verify(token, action, ip).await.map_err(|error| {
        tracing::info!(error = %error, action, "refused by captcha");
        one_field("gReCaptchaToken", MSG_CAPTCHA)
    })
}

pub(super) fn one_field(field: &str, message: &str) -> ApiError {
    ApiError::Validation {
        message: message.to_owned(),
        errors: [(field.to_owned(), vec![message.to_owned()])]
            .into_iter()
            .collect(),
        product_code: None,
    }
}

async fn signed_in(
    state: &AppState,
    jar: CookieJar,
    user: Option<User>,
    remember: bool,
    client: Client,
    status: StatusCode,
) -> ApiResult<Response> {
    let user = the_user(user)?;
    let previous = state.sessions.from_jar(&jar).await?;
    let session = state
        .sessions
        .sign_in(previous.as_ref(), &user.id, remember, client)
        .await?;
    let body = UserBody::compose(state, user).await?;
    Ok((
        status,
        state.sessions.set_cookies(jar, &session),
        axum::Json(body),
    )
        .into_response())
}

/// Creates the account and signs it in (a new session and XSRF token).
#[utoipa::path(
    post,
    path = "/auth/register",
    request_body = RegisterBody,
    responses((status = 201, description = "Registered and signed in.", body = UserBody))
)]
async fn register(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    jar: CookieJar,
    ValidJson(body): ValidJson<RegisterBody>,
) -> ApiResult<Response> {
    let ip = client.text();
    require_captcha(&state, &body.g_re_captcha_token, "registerFormSubmit", &ip).await?;
    let request = RegisterRequest {
        email: body.email,
        receive_newsletter: body.receive_newsletter,
        dob: body.dob,
        username: body.username,
        password: body.password,
        password_confirm: body.password_confirm,
    };
    let user = state.identity().register(request).await?.into_inner().user;
    let client = Client {
        user_agent: user_agent(&headers),
        ip,
    };
    signed_in(&state, jar, user, false, client, StatusCode::CREATED).await
}

/// Signs in: a new session and XSRF token. Past the free attempts the captcha is needed.
#[utoipa::path(
    post,
    path = "/auth/login",
    request_body = LoginBody,
    responses((status = 200, description = "Signed in.", body = UserBody))
)]
async fn login(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    jar: CookieJar,
    ValidJson(body): ValidJson<LoginBody>,
) -> ApiResult<Response> {
    let username = body.username.trim().to_lowercase();
    if username.is_empty() {
        return Err(one_field("username", MSG_USERNAME_REQUIRED));
    }
    if username.chars().count() < 4 {
        return Err(one_field("username", MSG_USERNAME_SHORT));
    }
    if body.password.is_empty() {
        return Err(one_field("password", MSG_PASSWORD_REQUIRED));
    }
    let ip = client.text();
    let attempt = admit(
        &state,
        &[(PER_USERNAME, &username), (PER_ADDRESS, &ip)],
        &body.g_re_captcha_token,
        "loginFormSubmit",
        &ip,
    )
    .await?;
    let request = AuthenticateRequest {
        username: username.clone(),
        password: body.password,
        client_ip: ip.clone(),
    };
    let answer = state.identity().authenticate(request).await;
    let response = settle(&state, attempt, answer, |status| {
        (status.code() == tonic::Code::Unauthenticated).then(|| one_field("username", MSG_LOGIN_FAILED))
    })
    .await?;
    let client = Client {
        user_agent: user_agent(&headers),
        ip,
    };
    let user = response.into_inner().user;
    signed_in(&state, jar, user, body.remember, client, StatusCode::OK).await
}

/// Ends the session, if any, and clears its cookies.
#[utoipa::path(
    post,
    path = "/auth/logout",
    responses((status = 204, description = "Signed out."))
)]
async fn logout(State(state): State<AppState>, jar: CookieJar) -> ApiResult<Response> {
    if let Some(session) = state.sessions.from_jar(&jar).await? {
        state.sessions.destroy(&session.id).await?;
    }
    let jar = jar
        .remove(Cookie::build(SESSION_COOKIE).path("/"))
        .remove(Cookie::build(XSRF_COOKIE).path("/"));
    Ok((StatusCode::NO_CONTENT, jar).into_response())
}
