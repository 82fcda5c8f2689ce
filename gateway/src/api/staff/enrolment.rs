//! A staff member's enrolment through the single-use link mailed to them when an admin created
//! them or reset their credentials: what the link offers (the authenticator secret), then their
//! own password and a code of that secret. No session: the link's token is the proof, kept in
//! the page's fragment and sent in the body, so no log holds it. Failures count per address.

use axum::{Json, extract::State, http::StatusCode};
use kid_contracts::identity::v1::{CompleteStaffEnrolmentRequest, GetStaffEnrolmentRequest};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    api::{
        auth::{admit, settle},
        me::rfc3339,
    },
    client_address::ClientAddress,
    error::{ApiResult, ValidJson},
    state::AppState,
    throttle::PER_STAFF_ENROLMENT,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(check)).routes(routes!(enrol))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffEnrolmentTokenBody {
    /// The token of the link (after `#`).
    #[serde(default)]
    token: String,
}

/// What an open enrolment link offers the member.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffEnrolmentBody {
    username: String,
    /// Base32, for typing into the authenticator app.
    totp_secret: String,
    /// `otpauth://` URI, for a QR code.
    otpauth_url: String,
    /// RFC 3339: the link works until then.
    #[schema(required = true)]
    expires_at: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffEnrolBody {
    #[serde(default)]
    token: String,
    /// At least 8 characters with lower and upper case, digits and symbols.
    #[serde(default)]
    password: String,
    #[serde(default)]
    password_confirm: String,
    /// Six digits from the app the offered secret was added to.
    #[serde(default)]
    code: String,
}

/// Whether an enrolment link works, and what it offers (404 with a Vietnamese message when it
/// is unknown, used or past its 24 hours).
#[utoipa::path(
    post,
    path = "/staff/enrolment/check",
    operation_id = "staff_enrolment_check",
    request_body = StaffEnrolmentTokenBody,
    responses(
        (status = 200, description = "The link works.", body = StaffEnrolmentBody),
        (status = 404, description = "The link is unknown, used or expired.", body = crate::error::ErrorBody),
    )
)]
async fn check(
    State(state): State<AppState>,
    client: ClientAddress,
    ValidJson(body): ValidJson<StaffEnrolmentTokenBody>,
) -> ApiResult<Json<StaffEnrolmentBody>> {
    let ip = client.text();
    let attempt = admit(&state, &[(PER_STAFF_ENROLMENT, &ip)], "", "", &ip).await?;
    let answer = state
        .identity()
        .get_staff_enrolment(GetStaffEnrolmentRequest { token: body.token })
        .await;
    let enrolment = settle(&state, attempt, answer, |status| {
        (status.code() == tonic::Code::NotFound).then(|| status.clone().into())
    })
    .await?
    .into_inner();
    Ok(Json(StaffEnrolmentBody {
        username: enrolment.username,
        totp_secret: enrolment.totp_secret,
        otpauth_url: enrolment.otpauth_url,
        expires_at: rfc3339(enrolment.expires_at),
    }))
}

/// The member's own password and a current code of the offered secret: the link is used up
/// and the member signs in with them. 422 with field errors, 404 for a link that no longer works.
#[utoipa::path(
    post,
    path = "/staff/enrolment",
    operation_id = "staff_enrolment_complete",
    request_body = StaffEnrolBody,
    responses(
        (status = 204, description = "Enrolled: sign in with the new password and app."),
        (status = 404, description = "The link is unknown, used or expired.", body = crate::error::ErrorBody),
    )
)]
async fn enrol(
    State(state): State<AppState>,
    client: ClientAddress,
    ValidJson(body): ValidJson<StaffEnrolBody>,
) -> ApiResult<StatusCode> {
    let ip = client.text();
    let attempt = admit(&state, &[(PER_STAFF_ENROLMENT, &ip)], "", "", &ip).await?;
    let answer = state
        .identity()
        .complete_staff_enrolment(CompleteStaffEnrolmentRequest {
            token: body.token,
            password: body.password,
            password_confirm: body.password_confirm,
            code: body.code,
            ip,
        })
        .await;
    settle(&state, attempt, answer, |status| {
        matches!(
            status.code(),
            tonic::Code::NotFound | tonic::Code::InvalidArgument
        )
        .then(|| status.clone().into())
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}
