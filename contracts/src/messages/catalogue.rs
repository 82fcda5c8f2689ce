//! The game catalogue.

pub const MSG_UNKNOWN_PRODUCT: &str = "Không tìm thấy sản phẩm.";
