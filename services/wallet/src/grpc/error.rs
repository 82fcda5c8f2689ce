//! The one place the wallet's errors become gRPC statuses.

use kid_platform::grpc;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::app::LedgerError;

/// Said to players when a payment is larger than their balance.
pub use kid_contracts::messages::wallet::MSG_INSUFFICIENT_BALANCE as MSG_INSUFFICIENT;
use kid_contracts::reasons::INSUFFICIENT_BALANCE;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    InvalidArgument(&'static str),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
}

impl From<Error> for Status {
    fn from(error: Error) -> Self {
        match error {
            Error::InvalidArgument(message) => Status::invalid_argument(message),
            Error::Ledger(error) => match error {
                LedgerError::InsufficientBalance => Status::with_error_details(
                    Code::FailedPrecondition,
                    MSG_INSUFFICIENT,
                    ErrorDetails::with_error_info(INSUFFICIENT_BALANCE, "wallet", []),
                ),
                LedgerError::NotFound(message) => Status::not_found(message),
                LedgerError::KeyReused => Status::already_exists(error.to_string()),
                LedgerError::Conflict(message) => Status::failed_precondition(message),
                LedgerError::Invalid(message) => Status::invalid_argument(message),
                LedgerError::Rejected(field, message) => {
                    kid_platform::validation::FieldErrors::one(field, message).into_status()
                }
                LedgerError::Forbidden(message) => Status::permission_denied(message),
                LedgerError::Database(source) => grpc::internal("wallet database", &source),
                LedgerError::Outbox(source) => grpc::internal("wallet outbox", &source),
            },
        }
    }
}
