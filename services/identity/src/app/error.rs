//! What identity's use cases can answer besides success; `grpc::error` maps each to a status.

use crate::domain::{FieldErrors, hasher::HashError};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("user id is not a UUID")]
    InvalidUserId,
    #[error("no such user")]
    UserNotFound,
    #[error("invalid fields")]
    Validation(FieldErrors),
    #[error("wrong username or password")]
    InvalidCredentials,
    #[error("the email address is already verified")]
    AlreadyVerified,
    #[error("the link is unknown, used, expired or for an older address")]
    InvalidLink,
    #[error("the reset link is unknown, used or expired")]
    InvalidResetLink,
    #[error("the end-session link is unknown, used or expired")]
    InvalidEndLink,
    /// Not now: the message is the player's (two-factor already on, not started, not on).
    #[error("{0}")]
    Precondition(&'static str),
    /// A wrong, replayed or used second-factor code at sign-in.
    #[error("wrong second-factor code")]
    SecondFactorRefused,
    /// Not one of the player's: the message is the player's.
    #[error("{0}")]
    NotFound(&'static str),
    /// The right password of an account its owner closed.
    #[error("the account is closed")]
    AccountClosed,
    /// The right password of an account support locked.
    #[error("the account is locked")]
    AccountLocked,
    /// A player past an allowance (support messages, image bytes): the message is theirs.
    #[error("{message}")]
    Quota {
        message: &'static str,
        retry_after_seconds: u64,
    },
    /// A passkey sign-in whose answer proves no player's passkey.
    #[error("passkey sign-in refused")]
    PasskeyRefused,
    #[error("{0}")]
    Internal(String),
    #[error("password hashing failed")]
    Hash(#[from] HashError),
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] kid_platform::outbox::OutboxError),
}
