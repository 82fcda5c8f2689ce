//! Security codes.

/// The spec's success message (section 8).
pub const MSG_CODE_SENT: &str = "Mã bảo mật đã được gửi đến email của bạn!";

pub const MSG_ACTION: &str = "Hành động cần xác nhận không hợp lệ.";
