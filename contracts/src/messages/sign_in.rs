//! Signing in.

pub const MSG_LOGIN_FAILED: &str = "Tên đăng nhập hoặc mật khẩu không chính xác.";

pub const MSG_CAPTCHA: &str = "Không xác minh được bạn không phải là người máy, hãy thử lại.";

pub const MSG_USERNAME_REQUIRED: &str = "Hãy nhập tên đăng nhập.";

pub const MSG_USERNAME_SHORT: &str = "Tên đăng nhập phải có tối thiểu 4 ký tự.";

pub const MSG_PASSWORD_REQUIRED: &str = "Hãy nhập mật khẩu.";
