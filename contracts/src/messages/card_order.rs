//! A card sent to the aggregator.

pub const MSG_ALREADY_PENDING: &str = "Thẻ này đang được xử lý, hãy chờ kết quả trước khi nạp lại.";

pub const MSG_REFUSED: &str = "Nhà cung cấp từ chối thẻ này, hãy kiểm tra lại thông tin thẻ.";
