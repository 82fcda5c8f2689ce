//! The admin's management of staff: every member, a new member, a member's role and whether
//! they are disabled, and a reset of a member's credentials. Identity checks the admin role on
//! each call. A new or reset member enrols through a link mailed to them (`enrolment`): no
//! answer here carries a credential.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use kid_contracts::identity::v1::{
    CreateStaffRequest, ListStaffRequest, ResetStaffCredentialsRequest, UpdateStaffRequest,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{SignedInStaff, auth::StaffBody};
use crate::{
    error::{ApiError, ApiResult, ValidJson},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(update))
        .routes(routes!(reset_credentials))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewStaffBody {
    /// 3 to 32 lower-case letters, digits, `-` or `_`.
    #[serde(default)]
    username: String,
    /// `viewer`, `support`, `finance` or `admin`.
    #[serde(default)]
    role: String,
    /// The member's own address: their single-use enrolment link goes there.
    #[serde(default)]
    email: String,
}

/// A new member, who enrols through the link mailed to them.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedStaffBody {
    staff: StaffBody,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffChangeBody {
    #[serde(default)]
    role: String,
    #[serde(default)]
    disabled: bool,
}

/// Every staff member (admin only).
#[utoipa::path(
    get,
    path = "/staff/staff",
    operation_id = "staff_members_list",
    security(("staff-session" = [])),
    responses((status = 200, description = "Every staff member.", body = Vec<StaffBody>))
)]
async fn list(State(state): State<AppState>, staff: SignedInStaff) -> ApiResult<Json<Vec<StaffBody>>> {
    let members = state
        .identity()
        .list_staff(staff.acting(ListStaffRequest {}))
        .await?
        .into_inner()
        .staff;
    Ok(Json(members.into_iter().map(StaffBody::from).collect()))
}

/// A new staff member (admin only, re-authenticated), mailed a single-use link to set their own
/// password and authenticator app; the admin sees neither.
#[utoipa::path(
    post,
    path = "/staff/staff",
    operation_id = "staff_members_create",
    request_body = NewStaffBody,
    security(("staff-session" = [])),
    responses((status = 201, description = "Created; the enrolment link is mailed to the member.", body = CreatedStaffBody))
)]
async fn create(
    State(state): State<AppState>,
    staff: SignedInStaff,
    ValidJson(body): ValidJson<NewStaffBody>,
) -> ApiResult<(StatusCode, Json<CreatedStaffBody>)> {
    let member = state
        .identity()
        .create_staff(staff.acting(CreateStaffRequest {
            username: body.username,
            role: body.role,
            email: body.email,
        }))
        .await?
        .into_inner()
        .staff
        .ok_or_else(|| ApiError::Internal("identity answered no staff member".into()))?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedStaffBody { staff: member.into() }),
    ))
}

/// Sets a member's role and whether they are disabled (admin only; not one's own). A disabled
/// member's sessions end at their next call.
#[utoipa::path(
    patch,
    path = "/staff/staff/{id}",
    operation_id = "staff_members_update",
    params(("id" = String, Path, description = "The staff member's id.")),
    request_body = StaffChangeBody,
    security(("staff-session" = [])),
    responses((status = 200, description = "The member as changed.", body = StaffBody))
)]
async fn update(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<StaffChangeBody>,
) -> ApiResult<Json<StaffBody>> {
    let member = state
        .identity()
        .update_staff(staff.acting(UpdateStaffRequest {
            staff_id: id,
            role: body.role,
            disabled: body.disabled,
        }))
        .await?
        .into_inner()
        .staff
        .ok_or_else(|| ApiError::Internal("identity answered no staff member".into()))?;
    Ok(Json(member.into()))
}

/// Ends a member's password and authenticator app and mails them a new enrolment link (admin
/// only, re-authenticated; not one's own). The member's console sessions end now.
#[utoipa::path(
    post,
    path = "/staff/staff/{id}/reset-credentials",
    operation_id = "staff_members_reset_credentials",
    params(("id" = String, Path, description = "The staff member's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "The member, with a new enrolment link mailed.", body = StaffBody))
)]
async fn reset_credentials(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Json<StaffBody>> {
    let member = state
        .identity()
        .reset_staff_credentials(staff.acting(ResetStaffCredentialsRequest { staff_id: id }))
        .await?
        .into_inner()
        .staff
        .ok_or_else(|| ApiError::Internal("identity answered no staff member".into()))?;
    state.staff_sessions.destroy_all_of(&member.id).await?;
    Ok(Json(member.into()))
}
