//! Recovery: a reset link for a username, the reset itself, and the username for an email.
//! The two requests answer the same neutral text at once, whether or not an account matches,
//! and the work (if any) happens after the answer, so neither status nor timing tells.

use std::time::Duration;

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use kid_contracts::identity::v1::{
    CheckResetTokenRequest, RecoverUsernameRequest, ResetPasswordRequest, SendResetEmailRequest,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::auth::{one_field, require_captcha};
use crate::{
    client_address::ClientAddress,
    error::{ApiError, ApiResult, ValidJson},
    state::AppState,
};
use kid_contracts::limits::{EMAIL_MAX, USERNAME_MIN};
pub use kid_contracts::messages::recovery::MSG_NEUTRAL;
use kid_contracts::messages::recovery::{MSG_EMAIL_INVALID, MSG_EMAIL_REQUIRED, MSG_INVALID_RESET_LINK};
use kid_contracts::messages::sign_in::MSG_USERNAME_SHORT;

/// One mail a minute per username or address, whether or not it has an account.
const MAIL_COOLDOWN: Duration = Duration::from_secs(60);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(send_reset_email))
        .routes(routes!(check_reset_token))
        .routes(routes!(reset_password))
        .routes(routes!(recover_username))
}

/// The same answer whether or not an account matched.
#[derive(Debug, Serialize, ToSchema)]
pub struct Neutral {
    message: &'static str,
}

fn neutral() -> Json<Neutral> {
    Json(Neutral { message: MSG_NEUTRAL })
}

/// Runs `work` after the answer, once per `subject` a minute; a failure is only logged.
async fn later(
    state: &AppState,
    action: &'static str,
    subject: &str,
    work: impl Future<Output = Result<tonic::Response<impl Send>, tonic::Status>> + Send + 'static,
) -> ApiResult<()> {
    if state
        .cooldowns
        .start(action, subject, MAIL_COOLDOWN)
        .await?
        .is_some()
    {
        tracing::info!(action, "recovery mail skipped: asked again within the cooldown");
        return Ok(());
    }
    tokio::spawn(async move {
        if let Err(status) = work.await {
            tracing::error!(action, code = ?status.code(), message = status.message(), "recovery mail not queued");
        }
    });
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SendResetBody {
    #[serde(default)]
    username: String,
    #[serde(default)]
    g_re_captcha_token: String,
}

/// Mails a reset link to the account of `username`, if there is one (answered at once).
#[utoipa::path(
    post,
    path = "/auth/reset-password/send-email",
    request_body = SendResetBody,
    responses((status = 200, description = "The neutral text.", body = Neutral))
)]
async fn send_reset_email(
    State(state): State<AppState>,
    client: ClientAddress,
    ValidJson(body): ValidJson<SendResetBody>,
) -> ApiResult<Json<Neutral>> {
    let ip = client.text();
    require_captcha(&state, &body.g_re_captcha_token, "forgotPasswordFormSubmit", &ip).await?;
    let username = body.username.trim().to_lowercase();
    if username.chars().count() < USERNAME_MIN {
        return Err(one_field("username", MSG_USERNAME_SHORT));
    }
    let mut identity = state.identity();
    let request = SendResetEmailRequest {
        username: username.clone(),
        client_ip: ip,
    };
    later(&state, "reset-password", &username, async move {
        identity.send_reset_email(request).await
    })
    .await?;
    Ok(neutral())
}

#[derive(Debug, Serialize, ToSchema)]
struct Validity {
    valid: bool,
}

/// Whether a reset link is still good (404 with the spec's text when it is not).
#[utoipa::path(
    get,
    path = "/auth/reset-password/{token}",
    params(("token" = String, Path, description = "The reset link's token.")),
    responses((status = 200, description = "The link is valid.", body = Validity))
)]
async fn check_reset_token(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Json<Validity>> {
    let valid = state
        .identity()
        .check_reset_token(CheckResetTokenRequest { token })
        .await?
        .into_inner()
        .valid;
    if valid {
        Ok(Json(Validity { valid }))
    } else {
        Err(ApiError::NotFound(MSG_INVALID_RESET_LINK.to_owned()))
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ResetBody {
    #[serde(default)]
    token: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password_confirm: String,
}

/// Sets the new password and signs the player out of every session.
#[utoipa::path(
    post,
    path = "/auth/reset-password",
    request_body = ResetBody,
    responses((status = 204, description = "The password is set."))
)]
async fn reset_password(
    State(state): State<AppState>,
    ValidJson(body): ValidJson<ResetBody>,
) -> ApiResult<StatusCode> {
    let user_id = state
        .identity()
        .reset_password(ResetPasswordRequest {
            token: body.token,
            password: body.password,
            password_confirm: body.password_confirm,
        })
        .await?
        .into_inner()
        .user_id;
    state.sessions.destroy_all_of(&user_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RecoverUsernameBody {
    #[serde(default)]
    email: String,
    #[serde(default)]
    g_re_captcha_token: String,
}

/// Mails the usernames of the accounts naming `email`, if any (answered at once).
#[utoipa::path(
    post,
    path = "/auth/recover-username",
    request_body = RecoverUsernameBody,
    responses((status = 200, description = "The neutral text.", body = Neutral))
)]
async fn recover_username(
    State(state): State<AppState>,
    client: ClientAddress,
    ValidJson(body): ValidJson<RecoverUsernameBody>,
) -> ApiResult<Json<Neutral>> {
    let ip = client.text();
    require_captcha(&state, &body.g_re_captcha_token, "forgotUsernameFormSubmit", &ip).await?;
    let email = body.email.trim().to_lowercase();
    if email.is_empty() {
        return Err(one_field("email", MSG_EMAIL_REQUIRED));
    }
    if email.chars().count() > EMAIL_MAX || !email_address::EmailAddress::is_valid(&email) {
        return Err(one_field("email", MSG_EMAIL_INVALID));
    }
    let mut identity = state.identity();
    let request = RecoverUsernameRequest {
        email: email.clone(),
        client_ip: ip,
    };
    later(&state, "recover-username", &email, async move {
        identity.recover_username(request).await
    })
    .await?;
    Ok(neutral())
}
