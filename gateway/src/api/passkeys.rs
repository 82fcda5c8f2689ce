//! Passkeys: the signed-in player adds one (password first), lists and removes theirs; anyone
//! signs in with one, without a username or password. The WebAuthn options and the browser's
//! answers pass through as the JSON of the WebAuthn Level 3 types; identity verifies them.
//! Browsers refuse passkeys on an IP address: a portal served at 127.0.0.1 keeps them at
//! `localhost` on the same port (`GatewaySettings::passkey_origin`).

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use axum_extra::extract::CookieJar;
use kid_contracts::identity::v1::{
    FinishPasskeyRegistrationRequest, FinishPasskeySignInRequest, ListPasskeysRequest, Passkey,
    RemovePasskeyRequest, StartPasskeyRegistrationRequest, StartPasskeySignInRequest,
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    auth::{Arrival, admit, one_field, settle, signed_in, user_agent},
    me::{UserBody, password_guess, rfc3339},
};
use crate::{
    client_address::ClientAddress,
    error::{ApiResult, ValidJson},
    session::{Client, SignedIn},
    state::AppState,
    throttle::PER_ADDRESS,
};
use kid_contracts::messages::passkey::MSG_SIGN_IN_FAILED;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_passkeys, add_passkey))
        .routes(routes!(passkey_options))
        .routes(routes!(remove_passkey))
        .routes(routes!(sign_in_options))
        .routes(routes!(sign_in_with_passkey))
}

/// One of the player's passkeys. Times are RFC 3339.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Passkey)]
pub(super) struct PasskeyBody {
    id: String,
    /// The player's name for it, or the device it was added on.
    name: String,
    created_at: String,
    /// `null` until it first signs in.
    #[schema(required = true)]
    last_used_at: Option<String>,
}

impl From<Passkey> for PasskeyBody {
    fn from(passkey: Passkey) -> Self {
        Self {
            id: passkey.id,
            name: passkey.name,
            created_at: rfc3339(passkey.created_at).unwrap_or_default(),
            last_used_at: rfc3339(passkey.last_used_at),
        }
    }
}

/// A ceremony for the browser: pass `options` to `navigator.credentials.create` or `.get`
/// (`PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`), and
/// send the answer back with `ceremonyId` within five minutes.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Ceremony {
    ceremony_id: String,
    /// `PublicKeyCredentialCreationOptionsJSON` or `PublicKeyCredentialRequestOptionsJSON`.
    #[schema(value_type = Object)]
    options: serde_json::Value,
}

impl Ceremony {
    fn new(ceremony_id: String, options_json: &str) -> ApiResult<Self> {
        let options = serde_json::from_str(options_json).map_err(|error| {
            crate::error::ApiError::Internal(format!("passkey options from identity: {error}"))
        })?;
        Ok(Self { ceremony_id, options })
    }
}

#[derive(Debug, Deserialize, ToSchema)]
struct PasswordBody {
    #[serde(default)]
    password: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct NewPasskeyBody {
    #[serde(default)]
    ceremony_id: String,
    /// The browser's `RegistrationResponseJSON` (`credential.toJSON()`).
    #[schema(value_type = Object)]
    #[serde(default)]
    credential: serde_json::Value,
    /// Up to 50 characters; empty or missing: the browser and system it was added on.
    #[serde(default)]
    name: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PasskeySignInBody {
    #[serde(default)]
    ceremony_id: String,
    /// The browser's `AuthenticationResponseJSON` (`credential.toJSON()`).
    #[schema(value_type = Object)]
    #[serde(default)]
    credential: serde_json::Value,
    #[serde(default)]
    remember: bool,
}

/// The player's passkeys, oldest first.
#[utoipa::path(
    get,
    path = "/me/passkeys",
    security(("session" = [])),
    responses((status = 200, description = "The passkeys.", body = Vec<PasskeyBody>))
)]
async fn list_passkeys(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
) -> ApiResult<Json<Vec<PasskeyBody>>> {
    let passkeys = state
        .identity()
        .list_passkeys(ListPasskeysRequest { user_id })
        .await?
        .into_inner()
        .passkeys;
    Ok(Json(passkeys.into_iter().map(PasskeyBody::from).collect()))
}

