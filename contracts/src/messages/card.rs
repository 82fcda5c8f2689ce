//! The phone-card form.

pub const MSG_PROVIDER_REQUIRED: &str = "Hãy chọn loại thẻ bạn muốn nạp.";

/// The same words as the coin form's.
pub use super::order::MSG_AMOUNT_REQUIRED as MSG_VALUE_REQUIRED;

pub const MSG_PIN_REQUIRED: &str = "Hãy nhập vào mã thẻ.";

pub const MSG_SERIAL_REQUIRED: &str = "Hãy nhập vào số seri của thẻ.";

pub const MSG_PROVIDER_UNKNOWN: &str = "Loại thẻ bạn chọn không tồn tại.";

pub fn msg_pin_length(limit: usize) -> String {
    format!("Mã thẻ phải có {limit} ký tự.")
}

pub fn msg_serial_length(limit: usize) -> String {
    format!("Số seri phải có {limit} ký tự.")
}

pub fn msg_unsupported(provider: &str) -> String {
    format!("Thẻ {provider} tạm thời chưa được hỗ trợ")
}
