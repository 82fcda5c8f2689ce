//! The player's sign-in history, and the new-device mail's link that ends the session a sign-in
//! opened (for a player who reads the mail on another device, signed in or not).

use axum::{Json, extract::State};
use kid_contracts::identity::v1::{ListSignInsRequest, SignIn, UseEndSessionLinkRequest};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::me::rfc3339;
use crate::{
    error::{ApiResult, ValidJson},
    session::{SignedIn, handle},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_sign_ins))
        .routes(routes!(end_session))
}

/// How the player proved who they are.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
enum Method {
    Password,
    Totp,
    RecoveryCode,
    Passkey,
}

/// Why an attempt was refused.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
enum Failure {
    WrongPassword,
    WrongCode,
}

/// A sign-in to the account, or a refused attempt at one. Times are RFC 3339.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SignIn)]
pub(super) struct SignInBody {
    id: String,
    occurred_at: String,
    ip: String,
    /// The browser and system in words, e.g. "Chrome 120 trên Windows 10".
    device: String,
    user_agent: String,
    method: Method,
    succeeded: bool,
    /// Why it was refused; `null` for a sign-in.
    #[schema(required = true)]
    failure: Option<Failure>,
}

fn method(text: &str) -> Method {
    match text {
        "totp" => Method::Totp,
        "recovery_code" => Method::RecoveryCode,
        "passkey" => Method::Passkey,
        _ => Method::Password,
    }
}

fn failure(text: &str) -> Option<Failure> {
    match text {
        "" => None,
        "wrong_code" => Some(Failure::WrongCode),
        _ => Some(Failure::WrongPassword),
    }
}

/// The player's last 50 sign-ins and refused attempts (a known username with a wrong password,
/// a wrong second-factor code), newest first.
#[utoipa::path(
    get,
    path = "/me/sign-ins",
    security(("session" = [])),
    responses((status = 200, description = "The sign-ins, newest first.", body = Vec<SignInBody>))
)]
async fn list_sign_ins(
    State(state): State<AppState>,
    signed_in: SignedIn,
) -> ApiResult<Json<Vec<SignInBody>>> {
    let answer = state
        .identity()
        .list_sign_ins(ListSignInsRequest {
            user_id: signed_in.user_id,
        })
        .await?
        .into_inner();
    Ok(Json(answer.sign_ins.into_iter().map(SignInBody::from).collect()))
}

impl From<SignIn> for SignInBody {
    fn from(row: SignIn) -> Self {
        Self {
            id: row.id,
            occurred_at: rfc3339(row.occurred_at).unwrap_or_default(),
            ip: row.ip,
            device: row.device,
            user_agent: row.user_agent,
            method: method(&row.method),
            succeeded: row.failure.is_empty(),
            failure: failure(&row.failure),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
struct EndSessionBody {
    /// The token at the end of the mailed link (`/end-session/{token}`).
    #[serde(default)]
    token: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SessionEnded {
    /// `false` when the session had already ended (signed out, or expired).
    ended: bool,
}

/// Ends the session a sign-in from a new device opened, with the single-use token of the
/// mail that told the player about it (valid 7 days). No sign-in needed: the token is the
/// proof. A token unknown, used or expired is 422 with `errors.token`.
#[utoipa::path(
    post,
    path = "/auth/end-session",
    request_body = EndSessionBody,
    responses((status = 200, description = "The session is signed out.", body = SessionEnded))
)]
async fn end_session(
    State(state): State<AppState>,
    ValidJson(body): ValidJson<EndSessionBody>,
) -> ApiResult<Json<SessionEnded>> {
    let used = state
        .identity()
        .use_end_session_link(UseEndSessionLinkRequest { token: body.token })
        .await?
        .into_inner();
    let sessions = state.sessions.list_of(&used.user_id).await?;
    let session = sessions
        .iter()
        .find(|session| handle(&session.id) == used.session_handle);
    if let Some(session) = session {
        state.sessions.destroy(&session.id).await?;
    }
    Ok(Json(SessionEnded {
        ended: session.is_some(),
    }))
}
