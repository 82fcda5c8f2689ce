//! Sign-up, sign-in and sign-out. A sign-in always starts a new session id and XSRF token.

use axum::{
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use axum_extra::extract::{CookieJar, cookie::Cookie};
use kid_contracts::identity::v1::{
    AuthenticateRequest, RegisterRequest, SignInContext, User, VerifySecondFactorRequest,
};
use kid_contracts::limits::USERNAME_MIN;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    api::me::{UserBody, the_user},
    client_address::ClientAddress,
    error::{ApiError, ApiResult, ValidJson},
    session::{Client, SESSION_COOKIE, XSRF_COOKIE, handle, random_token},
    state::AppState,
    throttle::{Attempt, Limit, PER_ADDRESS, PER_SECOND_FACTOR, PER_USERNAME},
};
use kid_contracts::messages::{
    sign_in::{
        MSG_CAPTCHA, MSG_LOGIN_FAILED, MSG_PASSWORD_REQUIRED, MSG_USERNAME_REQUIRED, MSG_USERNAME_SHORT,
    },
    two_factor::{MSG_CODE_REQUIRED, MSG_CODE_WRONG, MSG_SIGN_IN_EXPIRED},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(login_two_factor))
        .routes(routes!(logout))
}

/// How long a sign-in whose password was right waits for its second factor.
const SECOND_FACTOR_WAIT_SECONDS: i64 = 5 * 60;

/// A sign-in's answer: the player, or (two-factor on) a request for the second factor.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LoginAnswer {
    SignedIn(Box<UserBody>),
    TwoFactorRequired(TwoFactorRequired),
}

