//! Passkeys (WebAuthn): adding one to an account, signing in with one, removing one. Not in the
//! spec; written in its voice.

/// The browser's answer to a sign-in did not prove a passkey of any account (unknown, removed,
/// for another account, or a signature that does not verify): one message for all of them.
pub const MSG_SIGN_IN_FAILED: &str =
    "Không thể đăng nhập bằng passkey này. Hãy thử lại hoặc đăng nhập bằng mật khẩu.";

/// The ceremony the answer belongs to is unknown, used or older than five minutes.
pub const MSG_EXPIRED: &str = "Yêu cầu passkey đã hết hạn, hãy thử lại.";

/// The browser's answer to a registration does not verify.
pub const MSG_NOT_SAVED: &str = "Không thể lưu passkey này. Hãy thử lại.";

pub const MSG_ALREADY_ADDED: &str = "Passkey này đã được thêm vào một tài khoản Kid.";

pub const MSG_LIMIT: &str = "Mỗi tài khoản có tối đa 10 passkey. Hãy xóa bớt một passkey trước khi thêm.";

pub const MSG_NAME_LONG: &str = "Tên passkey tối đa 50 ký tự.";

pub const MSG_NOT_FOUND: &str = "Không tìm thấy passkey này.";
