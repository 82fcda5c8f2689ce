//! `GET /api/me`: the signed-in player, composed from identity and wallet asked in parallel.

use axum::{Json, extract::State, http::StatusCode};
use kid_contracts::{
    identity::v1::{ChangePasswordRequest, GetUserRequest, UpdateProfileRequest, User},
    wallet::v1::{GetAccountRequest, GetAccountResponse},
};
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::auth::{admit, settle};
use crate::{
    client_address::ClientAddress,
    error::{ApiError, ApiResult, ValidJson},
    session::SignedIn,
    state::AppState,
    throttle::PER_PASSWORD_CHECK,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(me))
        .routes(routes!(update_profile))
        .routes(routes!(change_password))
}

/// The spec's User (section 3). Times are RFC 3339.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = User)]
#[serde(rename_all = "camelCase")]
pub struct UserBody {
    pub username: String,
    pub email: String,
    #[schema(required = true)]
    pub verified_at: Option<String>,
    pub first_name: String,
    pub middle_name: String,
    pub last_name: String,
    pub dob: String,
    pub language: String,
    pub phone_number: String,
    #[schema(required = true)]
    pub created_at: Option<String>,
    #[schema(required = true)]
    pub password_changed_at: Option<String>,
    pub mfa_enabled: bool,
    /// KP balance.
    pub credit: i64,
    /// Debt in KP, settled first by the next top-up.
    pub debt_credit: i64,
    pub is_pay_partner: bool,
    /// VND topped up over the last 28 days.
    pub pay_amount_last_28_days: i64,
}

pub(super) fn rfc3339(timestamp: Option<prost_types::Timestamp>) -> Option<String> {
    kid_platform::grpc::instant(&timestamp?)?.format(&Rfc3339).ok()
}

impl UserBody {
    /// The user with their wallet figures, asked of the wallet service.
    pub async fn compose(state: &AppState, user: User) -> ApiResult<Self> {
        let account = account(state, user.id.clone()).await?;
        Ok(Self::new(user, account))
    }

    fn new(user: User, account: GetAccountResponse) -> Self {
        Self {
            username: user.username,
            email: user.email,
            verified_at: rfc3339(user.verified_at),
            first_name: user.first_name,
            middle_name: user.middle_name,
            last_name: user.last_name,
            dob: user.dob,
            language: user.language,
            phone_number: user.phone_number,
            created_at: rfc3339(user.created_at),
            password_changed_at: rfc3339(user.password_changed_at),
            mfa_enabled: user.mfa_enabled,
            credit: account.credit,
            debt_credit: account.debt_credit,
            is_pay_partner: account.is_pay_partner,
            pay_amount_last_28_days: account.pay_amount_last_28_days,
        }
    }
}

/// The player's wallet figures (a player who never had money reads zero).
async fn account(state: &AppState, user_id: String) -> ApiResult<GetAccountResponse> {
    let response = state.wallet().get_account(GetAccountRequest { user_id }).await?;
    Ok(response.into_inner())
}

/// The player an identity call answered with (each call that names one answers it).
pub(super) fn the_user(user: Option<User>) -> ApiResult<User> {
    user.ok_or_else(|| ApiError::Internal("identity returned no user".into()))
}

/// The player, asked of the identity service.
pub(super) async fn user(state: &AppState, user_id: String) -> ApiResult<User> {
    let response = state.identity().get_user(GetUserRequest { user_id }).await?;
    the_user(response.into_inner().user)
}

/// The signed-in player with their wallet figures.
#[utoipa::path(
    get,
    path = "/me",
    security(("session" = [])),
    responses((status = 200, description = "The signed-in player.", body = UserBody))
)]
async fn me(State(state): State<AppState>, SignedIn { user_id, .. }: SignedIn) -> ApiResult<Json<UserBody>> {
    let (user, account) = tokio::try_join!(user(&state, user_id.clone()), account(&state, user_id))?;
    Ok(Json(UserBody::new(user, account)))
}

