//! The `google.rpc.ErrorInfo` reasons a service puts on a status, so a caller can tell one
//! refusal from another with the same gRPC code.

use tonic::{Code, Status};
use tonic_types::StatusExt;

/// A payment refused for the balance (the wallet's FAILED_PRECONDITION).
pub const INSUFFICIENT_BALANCE: &str = "INSUFFICIENT_BALANCE";

/// A game that did not answer its character check in time (recharge's UNAVAILABLE): the
/// status message is the player's.
pub const CHARACTER_UNCHECKED: &str = "CHARACTER_UNCHECKED";

/// A giftcode of in-game items whose zone is missing, unknown, or has no character of the
/// player (recharge's INVALID_ARGUMENT, with a field violation on `zoneId`): the metadata's
/// [`PRODUCT_CODE`] names the game whose zones the player chooses from.
pub const GIFTCODE_ZONE: &str = "GIFTCODE_ZONE";

/// A player past an allowance of theirs (identity's RESOURCE_EXHAUSTED: support messages an
/// hour, image bytes a day): the status message is the player's, and the metadata's
/// [`RETRY_AFTER_SECONDS`] says when the allowance comes back.
pub const PLAYER_QUOTA: &str = "PLAYER_QUOTA";

/// The metadata key of [`PLAYER_QUOTA`]: whole seconds.
pub const RETRY_AFTER_SECONDS: &str = "retryAfterSeconds";

/// The metadata key of [`GIFTCODE_ZONE`] naming the product.
pub const PRODUCT_CODE: &str = "productCode";

/// The product a [`GIFTCODE_ZONE`] refusal names.
pub fn giftcode_zone_product(status: &Status) -> Option<String> {
    if status.code() != Code::InvalidArgument {
        return None;
    }
    let info = status.get_details_error_info()?;
    if info.reason != GIFTCODE_ZONE {
        return None;
    }
    info.metadata.get(PRODUCT_CODE).cloned()
}

/// True when `status` is recharge saying the game did not answer its character check.
pub fn is_character_unchecked(status: &Status) -> bool {
    status.code() == Code::Unavailable
        && status
            .get_details_error_info()
            .is_some_and(|info| info.reason == CHARACTER_UNCHECKED)
}

/// True when `status` is the wallet refusing a payment for the balance.
pub fn is_insufficient_balance(status: &Status) -> bool {
    status.code() == Code::FailedPrecondition
        && status
            .get_details_error_info()
            .is_some_and(|info| info.reason == INSUFFICIENT_BALANCE)
}

/// When `status` is a player past an allowance: the seconds until it comes back.
pub fn player_quota_retry_after(status: &Status) -> Option<u64> {
    if status.code() != Code::ResourceExhausted {
        return None;
    }
    let info = status.get_details_error_info()?;
    if info.reason != PLAYER_QUOTA {
        return None;
    }
    info.metadata.get(RETRY_AFTER_SECONDS)?.parse().ok()
}
