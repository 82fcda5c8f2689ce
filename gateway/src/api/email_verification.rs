//! Email verification: `POST /api/auth/email-verification/send` mails the signed-in player a
//! link; `PUT /api/auth/email-verification` uses the link's token.

use std::time::Duration;

use axum::{extract::State, http::StatusCode};
use kid_contracts::identity::v1::{SendVerificationRequest, VerifyEmailRequest};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    error::{ApiResult, ValidJson},
    session::SignedIn,
    state::AppState,
};

/// One verification email a minute per player.
const SEND_COOLDOWN: Duration = Duration::from_secs(60);

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(send)).routes(routes!(verify))
}

/// Mails the signed-in player a verification link (one a minute).
#[utoipa::path(
    post,
    path = "/auth/email-verification/send",
    security(("session" = [])),
    responses((status = 204, description = "The link is mailed."))
)]
async fn send(State(state): State<AppState>, SignedIn { user_id, .. }: SignedIn) -> ApiResult<StatusCode> {
    state
        .cooldowns
        .require("email-verification", &user_id, SEND_COOLDOWN)
        .await?;
    state
        .identity()
        .send_verification(SendVerificationRequest { user_id })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
struct VerifyBody {
    token: String,
}

/// Verifies the address a link was mailed to.
#[utoipa::path(
    put,
    path = "/auth/email-verification",
    request_body = VerifyBody,
    responses((status = 204, description = "The address is verified."))
)]
async fn verify(
    State(state): State<AppState>,
    ValidJson(body): ValidJson<VerifyBody>,
) -> ApiResult<StatusCode> {
    state
        .identity()
        .verify_email(VerifyEmailRequest { token: body.token })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
