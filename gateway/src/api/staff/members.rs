//! The admin's management of staff: every member, a new member, a member's role and whether
//! they are disabled. Identity checks the admin role on each call.

use axum::{
    Json,
    extract::{Path, State},
    http::StatusCode,
};
use kid_contracts::identity::v1::{CreateStaffRequest, ListStaffRequest, UpdateStaffRequest};
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
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewStaffBody {
    /// 3 to 32 lower-case letters, digits, `-` or `_`.
    #[serde(default)]
    username: String,
    /// `viewer`, `support`, `finance` or `admin`.
    #[serde(default)]
    role: String,
}

/// A new member, and what they need once: shown to the admin now and never again.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedStaffBody {
    staff: StaffBody,
    password: String,
    /// Base32, for typing into the authenticator app.
    totp_secret: String,
    /// `otpauth://` URI, for a QR code.
    otpauth_url: String,
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

/// A new staff member with a generated password and authenticator secret (admin only).
#[utoipa::path(
    post,
    path = "/staff/staff",
    operation_id = "staff_members_create",
    request_body = NewStaffBody,
    security(("staff-session" = [])),
    responses((status = 201, description = "Created; the password and secret are shown once.", body = CreatedStaffBody))
)]
async fn create(
    State(state): State<AppState>,
    staff: SignedInStaff,
    ValidJson(body): ValidJson<NewStaffBody>,
) -> ApiResult<(StatusCode, Json<CreatedStaffBody>)> {
    let created = state
        .identity()
        .create_staff(staff.acting(CreateStaffRequest {
            username: body.username,
            role: body.role,
        }))
        .await?
        .into_inner();
    let member = created
        .staff
        .ok_or_else(|| ApiError::Internal("identity answered no staff member".into()))?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedStaffBody {
            staff: member.into(),
            password: created.password,
            totp_secret: created.totp_secret,
            otpauth_url: created.otpauth_url,
        }),
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
