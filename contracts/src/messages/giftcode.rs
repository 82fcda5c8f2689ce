//! Redeeming a giftcode.

/// Nothing typed.
pub const MSG_CODE_REQUIRED: &str = "Vui lòng nhập mã quà tặng.";
/// No such code (or text that cannot be one).
pub const MSG_CODE_UNKNOWN: &str = "Mã quà tặng không đúng.";
/// A code of a campaign that has not started.
pub const MSG_CODE_NOT_STARTED: &str = "Mã quà tặng chưa đến thời gian sử dụng.";
/// A code of a campaign that has ended.
pub const MSG_CODE_EXPIRED: &str = "Mã quà tặng đã hết hạn.";
/// A code redeemed as often as it allows (a single-use code someone used).
pub const MSG_CODE_USED: &str = "Mã quà tặng đã được sử dụng.";
/// The account already redeemed as many codes of the campaign as it may.
pub const MSG_CODE_ALREADY_REDEEMED: &str = "Bạn đã nhận quà của chương trình này rồi.";
/// The same request key sent again with another code.
pub const MSG_KEY_REUSED: &str = "Yêu cầu này đã được dùng cho một mã quà tặng khác.";
/// Redeemed, but the wallet has not confirmed the KP yet (it will, without the player).
pub const MSG_GRANT_PENDING: &str =
    "Mã quà tặng đã được ghi nhận, KP sẽ được cộng vào tài khoản trong giây lát.";
