//! The coin recharge form.

pub const MSG_ZONE_REQUIRED: &str = "Hãy chọn máy chủ bạn muốn nạp.";

pub const MSG_ZONE_UNKNOWN: &str = "Máy chủ bạn chọn không tồn tại.";

pub const MSG_AMOUNT_REQUIRED: &str = "Hãy chọn mệnh giá bạn muốn nạp.";

pub const MSG_AMOUNT_UNKNOWN: &str = "Mệnh giá bạn chọn không có trong danh sách.";

pub const MSG_KEY_REUSED: &str = "Yêu cầu nạp này đã được gửi trước đó với nội dung khác.";
