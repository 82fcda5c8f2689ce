//! Security codes and the email change they confirm: `POST /api/me/security-code/` mails a
//! code for an action, `POST /api/me/change-email` moves the account to a new address.

use std::time::Duration;

use axum::{Json, extract::State, routing::post};
use kid_contracts::identity::v1::{ChangeEmailRequest, SecurityCodeAction, SendSecurityCodeRequest};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    auth::{one_field, require_captcha, settle},
    me::{UserBody, the_user, wrong_guess},
};
use crate::{
    client_address::ClientAddress,
    error::{ApiResult, ValidJson},
    session::SignedIn,
    state::AppState,
    throttle::PER_PASSWORD_CHECK,
};
use kid_contracts::messages::security::{MSG_ACTION, MSG_CODE_SENT};

/// One code a minute per player and action.
const CODE_COOLDOWN: Duration = Duration::from_secs(60);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(send_code))
        // The spec's path has the trailing slash; the bare one is kept for callers without it.
        .route("/me/security-code", post(send_code))
        .routes(routes!(change_email))
}

fn action(value: &str) -> Option<SecurityCodeAction> {
    Some(match value {
        "confirm.email" => SecurityCodeAction::ConfirmEmail,
        "confirm.phone_number" => SecurityCodeAction::ConfirmPhoneNumber,
        "confirm.payment" => SecurityCodeAction::ConfirmPayment,
        "confirm.change_password" => SecurityCodeAction::ConfirmChangePassword,
        "confirm.change_email" => SecurityCodeAction::ConfirmChangeEmail,
        "approve.login" => SecurityCodeAction::ApproveLogin,
        _ => return None,
    })
}

#[derive(Debug, Deserialize, ToSchema)]
struct CodeBody {
    /// `confirm.email`, `confirm.phone_number`, `confirm.payment`, `confirm.change_password`,
    /// `confirm.change_email` or `approve.login`.
    #[serde(default)]
    action: String,
}

#[derive(Debug, Serialize, ToSchema)]
struct Sent {
    message: &'static str,
}

/// Mails the player a security code for `action` (one a minute per action).
#[utoipa::path(
    post,
    path = "/me/security-code/",
    security(("session" = [])),
    request_body = CodeBody,
    responses((status = 200, description = "The code is mailed.", body = Sent))
)]
async fn send_code(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    ValidJson(body): ValidJson<CodeBody>,
) -> ApiResult<Json<Sent>> {
    let action = action(&body.action).ok_or_else(|| one_field("action", MSG_ACTION))?;
    state
        .cooldowns
        .require(&format!("security-code:{}", body.action), &user_id, CODE_COOLDOWN)
        .await?;
    state
        .identity()
        .send_security_code(SendSecurityCodeRequest {
            user_id,
            action: action.into(),
        })
        .await?;
    Ok(Json(Sent {
        message: MSG_CODE_SENT,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ChangeEmailBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    security_code: String,
    /// Required while the current address is unverified.
    #[serde(default)]
    current_password: String,
    #[serde(default)]
    g_re_captcha_token: String,
}

/// Moves the account to a new address; every other session of the player is signed out. An
/// unverified account proves itself with its current password, counted as a sign-in's guess.
#[utoipa::path(
    post,
    path = "/me/change-email",
    security(("session" = [])),
    request_body = ChangeEmailBody,
    responses((status = 200, description = "The player, at the new address.", body = UserBody))
)]
async fn change_email(
    State(state): State<AppState>,
    client: ClientAddress,
    SignedIn { user_id, session_id }: SignedIn,
    ValidJson(body): ValidJson<ChangeEmailBody>,
) -> ApiResult<Json<UserBody>> {
    let ip = client.text();
    require_captcha(&state, &body.g_re_captcha_token, "changeEmailFormSubmit", &ip).await?;
    let guessed = !body.current_password.is_empty();
    // The captcha is solved already: past the allowance the guess still counts, never waits.
    let attempt = state.throttle.count(&[(PER_PASSWORD_CHECK, &user_id)]).await?;
    let changed = state
        .identity()
        .change_email(ChangeEmailRequest {
            user_id: user_id.clone(),
            email: body.email,
            security_code: body.security_code,
            current_password: body.current_password,
        })
        .await;
    let changed = settle(&state, attempt, changed, |status| {
        wrong_guess("currentPassword", guessed, status)
    })
    .await?;
    let user = the_user(changed.into_inner().user)?;
    state
        .sessions
        .destroy_others_of(&user_id, Some(&session_id))
        .await?;
    Ok(Json(UserBody::compose(&state, user).await?))
}
