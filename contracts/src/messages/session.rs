//! Sessions.

pub const MSG_NO_SESSION: &str = "Phiên đăng nhập này không còn tồn tại.";