/// Starts adding a passkey: the password (checked and throttled as change-password's), then the
/// options for `navigator.credentials.create`. At most 10 passkeys per account (409).
#[utoipa::path(
    post,
    path = "/me/passkeys/options",
    security(("session" = [])),
    request_body = PasswordBody,
    responses((status = 200, description = "The ceremony to answer.", body = Ceremony))
)]
async fn passkey_options(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    client: ClientAddress,
    ValidJson(body): ValidJson<PasswordBody>,
) -> ApiResult<Json<Ceremony>> {
    let mut identity = state.identity();
    let call = identity.start_passkey_registration(StartPasskeyRegistrationRequest {
        user_id: user_id.clone(),
        password: body.password.clone(),
    });
    let started = password_guess(&state, &user_id, &client, "password", &body.password, call)
        .await?
        .into_inner();
    Ok(Json(Ceremony::new(started.ceremony_id, &started.options_json)?))
}

/// Adds the passkey the browser made for the ceremony; the account's address is told.
#[utoipa::path(
    post,
    path = "/me/passkeys",
    security(("session" = [])),
    request_body = NewPasskeyBody,
    responses((status = 201, description = "Added.", body = PasskeyBody))
)]
async fn add_passkey(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    headers: HeaderMap,
    ValidJson(body): ValidJson<NewPasskeyBody>,
) -> ApiResult<Response> {
    let added = state
        .identity()
        .finish_passkey_registration(FinishPasskeyRegistrationRequest {
            user_id,
            ceremony_id: body.ceremony_id,
            credential_json: body.credential.to_string(),
            name: body.name,
            user_agent: user_agent(&headers),
        })
        .await?
        .into_inner();
    let passkey = added
        .passkey
        .ok_or_else(|| crate::error::ApiError::Internal("identity returned no passkey".into()))?;
    let passkey = PasskeyBody::from(passkey);
    Ok((StatusCode::CREATED, Json(passkey)).into_response())
}

/// Removes one of the player's passkeys (404 when they have no such passkey); the account's
/// address is told.
#[utoipa::path(
    delete,
    path = "/me/passkeys/{id}",
    security(("session" = [])),
    params(("id" = String, Path, description = "The passkey's id.")),
    responses((status = 204, description = "Removed."))
)]
async fn remove_passkey(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    state
        .identity()
        .remove_passkey(RemovePasskeyRequest {
            user_id,
            passkey_id: id,
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Starts a sign-in with a passkey: the options for `navigator.credentials.get`, which offers
/// the passkeys this browser holds for the portal.
#[utoipa::path(
    post,
    path = "/auth/passkey/options",
    responses((status = 200, description = "The ceremony to answer.", body = Ceremony))
)]
async fn sign_in_options(State(state): State<AppState>) -> ApiResult<Json<Ceremony>> {
    let started = state
        .identity()
        .start_passkey_sign_in(StartPasskeySignInRequest {})
        .await?
        .into_inner();
    Ok(Json(Ceremony::new(started.ceremony_id, &started.options_json)?))
}

/// Signs in with the passkey the browser chose: a new session and XSRF token, without the
/// authenticator-app step (the passkey verified the player). A refused answer is 422 on
/// `credential`, counted against the address as a wrong password is.
#[utoipa::path(
    post,
    path = "/auth/passkey",
    request_body = PasskeySignInBody,
    responses((status = 200, description = "Signed in.", body = UserBody))
)]
async fn sign_in_with_passkey(
    State(state): State<AppState>,
    client: ClientAddress,
    headers: HeaderMap,
    jar: CookieJar,
    ValidJson(body): ValidJson<PasskeySignInBody>,
) -> ApiResult<Response> {
    let ip = client.text();
    let attempt = admit(&state, &[(PER_ADDRESS, &ip)], "", "", &ip).await?;
    let client = Client {
        user_agent: user_agent(&headers),
        ip,
    };
    let (jar, arrival) = Arrival::new(&state, jar, client);
    let answer = state
        .identity()
        .finish_passkey_sign_in(FinishPasskeySignInRequest {
            ceremony_id: body.ceremony_id,
            credential_json: body.credential.to_string(),
            context: Some(arrival.context()),
        })
        .await;
    let finished = settle(&state, attempt, answer, |status| match status.code() {
        tonic::Code::Unauthenticated => Some(one_field("credential", MSG_SIGN_IN_FAILED)),
        // A passkey of an account support locked: identity says so.
        tonic::Code::PermissionDenied => Some(one_field("credential", status.message())),
        _ => None,
    })
    .await?
    .into_inner();
    let (jar, body) = signed_in(&state, jar, finished.user, body.remember, arrival).await?;
    Ok((jar, Json(body)).into_response())
}
