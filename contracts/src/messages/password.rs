//! Password rules, on every form that sets one (the spec words sign-up, change and reset differently).

pub const MSG_REQUIRED: &str = "Nhập vào mật khẩu.";

pub const MSG_TOO_LONG: &str = "Mật khẩu không được dài quá 128 ký tự.";

pub const MSG_WEAK: &str =
    "Mật khẩu quá yếu, hãy chọn mật khẩu mạnh hơn: dùng cả chữ cái, chữ số và ký hiệu.";

pub const MSG_CONFIRM_REQUIRED: &str = "Nhập vào mật khẩu xác nhận.";

pub const MSG_CONFIRM_MISMATCH: &str = "Mật khẩu xác nhận không trùng khớp.";

pub fn msg_too_short(min_length: impl std::fmt::Display) -> String {
    format!("Mật khẩu phải có tối thiểu {min_length} ký tự.")
}

/// The messages of one form's password rules: the spec words sign-up and reset differently.
#[derive(Debug, Clone, Copy)]
pub struct Messages {
    pub required: &'static str,
    pub too_short: &'static str,
    pub weak: &'static str,
    pub confirm_required: &'static str,
    pub confirm_mismatch: &'static str,
}

/// The sign-up form (spec section 5): a medium password.
pub const SIGN_UP: Messages = Messages {
    required: MSG_REQUIRED,
    too_short: "Mật khẩu phải có tối thiểu 8 ký tự.",
    weak: MSG_WEAK,
    confirm_required: MSG_CONFIRM_REQUIRED,
    confirm_mismatch: MSG_CONFIRM_MISMATCH,
};

/// The change-password form (spec section 5): a medium password.
pub const CHANGE: Messages = Messages {
    required: "Hãy nhập vào mật khẩu mới của bạn.",
    too_short: "Mật khẩu phải có tối thiểu 8 ký tự.",
    weak: MSG_WEAK,
    confirm_required: "Hãy nhập vào mật khẩu xác nhận.",
    confirm_mismatch: "Mật khẩu xác nhận không trùng khớp.",
};

/// The reset-password form (spec section 5): a strong password.
pub const RESET: Messages = Messages {
    required: "Hãy nhập mật khẩu mới",
    too_short: "Mật khẩu phải có tối thiểu 8 ký tự",
    weak: "Mật khẩu chưa đủ mạnh, hãy chọn mật khẩu mạnh hơn: cần có ít nhất 3 loại ký tự, trong đó có ký hiệu.",
    confirm_required: "Hãy nhập mật khẩu xác nhận",
    confirm_mismatch: "Mật khẩu xác nhận không trùng khớp",
};

/// A staff member's own password, set through their enrolment link: 12 characters or more of
/// all four kinds.
pub const STAFF_ENROL: Messages = Messages {
    required: "Vui lòng nhập mật khẩu",
    too_short: "Mật khẩu phải có tối thiểu 12 ký tự",
    weak: "Mật khẩu nhân viên cần đủ bốn loại ký tự: chữ thường, chữ hoa, chữ số và ký hiệu",
    confirm_required: "Vui lòng nhập lại mật khẩu",
    confirm_mismatch: "Mật khẩu nhập lại không khớp",
};

/// A password from the list of the most common and most leaked ones
/// (`services/identity/data/common-passwords.txt`).
pub const MSG_COMMON: &str =
    "Mật khẩu này quá phổ biến hoặc đã bị lộ trong các vụ rò rỉ dữ liệu, hãy chọn mật khẩu khác.";

/// A password that holds the player's username or the name part of their email address.
pub const MSG_PERSONAL: &str = "Mật khẩu không được chứa tên đăng nhập hoặc email của bạn.";
