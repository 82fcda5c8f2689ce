//! Development only: `GET /api/dev/mailbox?to=<address>` lists the development mailbox's
//! messages to that address, newest first, for people and browser tests. Only the development
//! portal (the launcher) mounts it, and only a gateway in development with no SMTP URL answers
//! it; the gateway binary never names this module, so the production binary does not contain
//! it (`scripts/images` checks its symbols).

use std::path::PathBuf;

use axum::{
    Json,
    extract::{Query, State},
    routing::get,
};
use kid_platform::mailbox::{self, MailboxEntry};
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    error::{ApiError, ApiResult},
    state::AppState,
};

/// Not in the OpenAPI document: production has no such route.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().route("/dev/mailbox", get(list))
}

#[derive(Debug, Deserialize)]
struct MailboxQuery {
    to: String,
}

async fn list(
    State(state): State<AppState>,
    Query(query): Query<MailboxQuery>,
) -> ApiResult<Json<Vec<MailboxEntry>>> {
    let dir: PathBuf = state.mailbox_dir.clone().ok_or(ApiError::RouteNotFound)?;
    let entries = tokio::task::spawn_blocking(move || mailbox::read(&dir, &query.to))
        .await
        .map_err(|error| ApiError::Internal(error.to_string()))?
        .map_err(|error| ApiError::Internal(format!("mailbox: {error}")))?;
    Ok(Json(entries))
}
