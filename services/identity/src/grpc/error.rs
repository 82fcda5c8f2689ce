//! The one place identity's errors become gRPC statuses.

use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("user id is not a UUID")]
    InvalidUserId,
    #[error("no such user")]
    UserNotFound,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

impl From<Error> for Status {
    fn from(error: Error) -> Self {
        match error {
            Error::InvalidUserId => Status::invalid_argument(error.to_string()),
            Error::UserNotFound => Status::not_found(error.to_string()),
            Error::Database(source) => {
                tracing::error!(error = %source, "identity database error");
                Status::internal("internal error")
            }
        }
    }
}
