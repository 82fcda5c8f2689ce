//! The player's active sessions (device, IP, last seen), each of which they can sign out, or
//! all but the current one. Sessions are named by a one-way handle, never by their id.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use serde::Serialize;
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    error::{ApiError, ApiResult},
    session::{SignedIn, handle},
    state::AppState,
};
use kid_contracts::messages::session::MSG_NO_SESSION;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(sign_out_others))
        .routes(routes!(sign_out))
}

/// A signed-in device of the player. Times are RFC 3339.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Session)]
pub(super) struct SessionBody {
    /// A one-way handle of the session, never its id.
    id: String,
    user_agent: String,
    ip: String,
    #[schema(required = true)]
    created_at: Option<String>,
    #[schema(required = true)]
    last_seen_at: Option<String>,
    current: bool,
    remember: bool,
}

fn rfc3339(unix: i64) -> Option<String> {
    OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .filter(|_| unix > 0)?
        .format(&Rfc3339)
        .ok()
}

/// The player's sessions, the current one marked.
#[utoipa::path(
    get,
    path = "/me/sessions",
    security(("session" = [])),
    responses((status = 200, description = "The sessions.", body = Vec<SessionBody>))
)]
async fn list(State(state): State<AppState>, signed_in: SignedIn) -> ApiResult<Json<Vec<SessionBody>>> {
    let sessions = state.sessions.list_of(&signed_in.user_id).await?;
    Ok(Json(
        sessions
            .into_iter()
            .map(|session| SessionBody::of(session, Some(&signed_in.session_id)))
            .collect(),
    ))
}

impl SessionBody {
    /// A session as the player (whose `current` it may be) or support sees it.
    pub(super) fn of(session: crate::session::Session, current: Option<&str>) -> Self {
        Self {
            id: handle(&session.id),
            current: Some(session.id.as_str()) == current,
            user_agent: session.data.client.user_agent,
            ip: session.data.client.ip,
            created_at: rfc3339(session.data.created_at),
            last_seen_at: rfc3339(session.data.last_seen_at),
            remember: session.data.remember,
        }
    }
}

/// Signs one of the player's sessions out.
#[utoipa::path(
    delete,
    path = "/me/sessions/{handle}",
    security(("session" = [])),
    params(("handle" = String, Path, description = "The session's handle (its `id` in the list).")),
    responses((status = 204, description = "Signed out."))
)]
async fn sign_out(
    State(state): State<AppState>,
    signed_in: SignedIn,
    Path(wanted): Path<String>,
) -> ApiResult<StatusCode> {
    let sessions = state.sessions.list_of(&signed_in.user_id).await?;
    let session = sessions
        .iter()
        .find(|session| handle(&session.id) == wanted)
        .ok_or_else(|| ApiError::NotFound(MSG_NO_SESSION.to_owned()))?;
    state.sessions.destroy(&session.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Signs every session but the current one out.
#[utoipa::path(
    post,
    path = "/me/sessions/sign-out-others",
    security(("session" = [])),
    responses((status = 204, description = "The other sessions are signed out."))
)]
async fn sign_out_others(State(state): State<AppState>, signed_in: SignedIn) -> ApiResult<StatusCode> {
    state
        .sessions
        .destroy_others_of(&signed_in.user_id, Some(&signed_in.session_id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
