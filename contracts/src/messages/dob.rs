//! Dates of birth.

pub const MSG_INVALID: &str = "Bạn cần nhập ngày hợp lệ.";

pub fn msg_too_young(min_age: impl std::fmt::Display) -> String {
    format!("Bạn phải đủ {min_age} tuổi trở lên mới có thể đăng ký tài khoản.")
}
