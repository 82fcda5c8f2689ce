//! The support console's staff: signing in, re-authenticating, roles.

/// A staff sign-in whose username, password or app code is wrong (one message for all three, so
/// it tells nothing about which).
pub const MSG_SIGN_IN_FAILED: &str = "Tên đăng nhập, mật khẩu hoặc mã xác thực không đúng";
pub const MSG_USERNAME_REQUIRED: &str = "Vui lòng nhập tên đăng nhập";
pub const MSG_PASSWORD_REQUIRED: &str = "Vui lòng nhập mật khẩu";
pub const MSG_CODE_REQUIRED: &str = "Vui lòng nhập mã từ ứng dụng xác thực";
/// Production refuses the development seed's shared TOTP secret.
pub const MSG_DEVELOPMENT_SECRET: &str =
    "Tài khoản này dùng mã bí mật mẫu của môi trường phát triển; quản trị viên cần cấp lại ứng dụng xác thực";
/// Re-authentication with a wrong password or code.
pub const MSG_REAUTH_WRONG: &str = "Mật khẩu hoặc mã xác thực không đúng";
pub const MSG_REAUTH_REQUIRED: &str = "Vui lòng nhập mật khẩu hoặc mã xác thực";
/// An action that moves money without a re-authentication in the last five minutes.
pub const MSG_REAUTH_NEEDED: &str =
    "Thao tác với tiền cần xác thực lại (mật khẩu hoặc mã ứng dụng) trong 5 phút gần nhất";
/// A role that may not do what was asked.
pub const MSG_FORBIDDEN: &str = "Vai trò của bạn không được phép thực hiện thao tác này";
pub const MSG_USERNAME_TAKEN: &str = "Tên đăng nhập nhân viên đã tồn tại";
pub const MSG_USERNAME_INVALID: &str =
    "Tên đăng nhập nhân viên gồm 3–32 chữ thường, chữ số, dấu gạch ngang hoặc gạch dưới";
pub const MSG_ROLE_INVALID: &str = "Vai trò không hợp lệ";
pub const MSG_STAFF_NOT_FOUND: &str = "Không tìm thấy nhân viên";
/// An admin may not take away their own admin role or disable themselves.
pub const MSG_NOT_YOURSELF: &str = "Không thể tự hạ vai trò hoặc tự khóa tài khoản quản trị của mình";
