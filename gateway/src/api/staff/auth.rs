//! Staff sign-in, re-authentication and sign-out, and `GET /api/staff/me`.

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use axum_extra::extract::CookieJar;
use kid_contracts::identity::v1::{StaffMember, StaffReauthenticateRequest, StaffSignInRequest};
use kid_contracts::staff::v1::RecordStaffActionRequest;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::SignedInStaff;
use crate::{
    api::{
        auth::{admit, one_field, settle, user_agent},
        me::rfc3339,
    },
    client_address::ClientAddress,
    error::{ApiError, ApiResult, ValidJson},
    session::{Client, random_token},
    state::AppState,
    throttle::{PER_ADDRESS, PER_STAFF_REAUTH, PER_STAFF_USERNAME},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(csrf_cookie))
        .routes(routes!(sign_in))
        .routes(routes!(reauthenticate))
        .routes(routes!(sign_out))
        .routes(routes!(me))
}

/// A staff member as the console shows them. Times are RFC 3339.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffBody {
    pub id: String,
    pub username: String,
    /// `viewer`, `support`, `finance` or `admin`.
    pub role: String,
    #[schema(required = true)]
    pub created_at: Option<String>,
    #[schema(required = true)]
    pub signed_in_at: Option<String>,
    pub disabled: bool,
    /// Where the member's enrolment links go; `null` for a member made before there were any.
    #[schema(required = true)]
    pub email: Option<String>,
    /// An enrolment link is open: the member has not set their own password and app yet.
    pub enrolment_pending: bool,
}

impl From<StaffMember> for StaffBody {
    fn from(member: StaffMember) -> Self {
        Self {
            id: member.id,
            username: member.username,
            role: member.role,
            created_at: rfc3339(member.created_at),
            signed_in_at: rfc3339(member.signed_in_at),
            disabled: member.disabled,
            email: Some(member.email).filter(|email| !email.is_empty()),
            enrolment_pending: member.enrolment_pending,
        }
    }
}

/// The signed-in staff member and their session.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffMeBody {
    #[serde(flatten)]
    staff: StaffBody,
    /// Until when actions that move money are allowed without giving the password or app code
    /// again (five minutes after the last time); `null` once past.
    #[schema(required = true)]
    reauthenticated_until: Option<String>,
    /// The session ends after this many seconds unused.
    idle_timeout_seconds: u64,
}

fn me_body(state: &AppState, staff: &SignedInStaff) -> StaffMeBody {
    let until = staff.actor.reauthenticated_at + kid_platform::auth::REAUTH_WINDOW.as_secs() as i64;
    let now = OffsetDateTime::now_utc().unix_timestamp();
    StaffMeBody {
        staff: staff.member.clone().into(),
        reauthenticated_until: (until > now)
            .then(|| {
                OffsetDateTime::from_unix_timestamp(until)
                    .ok()
                    .and_then(|at| at.format(&time::format_description::well_known::Rfc3339).ok())
            })
            .flatten(),
        idle_timeout_seconds: state.staff_sessions.idle_seconds(),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffSignInBody {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    /// Six digits from the authenticator app.
    #[serde(default)]
    code: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReauthenticateBody {
    /// The password, or six digits from the authenticator app.
    #[serde(default)]
    secret: String,
}

/// Sets the console's `STAFF-XSRF-TOKEN` cookie: the staff session's token when signed in, else
/// a signed anonymous one for the sign-in form.
#[utoipa::path(
    get,
    path = "/staff/auth/csrf-cookie",
    operation_id = "staff_csrf_cookie",
    responses((status = 204, description = "The STAFF-XSRF-TOKEN cookie is set."))
)]
async fn csrf_cookie(State(state): State<AppState>, jar: CookieJar) -> ApiResult<Response> {
    let jar = match state.staff_sessions.from_jar(&jar).await? {
        Some(session) => state.staff_sessions.set_cookies(jar, &session),
        None => {
            let token = state
                .anonymous_tokens
                .issue(OffsetDateTime::now_utc().unix_timestamp());
            state.staff_sessions.set_anonymous_xsrf(jar, token)
        }
    };
    Ok((StatusCode::NO_CONTENT, jar).into_response())
}

/// Signs a staff member in with username, password and app code together (a wrong one of the
/// three is one message on `username`). Five wrong attempts per username from one address in 15
/// minutes, then 429 there until the window ends; the member from another address is not kept
/// out (a guesser needs the password and a current code at once, and the per-address limit
/// still holds). A sign-in counts as a re-authentication.
#[utoipa::path(
    post,
    path = "/staff/auth/sign-in",
    operation_id = "staff_sign_in",
    request_body = StaffSignInBody,
    responses((status = 200, description = "Signed in to the console.", body = StaffMeBody))
)]
async fn sign_in(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    jar: CookieJar,
    ValidJson(body): ValidJson<StaffSignInBody>,
) -> ApiResult<Response> {
    let username = body.username.trim().to_lowercase();
    let ip = client.text();
    let member_here = format!("{username} {ip}");
    let attempt = admit(
        &state,
        &[(PER_STAFF_USERNAME, &member_here), (PER_ADDRESS, &ip)],
        "",
        "",
        &ip,
    )
    .await?;
    let answer = state
        .identity()
        .staff_sign_in(StaffSignInRequest {
            username,
            password: body.password,
            code: body.code,
            ip: ip.clone(),
        })
        .await;
    let member = settle(&state, attempt, answer, |status| {
        (status.code() == tonic::Code::InvalidArgument).then(|| status.clone().into())
    })
    .await?
    .into_inner()
    .staff
    .ok_or_else(|| ApiError::Internal("identity answered no staff member".into()))?;
    let previous = state.staff_sessions.from_jar(&jar).await?;
    let client = Client {
        user_agent: user_agent(&headers),
        ip,
    };
    let session = state
        .staff_sessions
        .sign_in_staff(
            previous.as_ref(),
            random_token(),
            &member.id,
            &member.role,
            client,
        )
        .await?;
    let staff = SignedInStaff {
        actor: kid_platform::auth::StaffActor {
            id: uuid::Uuid::parse_str(&member.id).map_err(|_| ApiError::Internal("staff id".into()))?,
            username: member.username.clone(),
            role: kid_platform::auth::StaffRole::parse(&member.role)
                .ok_or_else(|| ApiError::Internal("staff role".into()))?,
            reauthenticated_at: session.data.reauthenticated_at,
            ip: session.data.client.ip.clone(),
        },
        session,
        member,
    };
    let jar = state.staff_sessions.set_cookies(jar, &staff.session);
    Ok((jar, Json(me_body(&state, &staff))).into_response())
}

