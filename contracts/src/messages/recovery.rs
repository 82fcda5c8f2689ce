//! Recovering a password or a username.

/// The spec's neutral success text (section 8).
pub const MSG_NEUTRAL: &str = "Nếu thông tin bạn nhập khớp với một tài khoản, chúng tôi sẽ gửi email cho bạn trong vài phút. Hãy kiểm tra cả hộp thư rác (spam).";

/// The same texts as the forms that take an address, and the reset link identity refuses.
pub use super::{
    email::{MSG_INVALID as MSG_EMAIL_INVALID, MSG_REQUIRED as MSG_EMAIL_REQUIRED},
    links::MSG_INVALID_RESET_LINK,
};