/// The spec's profile payload; a field that is absent stays as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ProfileBody {
    first_name: Option<String>,
    middle_name: Option<String>,
    last_name: Option<String>,
    language: Option<String>,
    phone_number: Option<String>,
}

/// Updates the profile and answers the player as it now is.
#[utoipa::path(
    patch,
    path = "/me/update-profile",
    security(("session" = [])),
    request_body = ProfileBody,
    responses((status = 200, description = "The updated player.", body = UserBody))
)]
async fn update_profile(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    ValidJson(body): ValidJson<ProfileBody>,
) -> ApiResult<Json<UserBody>> {
    let response = state
        .identity()
        .update_profile(UpdateProfileRequest {
            user_id,
            first_name: body.first_name,
            middle_name: body.middle_name,
            last_name: body.last_name,
            language: body.language,
            phone_number: body.phone_number,
        })
        .await?;
    let user = the_user(response.into_inner().user)?;
    Ok(Json(UserBody::compose(&state, user).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ChangePasswordBody {
    #[serde(default)]
    current_password: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password_confirm: String,
    /// Needed only past the free current-password attempts.
    #[serde(default)]
    g_re_captcha_token: String,
}

/// Identity refused what was typed in `field` (when something was `guessed` there): the
/// refusal is answered, and the guess stays counted.
pub(super) fn wrong_guess(field: &str, guessed: bool, status: &tonic::Status) -> Option<ApiError> {
    use tonic_types::StatusExt;
    let wrong = status.code() == tonic::Code::InvalidArgument
        && status.get_details_bad_request().is_some_and(|details| {
            details
                .field_violations
                .iter()
                .any(|violation| violation.field == field)
        });
    (guessed && wrong).then(|| status.clone().into())
}

/// Identity's answer to `call`, which checks the account's password typed in `field`: a guess
/// throttled per player as change-password's (five wrong in 15 minutes, then 429), so a stolen
/// session cannot use the call as a password oracle.
pub(super) async fn password_guess<T>(
    state: &AppState,
    user_id: &str,
    client: &ClientAddress,
    field: &str,
    password: &str,
    call: impl std::future::Future<Output = Result<T, tonic::Status>>,
) -> ApiResult<T> {
    let attempt = admit(state, &[(PER_PASSWORD_CHECK, user_id)], "", "", &client.text()).await?;
    let answer = call.await;
    settle(state, attempt, answer, |status| {
        wrong_guess(field, !password.is_empty(), status)
    })
    .await
}

/// Changes the password; every other session of the player is signed out. The current
/// password is a guess like a sign-in's, throttled the same way (a stolen session must not
/// become a password oracle).
#[utoipa::path(
    post,
    path = "/me/change-password",
    security(("session" = [])),
    request_body = ChangePasswordBody,
    responses((status = 204, description = "Changed; the player's other sessions are signed out."))
)]
async fn change_password(
    State(state): State<AppState>,
    SignedIn { user_id, session_id }: SignedIn,
    client: ClientAddress,
    ValidJson(body): ValidJson<ChangePasswordBody>,
) -> ApiResult<StatusCode> {
    let guessed = !body.current_password.is_empty();
    let attempt = admit(
        &state,
        &[(PER_PASSWORD_CHECK, &user_id)],
        &body.g_re_captcha_token,
        "changePasswordFormSubmit",
        &client.text(),
    )
    .await?;
    let changed = state
        .identity()
        .change_password(ChangePasswordRequest {
            user_id: user_id.clone(),
            current_password: body.current_password,
            password: body.password,
            password_confirm: body.password_confirm,
        })
        .await;
    settle(&state, attempt, changed, |status| {
        wrong_guess("currentPassword", guessed, status)
    })
    .await?;
    state
        .sessions
        .destroy_others_of(&user_id, Some(&session_id))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
