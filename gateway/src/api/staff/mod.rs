//! The support console's API under `/api/staff/`: its own sign-in (password and app code), its
//! own session cookie with a short idle timeout, and re-authentication before money moves. A
//! player's session is nobody here: every route answers it 401.
//!
//! The gateway checks the session; the services check the role. Each console call carries the
//! staff member in the internal token ([`kid_platform::auth::StaffActor`]), and every service
//! method the console reaches refuses a role that may not call it.

mod adjustments;
mod audit;
mod auth;
mod enrolment;
mod members;
mod orders;
mod players;
mod tickets;
mod transfers;

use axum::{extract::FromRequestParts, http::request::Parts};
use axum_extra::extract::CookieJar;
use kid_contracts::identity::v1::{GetStaffRequest, StaffMember};
use kid_platform::auth::{StaffActor, StaffRole};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    client_address::ClientAddress,
    error::{ApiError, ApiResult},
    session::Session,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(auth::router())
        .merge(enrolment::router())
        .merge(members::router())
        .merge(audit::router())
        .merge(players::router())
        .merge(transfers::router())
        .merge(orders::router())
        .merge(adjustments::router())
        .merge(tickets::router())
}

/// The signed-in staff member of a console call, as identity knows them now: a member disabled,
/// or whose role an admin changed, is signed out at their next call.
pub struct SignedInStaff {
    pub session: Session,
    pub member: StaffMember,
    pub actor: StaffActor,
}

impl SignedInStaff {
    /// A service request acting for this staff member.
    pub fn acting<T>(&self, message: T) -> tonic::Request<T> {
        let mut request = tonic::Request::new(message);
        request.extensions_mut().insert(self.actor.clone());
        request
    }
}

impl FromRequestParts<AppState> for SignedInStaff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Self> {
        let jar = CookieJar::from_headers(&parts.headers);
        let session = state.staff_sessions.from_jar(&jar).await?;
        let Some((session, staff_id)) =
            session.and_then(|session| session.data.user_id.clone().map(|id| (session, id)))
        else {
            return Err(ApiError::Unauthenticated);
        };
        let found = state
            .identity()
            .get_staff(GetStaffRequest { staff_id })
            .await
            .map(|answer| answer.into_inner().staff);
        let member = match found {
            Ok(Some(member))
                if !member.disabled && session.data.staff_role.as_ref() == Some(&member.role) =>
            {
                member
            }
            Ok(_) => return end(state, &session).await,
            Err(status) if status.code() == tonic::Code::NotFound => return end(state, &session).await,
            Err(status) => return Err(status.into()),
        };
        let ip = ClientAddress::from_request_parts(parts, state).await?.text();
        let actor = StaffActor {
            id: uuid::Uuid::parse_str(&member.id).map_err(|_| ApiError::Internal("staff id".into()))?,
            username: member.username.clone(),
            role: StaffRole::parse(&member.role).ok_or_else(|| ApiError::Internal("staff role".into()))?,
            reauthenticated_at: session.data.reauthenticated_at,
            ip,
        };
        Ok(Self {
            session,
            member,
            actor,
        })
    }
}

/// A session whose member is gone, disabled or has another role now ends here.
async fn end(state: &AppState, session: &Session) -> ApiResult<SignedInStaff> {
    state.staff_sessions.destroy(&session.id).await?;
    Err(ApiError::Unauthenticated)
}
