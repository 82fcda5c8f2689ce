//! Two-factor sign-in with an authenticator app (TOTP) and its recovery codes. Not in the
//! spec (which says two-factor is "not yet available"); written in its voice.

pub const MSG_CODE_REQUIRED: &str = "Hãy nhập mã xác thực.";

/// A wrong, expired or already used code (a TOTP or a recovery code): one message, so a
/// guesser learns nothing about which.
pub const MSG_CODE_WRONG: &str = "Mã xác thực không chính xác hoặc đã được sử dụng.";

pub const MSG_ALREADY_ENABLED: &str = "Xác thực hai lớp đã được bật cho tài khoản này.";

pub const MSG_NOT_STARTED: &str = "Hãy bắt đầu lại việc bật xác thực hai lớp.";

pub const MSG_NOT_ENABLED: &str = "Xác thực hai lớp chưa được bật cho tài khoản này.";

/// The sign-in waiting for its code has ended (too old, or none).
pub const MSG_SIGN_IN_EXPIRED: &str = "Phiên đăng nhập đã hết hạn, hãy đăng nhập lại.";
