//! Links mailed to players: email verification and password reset.

pub const MSG_ALREADY_VERIFIED: &str = "Địa chỉ email của bạn đã được xác minh.";

/// The spec's text (section 8).
pub const MSG_INVALID_RESET_LINK: &str =
    "Đường dẫn của bạn không hợp lệ hoặc đã hết hiệu lực, hãy thử gửi lại yêu cầu nhận mật khẩu mới.";

pub const MSG_INVALID_LINK: &str = "Đường dẫn xác minh không hợp lệ hoặc đã hết hiệu lực.";
