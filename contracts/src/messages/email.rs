//! Email addresses.

pub const MSG_REQUIRED: &str = "Hãy nhập địa chỉ email của bạn";

pub const MSG_INVALID: &str = "Địa chỉ email không hợp lệ";
