//! The coin recharge form.

pub const MSG_ZONE_REQUIRED: &str = "Hãy chọn máy chủ bạn muốn nạp.";

pub const MSG_ZONE_UNKNOWN: &str = "Máy chủ bạn chọn không tồn tại.";

pub const MSG_AMOUNT_REQUIRED: &str = "Hãy chọn mệnh giá bạn muốn nạp.";

pub const MSG_AMOUNT_UNKNOWN: &str = "Mệnh giá bạn chọn không có trong danh sách.";

pub const MSG_KEY_REUSED: &str = "Yêu cầu nạp này đã được gửi trước đó với nội dung khác.";

/// The game says the player has no character on the chosen zone (nothing moved).
pub const MSG_NO_CHARACTER: &str =
    "Bạn chưa có nhân vật trên máy chủ này. Hãy vào game tạo nhân vật rồi nạp lại.";

/// The game did not answer the character check in time (nothing moved).
pub const MSG_CHARACTER_UNCHECKED: &str =
    "Chưa kiểm tra được nhân vật của bạn trên máy chủ này, xin thử lại sau ít phút.";
