//! The one place identity's errors become gRPC statuses.

use kid_contracts::reasons::{PLAYER_QUOTA, RETRY_AFTER_SECONDS};
use kid_platform::grpc;
use tonic::Status;
use tonic_types::{ErrorDetails, StatusExt};

use crate::{
    app::Error,
    domain::{FieldErrors, hasher::HashError},
};
use kid_contracts::messages::{
    account::{MSG_ACCOUNT_CLOSED, MSG_ACCOUNT_LOCKED},
    links::{MSG_ALREADY_VERIFIED, MSG_INVALID_END_LINK, MSG_INVALID_LINK, MSG_INVALID_RESET_LINK},
    passkey::MSG_SIGN_IN_FAILED,
    two_factor::MSG_CODE_WRONG,
};

impl From<Error> for Status {
    fn from(error: Error) -> Self {
        match error {
            Error::InvalidUserId => Status::invalid_argument(error.to_string()),
            Error::UserNotFound => Status::not_found(error.to_string()),
            Error::InvalidCredentials => Status::unauthenticated(error.to_string()),
            Error::AlreadyVerified => Status::failed_precondition(MSG_ALREADY_VERIFIED),
            Error::InvalidResetLink => FieldErrors::one("token", MSG_INVALID_RESET_LINK).into_status(),
            Error::InvalidLink => FieldErrors::one("token", MSG_INVALID_LINK).into_status(),
            Error::InvalidEndLink => FieldErrors::one("token", MSG_INVALID_END_LINK).into_status(),
            Error::Validation(fields) => fields.into_status(),
            Error::Precondition(message) => Status::failed_precondition(message),
            Error::NotFound(message) => Status::not_found(message),
            Error::SecondFactorRefused => Status::unauthenticated(MSG_CODE_WRONG),
            Error::AccountClosed => Status::permission_denied(MSG_ACCOUNT_CLOSED),
            Error::AccountLocked => Status::permission_denied(MSG_ACCOUNT_LOCKED),
            Error::PasskeyRefused => Status::unauthenticated(MSG_SIGN_IN_FAILED),
            Error::Quota {
                message,
                retry_after_seconds,
            } => Status::with_error_details(
                tonic::Code::ResourceExhausted,
                message,
                ErrorDetails::with_error_info(
                    PLAYER_QUOTA,
                    "identity",
                    [(RETRY_AFTER_SECONDS.to_owned(), retry_after_seconds.to_string())],
                ),
            ),
            Error::Internal(message) => grpc::internal("identity", &message),
            Error::Hash(HashError::Busy) => {
                tracing::warn!("password hashing at capacity: asked to retry");
                Status::resource_exhausted("password hashing is at capacity, retry shortly")
            }
            Error::Hash(source) => grpc::internal("password hashing", &source),
            Error::Database(source) => grpc::internal("identity database", &source),
            Error::Outbox(source) => grpc::internal("identity outbox", &source),
        }
    }
}
