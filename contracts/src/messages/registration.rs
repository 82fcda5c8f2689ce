//! Opening an account.

pub const MSG_USERNAME_TAKEN: &str = "Tên đăng nhập này đã có người sử dụng.";
