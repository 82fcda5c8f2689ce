//! The one JSON error body of the REST API, and the one mapping from gRPC statuses to it.

use std::collections::BTreeMap;

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use kid_contracts::messages::http::{
    MSG_BAD_REQUEST, MSG_BUSY, MSG_CSRF, MSG_FOREIGN_ORIGIN, MSG_INTERNAL, MSG_ROUTE_NOT_FOUND, MSG_TOO_MANY,
    MSG_UNAUTHENTICATED, MSG_UNAVAILABLE,
};
use kid_contracts::messages::staff::{MSG_FORBIDDEN, MSG_REAUTH_NEEDED};
use serde::Serialize;
use tonic_types::StatusExt;

/// `{ "message": "...", "errors": { "field": ["..."] } }`
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, in Vietnamese, fit to show the player.
    pub message: String,
    /// Each invalid field's messages (a 422 only).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, Vec<String>>,
    /// The game whose zones `errors.zoneId` asks the player to choose from (a 422 of a
    /// giftcode of in-game items only).
    #[serde(rename = "productCode", skip_serializing_if = "Option::is_none")]
    pub product_code: Option<String>,
    /// A 403 the caller can act on: `reauth_required` (a console action that moves money needs
    /// the password or app code again).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("not signed in")]
    Unauthenticated,
    #[error("CSRF token missing or wrong")]
    CsrfMismatch,
    #[error("request from a foreign origin")]
    ForeignOrigin,
    #[error("no such API route")]
    RouteNotFound,
    #[error("malformed request body: {0}")]
    BadRequest(String),
    /// A malformed request header; the message (ours, Vietnamese) is the answer's.
    #[error("{0}")]
    BadHeader(&'static str),
    #[error("{message}")]
    Validation {
        message: String,
        errors: BTreeMap<String, Vec<String>>,
        /// The game a `zoneId` error is about, when it names one.
        product_code: Option<String>,
    },
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("rate limited")]
    TooManyRequests { retry_after_seconds: u64 },
    /// A player past an allowance a service keeps (support messages, image bytes); the message
    /// (ours, Vietnamese) says which.
    #[error("{message}")]
    Quota {
        message: String,
        retry_after_seconds: u64,
    },
    #[error("a service is unavailable: {0}")]
    Unavailable(String),
    /// A game that did not answer in time; the message (ours, Vietnamese) is the answer's.
    #[error("{0}")]
    GameUnavailable(String),
    /// A service at capacity (password hashing, say): retry in a moment.
    #[error("a service is at capacity")]
    Busy { retry_after_seconds: u64 },
    /// A role that may not do this (the services said so).
    #[error("forbidden: {0}")]
    Forbidden(String),
    /// A console action that moves money without a recent re-authentication.
    #[error("re-authentication required")]
    ReauthRequired,
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            Self::Unauthenticated => StatusCode::UNAUTHORIZED,
            // 419 "session expired", as the SPA's CSRF-cookie flow expects.
            Self::CsrfMismatch => StatusCode::from_u16(419).unwrap_or(StatusCode::FORBIDDEN),
            Self::ForeignOrigin | Self::Forbidden(_) | Self::ReauthRequired => StatusCode::FORBIDDEN,
            Self::RouteNotFound | Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::BadRequest(_) | Self::BadHeader(_) => StatusCode::BAD_REQUEST,
            Self::Validation { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::TooManyRequests { .. } | Self::Quota { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable(_) | Self::GameUnavailable(_) | Self::Busy { .. } => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn body(self) -> ErrorBody {
        let mut product_code = None;
        let mut code = None;
        let (message, errors) = match self {
            Self::Unauthenticated => (MSG_UNAUTHENTICATED.to_owned(), BTreeMap::new()),
            Self::CsrfMismatch => (MSG_CSRF.to_owned(), BTreeMap::new()),
            Self::ForeignOrigin => (MSG_FOREIGN_ORIGIN.to_owned(), BTreeMap::new()),
            Self::RouteNotFound => (MSG_ROUTE_NOT_FOUND.to_owned(), BTreeMap::new()),
            Self::BadRequest(_) => (MSG_BAD_REQUEST.to_owned(), BTreeMap::new()),
            Self::BadHeader(message) => (message.to_owned(), BTreeMap::new()),
            Self::Validation {
                message,
                errors,
                product_code: game,
            } => {
                product_code = game;
                (message, errors)
            }
            Self::NotFound(message) | Self::Conflict(message) | Self::GameUnavailable(message) => {
                (message, BTreeMap::new())
            }
            Self::TooManyRequests { .. } => (MSG_TOO_MANY.to_owned(), BTreeMap::new()),
            Self::Quota { message, .. } => (message, BTreeMap::new()),
            Self::Unavailable(_) => (MSG_UNAVAILABLE.to_owned(), BTreeMap::new()),
            Self::Busy { .. } => (MSG_BUSY.to_owned(), BTreeMap::new()),
            Self::Internal(_) => (MSG_INTERNAL.to_owned(), BTreeMap::new()),
            // The services word refusals meant for staff in Vietnamese; an English one is an
            // internal refusal whose detail stays in the logs.
            Self::Forbidden(message) if !message.is_ascii() => (message, BTreeMap::new()),
            Self::Forbidden(_) => (MSG_FORBIDDEN.to_owned(), BTreeMap::new()),
            Self::ReauthRequired => {
                code = Some("reauth_required");
                (MSG_REAUTH_NEEDED.to_owned(), BTreeMap::new())
            }
        };
        ErrorBody {
            message,
            errors,
            product_code,
            code,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        match &self {
            Self::Internal(detail) | Self::Unavailable(detail) => {
                tracing::error!(%status, detail, "request failed")
            }
            _ => tracing::debug!(%status, error = %self, "request refused"),
        }
        let retry_after = match &self {
            Self::TooManyRequests { retry_after_seconds }
            | Self::Busy { retry_after_seconds }
            | Self::Quota {
                retry_after_seconds, ..
            } => Some(*retry_after_seconds),
            _ => None,
        };
        let mut response = (status, Json(self.body())).into_response();
        if let Some(seconds) = retry_after
            && let Ok(value) = HeaderValue::from_str(&seconds.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

/// Services answer with gRPC statuses; validation failures carry `google.rpc.BadRequest`
/// field violations whose descriptions are the spec's Vietnamese messages.
impl From<tonic::Status> for ApiError {
    fn from(status: tonic::Status) -> Self {
        use tonic::Code;
        match status.code() {
            Code::InvalidArgument => {
                let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
                if let Some(bad_request) = status.get_details_bad_request() {
                    for violation in bad_request.field_violations {
                        errors
                            .entry(violation.field)
                            .or_default()
                            .push(violation.description);
                    }
                }
                let message = errors
                    .values()
                    .flatten()
                    .next()
                    .cloned()
                    .unwrap_or_else(|| status.message().to_owned());
                Self::Validation {
                    message,
                    errors,
                    product_code: kid_contracts::reasons::giftcode_zone_product(&status),
                }
            }
            Code::Unauthenticated => Self::Unauthenticated,
            Code::PermissionDenied
                if status
                    .get_details_error_info()
                    .is_some_and(|info| info.reason == kid_platform::auth::REAUTH_REQUIRED) =>
            {
                Self::ReauthRequired
            }
            Code::PermissionDenied => Self::Forbidden(status.message().to_owned()),
            Code::NotFound => Self::NotFound(status.message().to_owned()),
            Code::AlreadyExists | Code::Aborted | Code::FailedPrecondition => {
                Self::Conflict(status.message().to_owned())
            }
            // A player past an allowance a service keeps (identity's support messages and
            // images), or else a service at capacity (the gateway throttles guesses itself).
            Code::ResourceExhausted => match kid_contracts::reasons::player_quota_retry_after(&status) {
                Some(retry_after_seconds) => Self::Quota {
                    message: status.message().to_owned(),
                    retry_after_seconds,
                },
                None => Self::Busy {
                    retry_after_seconds: 1,
                },
            },
            Code::Unavailable if kid_contracts::reasons::is_character_unchecked(&status) => {
                Self::GameUnavailable(status.message().to_owned())
            }
            Code::Unavailable | Code::DeadlineExceeded => Self::Unavailable(status.message().to_owned()),
            _ => Self::Internal(format!("{:?}: {}", status.code(), status.message())),
        }
    }
}

impl From<redis::RedisError> for ApiError {
    fn from(error: redis::RedisError) -> Self {
        Self::Unavailable(format!("redis: {error}"))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// A JSON body whose rejections (wrong content type, malformed JSON) answer with our error body.
/// A string holding a NUL character is refused too: no field takes one, and PostgreSQL cannot
/// store it.
#[derive(Debug)]
pub struct ValidJson<T>(pub T);

impl<S, T> axum::extract::FromRequest<S> for ValidJson<T>
where
    S: Send + Sync,
    T: serde::de::DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) =
            <Json<serde_json::Value> as axum::extract::FromRequest<S>>::from_request(request, state).await?;
        if holds_nul(&value) {
            return Err(ApiError::BadRequest("a string holds a NUL character".into()));
        }
        T::deserialize(value)
            .map(Self)
            .map_err(|error| ApiError::BadRequest(format!("Failed to deserialize the JSON body: {error}")))
    }
}

fn holds_nul(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::String(text) => text.contains('\0'),
        serde_json::Value::Array(items) => items.iter().any(holds_nul),
        serde_json::Value::Object(fields) => fields
            .iter()
            .any(|(name, value)| name.contains('\0') || holds_nul(value)),
        _ => false,
    }
}

/// A query string whose rejections (a repeated or malformed parameter, a NUL character) answer
/// with our error body.
#[derive(Debug)]
pub struct ValidQuery<T>(pub T);

impl<S, T> axum::extract::FromRequestParts<S> for ValidQuery<T>
where
    S: Send + Sync,
    T: serde::de::DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut http::request::Parts, state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        if query.to_ascii_lowercase().contains("%00") {
            return Err(ApiError::BadRequest("a parameter holds a NUL character".into()));
        }
        let axum::extract::Query(value) =
            <axum::extract::Query<T> as axum::extract::FromRequestParts<S>>::from_request_parts(parts, state)
                .await?;
        Ok(Self(value))
    }
}

impl From<axum::extract::rejection::QueryRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::QueryRejection) -> Self {
        Self::BadRequest(rejection.body_text())
    }
}

impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(rejection: axum::extract::rejection::JsonRejection) -> Self {
        Self::BadRequest(rejection.body_text())
    }
}

#[cfg(test)]
mod tests {
    use tonic_types::{ErrorDetails, StatusExt};

    use super::*;

    #[test]
    fn field_violations_become_a_422_with_per_field_messages() {
        let mut details = ErrorDetails::new();
        details.add_bad_request_violation("username", "Tên đăng nhập phải có từ 4 đến 32 ký tự.");
        let status = tonic::Status::with_error_details(tonic::Code::InvalidArgument, "invalid", details);
        let error = ApiError::from(status);
        assert_eq!(error.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body = error.body();
        assert_eq!(body.message, "Tên đăng nhập phải có từ 4 đến 32 ký tự.");
        assert_eq!(
            body.errors["username"],
            vec!["Tên đăng nhập phải có từ 4 đến 32 ký tự."]
        );
    }

    #[test]
    fn internal_failures_hide_their_detail() {
        let error = ApiError::from(tonic::Status::internal(
            "duplicate key value violates unique constraint",
        ));
        assert_eq!(error.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(error.body().message, MSG_INTERNAL);
    }
}
