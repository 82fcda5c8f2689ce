//! The full transaction history: its filters, paging and receipts.

/// A page size outside 1 to 100.
pub const MSG_LIMIT: &str = "Số giao dịch mỗi trang phải từ 1 đến 100.";
/// A cursor the portal did not hand out (or one from another filter).
pub const MSG_CURSOR: &str = "Vị trí trang không hợp lệ, hãy tải lại lịch sử giao dịch từ đầu.";
/// A transaction type the history does not list.
pub const MSG_TYPE: &str = "Loại giao dịch không hợp lệ.";
/// A status other than pending, success and failed.
pub const MSG_STATUS: &str = "Trạng thái giao dịch không hợp lệ.";
/// A date not written YYYY-MM-DD.
pub const MSG_DATE: &str = "Ngày không hợp lệ, hãy nhập theo dạng YYYY-MM-DD.";
/// An end date before the start date.
pub const MSG_RANGE: &str = "Ngày kết thúc không được trước ngày bắt đầu.";
/// A receipt asked for a transaction the player does not have.
pub const MSG_NOT_FOUND: &str = "Không tìm thấy giao dịch.";
