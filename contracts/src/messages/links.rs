//! Links mailed to players: email verification and password reset.

pub const MSG_ALREADY_VERIFIED: &str = "Địa chỉ email của bạn đã được xác minh.";

/// The spec's text (section 8).
pub const MSG_INVALID_RESET_LINK: &str =
    "Đường dẫn của bạn không hợp lệ hoặc đã hết hiệu lực, hãy thử gửi lại yêu cầu nhận mật khẩu mới.";

pub const MSG_INVALID_LINK: &str = "Đường dẫn xác minh không hợp lệ hoặc đã hết hiệu lực.";

/// The new-device mail's link that ends the session it names: unknown, used, or older than
/// seven days.
pub const MSG_INVALID_END_LINK: &str = "Đường dẫn đăng xuất không hợp lệ, đã được dùng hoặc đã hết hiệu lực. Hãy đăng nhập và xem các phiên đăng nhập trong trang Bảo mật tài khoản.";
