//! Changing the password or the email address of a signed-in account.

pub const MSG_CURRENT_REQUIRED: &str = "Hãy nhập vào mật khẩu cũ.";

pub const MSG_CURRENT_WRONG: &str = "Mật khẩu cũ không chính xác.";

pub const MSG_EMAIL_INVALID: &str = "Địa chỉ email bạn nhập không hợp lệ";

pub const MSG_EMAIL_SAME: &str = "Địa chỉ email mới phải khác địa chỉ hiện tại.";

pub const MSG_CODE_REQUIRED: &str = "Mã bảo mật không được bỏ trống";

pub const MSG_CODE_WRONG: &str = "Mã bảo mật không chính xác hoặc đã hết hạn.";

/// An email change asks for the password the account has now (not an "old" one).
pub const MSG_PASSWORD_NOW_REQUIRED: &str = "Hãy nhập mật khẩu hiện tại của bạn.";

pub const MSG_PASSWORD_NOW_WRONG: &str = "Mật khẩu hiện tại không chính xác.";

/// Signing in to an account its owner asked to delete (only once the password is right). Not
/// in the spec; written in its voice.
pub const MSG_ACCOUNT_CLOSED: &str = "Tài khoản này đã được đóng theo yêu cầu xóa của chủ tài khoản. \
     Nếu bạn muốn giữ lại tài khoản, hãy liên hệ bộ phận hỗ trợ trong vòng 30 ngày kể từ ngày đóng.";

/// Signing in to an account support locked (only once the password is right). Not in the spec;
/// written in its voice.
pub const MSG_ACCOUNT_LOCKED: &str =
    "Tài khoản này đang tạm khóa để bảo vệ bạn. Vui lòng liên hệ bộ phận hỗ trợ để mở khóa.";