/// The password or a current app code again: for the next five minutes the member may move
/// money. Five wrong answers per member in 15 minutes, then 429.
#[utoipa::path(
    post,
    path = "/staff/auth/reauthenticate",
    operation_id = "staff_reauthenticate",
    request_body = ReauthenticateBody,
    security(("staff-session" = [])),
    responses((status = 200, description = "Re-authenticated.", body = StaffMeBody))
)]
async fn reauthenticate(
    State(state): State<AppState>,
    mut staff: SignedInStaff,
    ValidJson(body): ValidJson<ReauthenticateBody>,
) -> ApiResult<Json<StaffMeBody>> {
    if body.secret.trim().is_empty() {
        return Err(one_field(
            "secret",
            kid_contracts::messages::staff::MSG_REAUTH_REQUIRED,
        ));
    }
    let staff_id = staff.member.id.clone();
    let attempt = admit(&state, &[(PER_STAFF_REAUTH, &staff_id)], "", "", &staff.actor.ip).await?;
    let answer = state
        .identity()
        .staff_reauthenticate(staff.acting(StaffReauthenticateRequest {
            staff_id,
            secret: body.secret,
            ip: staff.actor.ip.clone(),
        }))
        .await;
    settle(&state, attempt, answer, |status| {
        (status.code() == tonic::Code::InvalidArgument).then(|| status.clone().into())
    })
    .await?;
    staff.session.data.reauthenticated_at = OffsetDateTime::now_utc().unix_timestamp();
    staff.actor.reauthenticated_at = staff.session.data.reauthenticated_at;
    state.staff_sessions.save(&staff.session).await?;
    Ok(Json(me_body(&state, &staff)))
}

/// Ends the console session and clears its cookies (recorded in the audit log).
#[utoipa::path(
    post,
    path = "/staff/auth/sign-out",
    operation_id = "staff_sign_out",
    security(("staff-session" = [])),
    responses((status = 204, description = "Signed out."))
)]
async fn sign_out(
    State(state): State<AppState>,
    staff: SignedInStaff,
    jar: CookieJar,
) -> ApiResult<Response> {
    state.staff_sessions.destroy(&staff.session.id).await?;
    state
        .identity_audit()
        .record_staff_action(staff.acting(RecordStaffActionRequest {
            action: "staff.sign_out".into(),
            subject: format!("staff:{}", staff.member.id),
            before_json: String::new(),
            after_json: String::new(),
        }))
        .await?;
    Ok((StatusCode::NO_CONTENT, state.staff_sessions.clear_cookies(jar)).into_response())
}

/// The signed-in staff member, their role, and until when they may move money.
#[utoipa::path(
    get,
    path = "/staff/me",
    operation_id = "staff_me",
    security(("staff-session" = [])),
    responses((status = 200, description = "The signed-in staff member.", body = StaffMeBody))
)]
async fn me(State(state): State<AppState>, staff: SignedInStaff) -> Json<StaffMeBody> {
    Json(me_body(&state, &staff))
}
