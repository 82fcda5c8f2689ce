//! Two-factor with an authenticator app, for the signed-in player: start with the password (a
//! secret and its otpauth URL for the QR code), confirm with a code (answers the ten recovery codes, once),
//! and turn it off with the password and a code. Codes are throttled per player as at sign-in.

use axum::{Json, extract::State, http::StatusCode};
use kid_contracts::identity::v1::{ConfirmTotpRequest, DisableTotpRequest, StartTotpRequest};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    auth::{admit, settle},
    me::{password_guess, wrong_guess},
};
use crate::{
    client_address::ClientAddress,
    error::{ApiResult, ValidJson},
    session::SignedIn,
    state::AppState,
    throttle::{PER_PASSWORD_CHECK, PER_SECOND_FACTOR},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start, disable))
        .routes(routes!(confirm))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Enrolment {
    /// Base32, for typing into the app by hand.
    secret: String,
    /// `otpauth://totp/Kid:{username}?…`, for the QR code.
    otpauth_url: String,
}

#[derive(Debug, Deserialize, ToSchema)]
struct StartBody {
    /// The account's password: a stolen session alone cannot put another app on the account.
    #[serde(default)]
    password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
struct ConfirmBody {
    /// Six digits from the authenticator app.
    #[serde(default)]
    code: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RecoveryCodes {
    /// Ten single-use codes, shown only now.
    recovery_codes: Vec<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
struct DisableBody {
    #[serde(default)]
    password: String,
    /// Six digits from the authenticator app, or an unused recovery code.
    #[serde(default)]
    code: String,
}

/// A new secret for the authenticator app (replacing one not yet confirmed), once the password
/// is right (a guess throttled as change-password's; 422 `errors.password` otherwise); 409
/// when two-factor is already on.
#[utoipa::path(
    post,
    path = "/me/two-factor/totp",
    security(("session" = [])),
    request_body = StartBody,
    responses((status = 200, description = "The secret to add to the app.", body = Enrolment))
)]
async fn start(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    client: ClientAddress,
    ValidJson(body): ValidJson<StartBody>,
) -> ApiResult<Json<Enrolment>> {
    let mut identity = state.identity();
    let call = identity.start_totp(StartTotpRequest {
        user_id: user_id.clone(),
        password: body.password.clone(),
    });
    let enrolment = password_guess(&state, &user_id, &client, "password", &body.password, call)
        .await?
        .into_inner();
    Ok(Json(Enrolment {
        secret: enrolment.secret,
        otpauth_url: enrolment.otpauth_url,
    }))
}

/// Turns two-factor on with a code from the app; answers the recovery codes, shown only now.
#[utoipa::path(
    post,
    path = "/me/two-factor/totp/confirm",
    security(("session" = [])),
    request_body = ConfirmBody,
    responses((status = 200, description = "Two-factor is on.", body = RecoveryCodes))
)]
async fn confirm(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    client: ClientAddress,
    ValidJson(body): ValidJson<ConfirmBody>,
) -> ApiResult<Json<RecoveryCodes>> {
    let guessed = !body.code.trim().is_empty();
    let attempt = admit(&state, &[(PER_SECOND_FACTOR, &user_id)], "", "", &client.text()).await?;
    let answer = state
        .identity()
        .confirm_totp(ConfirmTotpRequest {
            user_id,
            code: body.code,
        })
        .await;
    let confirmed = settle(&state, attempt, answer, |status| {
        wrong_guess("code", guessed, status)
    })
    .await?
    .into_inner();
    Ok(Json(RecoveryCodes {
        recovery_codes: confirmed.recovery_codes,
    }))
}

/// Turns two-factor off: the password and a code (from the app, or a recovery code). Both are
/// guesses, throttled as a sign-in's; the account's address is told.
#[utoipa::path(
    delete,
    path = "/me/two-factor/totp",
    security(("session" = [])),
    request_body = DisableBody,
    responses((status = 204, description = "Two-factor is off."))
)]
async fn disable(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    client: ClientAddress,
    ValidJson(body): ValidJson<DisableBody>,
) -> ApiResult<StatusCode> {
    // Identity checks the password first, and the code only after a right one: each guess is
    // counted under its own limit, and a code never checked is not counted (five wrong
    // passwords from a stolen session must not lock the owner's codes at sign-in).
    let (password_guessed, code_guessed) = (!body.password.is_empty(), !body.code.trim().is_empty());
    let ip = client.text();
    let password_attempt = admit(&state, &[(PER_PASSWORD_CHECK, &user_id)], "", "", &ip).await?;
    let code_attempt = match admit(&state, &[(PER_SECOND_FACTOR, &user_id)], "", "", &ip).await {
        Ok(attempt) => attempt,
        Err(refusal) => {
            state.throttle.release(password_attempt).await?;
            return Err(refusal);
        }
    };
    let answer = state
        .identity()
        .disable_totp(DisableTotpRequest {
            user_id,
            password: body.password,
            code: body.code,
        })
        .await;
    let Err(status) = answer else {
        state.throttle.clear(password_attempt).await?;
        state.throttle.clear(code_attempt).await?;
        return Ok(StatusCode::NO_CONTENT);
    };
    if let Some(refusal) = wrong_guess("password", password_guessed, &status) {
        state.throttle.release(code_attempt).await?;
        return Err(refusal);
    }
    if let Some(refusal) = wrong_guess("code", code_guessed, &status) {
        state.throttle.clear(password_attempt).await?;
        return Err(refusal);
    }
    state.throttle.release(password_attempt).await?;
    state.throttle.release(code_attempt).await?;
    Err(status.into())
}