/// The password was right; the session is not signed in until
/// `POST /api/auth/login/two-factor` accepts a code.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorRequired {
    /// Always `true`.
    two_factor_required: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SecondFactorBody {
    /// Six digits from the authenticator app, or an unused recovery code.
    #[serde(default)]
    code: String,
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
pub(super) fn user_agent(headers: &HeaderMap) -> String {
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

/// Where a sign-in comes from: the browser and address, the browser's device id (its cookie
/// made now when it had none), and the id of the session it opens if it succeeds, whose handle
/// identity keeps in the sign-in history (the new-device mail ends that session by it).
pub(super) struct Arrival {
    client: Client,
    device: String,
    session_id: String,
}

impl Arrival {
    pub(super) fn new(state: &AppState, jar: CookieJar, client: Client) -> (CookieJar, Self) {
        let (jar, device) = state.sessions.device(jar);
        let arrival = Self {
            client,
            device,
            session_id: random_token(),
        };
        (jar, arrival)
    }

    pub(super) fn context(&self) -> SignInContext {
        SignInContext {
            ip: self.client.ip.clone(),
            user_agent: self.client.user_agent.clone(),
            device_id: self.device.clone(),
            session_handle: handle(&self.session_id),
        }
    }
}

/// Signs `user` in under the arrival's new session (the request's session, if any, ends): its
/// cookies, and the player as `/api/me` answers.
pub(super) async fn signed_in(
    state: &AppState,
    jar: CookieJar,
    user: Option<User>,
    remember: bool,
    arrival: Arrival,
) -> ApiResult<(CookieJar, UserBody)> {
    let user = the_user(user)?;
    let previous = state.sessions.from_jar(&jar).await?;
    let session = state
        .sessions
        .sign_in(
            previous.as_ref(),
            arrival.session_id,
            &user.id,
            remember,
            arrival.client,
        )
        .await?;
    let body = UserBody::compose(state, user).await?;
    Ok((state.sessions.set_cookies(jar, &session), body))
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
    let client = Client {
        user_agent: user_agent(&headers),
        ip,
    };
    let (jar, arrival) = Arrival::new(&state, jar, client);
    let request = RegisterRequest {
        email: body.email,
        receive_newsletter: body.receive_newsletter,
        dob: body.dob,
        username: body.username,
        password: body.password,
        password_confirm: body.password_confirm,
        context: Some(arrival.context()),
    };
    let user = state.identity().register(request).await?.into_inner().user;
    let (jar, body) = signed_in(&state, jar, user, false, arrival).await?;
    Ok((StatusCode::CREATED, jar, axum::Json(body)).into_response())
}

/// Signs in: a new session and XSRF token. Past the free attempts the captcha is needed. With
/// two-factor on, a right password answers `{"twoFactorRequired": true}` and the new session
/// is not signed in until `POST /api/auth/login/two-factor` accepts a code.
#[utoipa::path(
    post,
    path = "/auth/login",
    request_body = LoginBody,
    responses((status = 200, description = "Signed in, or waiting for the second factor.", body = LoginAnswer))
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
    if username.chars().count() < USERNAME_MIN {
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
    let client = Client {
        user_agent: user_agent(&headers),
        ip,
    };
    let (jar, arrival) = Arrival::new(&state, jar, client);
    let request = AuthenticateRequest {
        username: username.clone(),
        password: body.password,
        context: Some(arrival.context()),
    };
    let answer = state.identity().authenticate(request).await;
    let response = settle(&state, attempt, answer, |status| match status.code() {
        tonic::Code::Unauthenticated => Some(one_field("username", MSG_LOGIN_FAILED)),
        // The right password of a closed account: identity says so.
        tonic::Code::PermissionDenied => Some(one_field("username", status.message())),
        _ => None,
    })
    .await?;
    let user = the_user(response.into_inner().user)?;
    if user.mfa_enabled {
        let previous = state.sessions.from_jar(&jar).await?;
        let session = state
            .sessions
            .await_second_factor(previous.as_ref(), &user.id, body.remember, arrival.client)
            .await?;
        let answer = LoginAnswer::TwoFactorRequired(TwoFactorRequired {
            two_factor_required: true,
        });
        return Ok((state.sessions.set_cookies(jar, &session), axum::Json(answer)).into_response());
    }
    let (jar, body) = signed_in(&state, jar, Some(user), body.remember, arrival).await?;
    Ok((jar, axum::Json(LoginAnswer::SignedIn(Box::new(body)))).into_response())
}

/// The second step of a sign-in with two-factor on: a code from the authenticator app (each
/// code once) or an unused recovery code. Five wrong codes per player in 15 minutes, then 429
/// until the window ends (no captcha lifts it).
#[utoipa::path(
    post,
    path = "/auth/login/two-factor",
    request_body = SecondFactorBody,
    responses((status = 200, description = "Signed in.", body = UserBody))
)]
async fn login_two_factor(
    State(state): State<AppState>,
    client: ClientAddress,
    jar: CookieJar,
    ValidJson(body): ValidJson<SecondFactorBody>,
) -> ApiResult<Response> {
    let session = state.sessions.from_jar(&jar).await?;
    let waiting = session.as_ref().and_then(|session| {
        let fresh = time::OffsetDateTime::now_utc().unix_timestamp() - session.data.created_at
            <= SECOND_FACTOR_WAIT_SECONDS;
        session.data.pending.clone().filter(|_| fresh)
    });
    let Some(pending) = waiting else {
        return Err(one_field("code", MSG_SIGN_IN_EXPIRED));
    };
    if body.code.trim().is_empty() {
        return Err(one_field("code", MSG_CODE_REQUIRED));
    }
    let ip = client.text();
    let attempt = admit(&state, &[(PER_SECOND_FACTOR, &pending.user_id)], "", "", &ip).await?;
    // Where the password was given; the code comes from the same browser.
    let client = session.map(|session| session.data.client).unwrap_or_default();
    let (jar, arrival) = Arrival::new(&state, jar, Client { ip, ..client });
    let answer = state
        .identity()
        .verify_second_factor(VerifySecondFactorRequest {
            user_id: pending.user_id.clone(),
            code: body.code,
            context: Some(arrival.context()),
        })
        .await;
    let verified = settle(&state, attempt, answer, |status| match status.code() {
        tonic::Code::Unauthenticated => Some(one_field("code", MSG_CODE_WRONG)),
        // Support locked the account while the code was awaited: said where the code is typed.
        tonic::Code::PermissionDenied => Some(one_field("code", status.message())),
        _ => None,
    })
    .await?
    .into_inner();
    let (jar, body) = signed_in(&state, jar, verified.user, pending.remember, arrival).await?;
    Ok((jar, axum::Json(body)).into_response())
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
