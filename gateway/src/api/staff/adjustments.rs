//! KP adjustments in the console: finance asks (a goodwill credit or a clawback, with a
//! reason); above the threshold a second finance member approves. The wallet checks the roles,
//! the re-authentication and that nobody approves their own.

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
};
use kid_contracts::wallet::v1::{
    Adjustment, AdjustmentResponse, AskAdjustmentRequest, DecideAdjustmentRequest, ListAdjustmentsRequest,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{SignedInStaff, players::found};
use crate::{
    api::{idempotency_key, me::rfc3339},
    error::{ApiError, ApiResult, ValidJson, ValidQuery},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, ask))
        .routes(routes!(approve))
        .routes(routes!(reject))
}

/// An adjustment of a player's KP.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustmentBody {
    id: String,
    user_id: String,
    /// Positive: a credit; negative: a clawback.
    kp: i64,
    reason: String,
    /// `pending`, `applied` or `rejected`.
    status: String,
    requested_by: String,
    requested_by_username: String,
    decided_by_username: String,
    #[schema(required = true)]
    decided_at: Option<String>,
    transaction_id: String,
    #[schema(required = true)]
    created_at: Option<String>,
}

impl From<Adjustment> for AdjustmentBody {
    fn from(adjustment: Adjustment) -> Self {
        Self {
            id: adjustment.id,
            user_id: adjustment.user_id,
            kp: adjustment.kp,
            reason: adjustment.reason,
            status: adjustment.status,
            requested_by: adjustment.requested_by,
            requested_by_username: adjustment.requested_by_username,
            decided_by_username: adjustment.decided_by_username,
            decided_at: rfc3339(adjustment.decided_at),
            transaction_id: adjustment.transaction_id,
            created_at: rfc3339(adjustment.created_at),
        }
    }
}

/// Adjustments, and the threshold above which one waits for a second finance member.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustmentsBody {
    adjustments: Vec<AdjustmentBody>,
    approval_threshold_kp: i64,
}

/// One adjustment as it now stands.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdjustmentAnswer {
    adjustment: AdjustmentBody,
    approval_threshold_kp: i64,
}

impl TryFrom<AdjustmentResponse> for AdjustmentAnswer {
    type Error = ApiError;

    fn try_from(answer: AdjustmentResponse) -> ApiResult<Self> {
        Ok(Self {
            adjustment: answer
                .adjustment
                .map(AdjustmentBody::from)
                .ok_or_else(|| ApiError::Internal("the wallet answered no adjustment".into()))?,
            approval_threshold_kp: answer.approval_threshold_kp,
        })
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AdjustmentsQuery {
    /// `pending`, `applied` or `rejected`; every status when absent.
    status: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AskBody {
    #[serde(default)]
    user_id: String,
    /// Positive credits the player; negative claws back.
    #[serde(default)]
    kp: i64,
    #[serde(default)]
    reason: String,
}

/// The newest adjustments (every role).
#[utoipa::path(
    get,
    path = "/staff/adjustments",
    operation_id = "staff_adjustments_list",
    params(AdjustmentsQuery),
    security(("staff-session" = [])),
    responses((status = 200, description = "Adjustments, newest first.", body = AdjustmentsBody))
)]
async fn list(
    State(state): State<AppState>,
    staff: SignedInStaff,
    ValidQuery(query): ValidQuery<AdjustmentsQuery>,
) -> ApiResult<Json<AdjustmentsBody>> {
    let answer = state
        .wallet()
        .list_adjustments(staff.acting(ListAdjustmentsRequest {
            status: query.status.unwrap_or_default(),
            user_id: String::new(),
            limit: 100,
        }))
        .await?
        .into_inner();
    Ok(Json(AdjustmentsBody {
        adjustments: answer.adjustments.into_iter().map(Into::into).collect(),
        approval_threshold_kp: answer.approval_threshold_kp,
    }))
}

/// Asks for an adjustment (finance, re-authenticated): applied at once within the threshold,
/// else pending until another finance member approves. The same member asking again with the
/// same `Idempotency-Key` gets the adjustment it made (as it is now), not a second one.
#[utoipa::path(
    post,
    path = "/staff/adjustments",
    operation_id = "staff_adjustments_ask",
    params((
        "Idempotency-Key" = Option<String>,
        Header,
        description = "1 to 128 printable ASCII characters, one per ask: a retry with it makes no second adjustment."
    )),
    request_body = AskBody,
    security(("staff-session" = [])),
    responses((status = 201, description = "Applied or pending.", body = AdjustmentAnswer))
)]
async fn ask(
    State(state): State<AppState>,
    staff: SignedInStaff,
    headers: HeaderMap,
    ValidJson(body): ValidJson<AskBody>,
) -> ApiResult<(StatusCode, Json<AdjustmentAnswer>)> {
    let idempotency_key = idempotency_key(&headers)?;
    let player = found(&state, &staff, &body.user_id).await?;
    let answer = state
        .wallet()
        .ask_adjustment(staff.acting(AskAdjustmentRequest {
            user_id: player.id,
            kp: body.kp,
            reason: body.reason,
            idempotency_key,
        }))
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(answer.try_into()?)))
}

/// Approves a pending adjustment, which applies it (another finance member than its asker,
/// re-authenticated).
#[utoipa::path(
    post,
    path = "/staff/adjustments/{id}/approve",
    operation_id = "staff_adjustments_approve",
    params(("id" = String, Path, description = "The adjustment's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "Applied.", body = AdjustmentAnswer))
)]
async fn approve(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Json<AdjustmentAnswer>> {
    let answer = state
        .wallet()
        .approve_adjustment(staff.acting(DecideAdjustmentRequest { adjustment_id: id }))
        .await?
        .into_inner();
    Ok(Json(answer.try_into()?))
}

/// Rejects a pending adjustment (finance); nothing moves.
#[utoipa::path(
    post,
    path = "/staff/adjustments/{id}/reject",
    operation_id = "staff_adjustments_reject",
    params(("id" = String, Path, description = "The adjustment's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "Rejected.", body = AdjustmentAnswer))
)]
async fn reject(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Json<AdjustmentAnswer>> {
    let answer = state
        .wallet()
        .reject_adjustment(staff.acting(DecideAdjustmentRequest { adjustment_id: id }))
        .await?
        .into_inner();
    Ok(Json(answer.try_into()?))
}
