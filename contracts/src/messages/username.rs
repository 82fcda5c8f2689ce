//! Usernames.

pub const MSG_REQUIRED: &str = "Hãy chọn một tên đăng nhập.";

pub const MSG_LENGTH: &str = "Tên đăng nhập phải có từ 4 đến 32 ký tự.";

pub const MSG_CHARACTERS: &str =
    "Tên đăng nhập chỉ được sử dụng các chữ cái (a-z), số (0-9) và dấu gạch dưới (_).";
