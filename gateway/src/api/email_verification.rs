//! Email verification: `POST /api/auth/email-verification/send` mails the signed-in player a
//! link; `PUT /api/auth/email-verification` uses the link's token.

use std::time::Duration;

use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{post, put},
};
use kid_proto::identity::v1::{SendVerificationRequest, VerifyEmailRequest};
use serde::Deserialize;

use crate::{
    error::{ApiResult, ValidJson},
    session::SignedIn,
    state::AppState,
};

/// One verification email a minute per player.
const SEND_COOLDOWN: Duration = Duration::from_secs(60);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/auth/email-verification/send", post(send))
        .route("/auth/email-verification", put(verify))
}

async fn send(State(state): State<AppState>, SignedIn { user_id, .. }: SignedIn) -> ApiResult<StatusCode> {
    state
        .cooldowns
        .require("email-verification", &user_id, SEND_COOLDOWN)
        .await?;
    state
        .clients
        .identity
        .clone()
        .send_verification(SendVerificationRequest { user_id })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize)]
struct VerifyBody {
    token: String,
}

async fn verify(
    State(state): State<AppState>,
    ValidJson(body): ValidJson<VerifyBody>,
) -> ApiResult<StatusCode> {
    state
        .clients
        .identity
        .clone()
        .verify_email(VerifyEmailRequest { token: body.token })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
