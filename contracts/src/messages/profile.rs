//! The profile form.

pub const MSG_FIRST_NAME_REQUIRED: &str = "Hãy nhập tên của bạn";

pub const MSG_LAST_NAME_REQUIRED: &str = "Hãy nhập họ của bạn";

pub const MSG_NAME_TOO_LONG: &str = "Tên không được dài quá 128 ký tự.";

pub const MSG_LANGUAGE: &str = "Ngôn ngữ bạn chọn chưa được hỗ trợ.";

pub const MSG_PHONE_REQUIRED: &str = "Hãy nhập vào số điện thoại của bạn";

pub const MSG_PHONE_INVALID: &str = "Số điện thoại không hợp lệ";
