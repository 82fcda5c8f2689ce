//! The support centre's tickets, as the player sees them. Not in the spec (its /support page
//! says the centre is in development); written in its voice.

pub const MSG_CATEGORY_INVALID: &str = "Vui lòng chọn loại yêu cầu";
pub const MSG_SUBJECT_REQUIRED: &str = "Vui lòng nhập tiêu đề";
pub const MSG_SUBJECT_LONG: &str = "Tiêu đề tối đa 120 ký tự";
pub const MSG_BODY_REQUIRED: &str = "Vui lòng mô tả vấn đề của bạn";
pub const MSG_BODY_LONG: &str = "Nội dung tối đa 4000 ký tự";
/// The transaction picked is not one of the player's.
pub const MSG_TRANSACTION_UNKNOWN: &str = "Giao dịch đã chọn không có trong lịch sử của bạn";
/// An attachment that is not a PNG, JPEG or WebP image by its content (whatever its name says).
pub const MSG_ATTACHMENT_TYPE: &str = "Tệp đính kèm phải là ảnh PNG, JPEG hoặc WebP";
pub const MSG_ATTACHMENT_SIZE: &str = "Ảnh đính kèm tối đa 5 MB";
pub const MSG_TICKET_CLOSED: &str = "Yêu cầu này đã đóng; hãy tạo yêu cầu mới nếu bạn cần hỗ trợ thêm";
pub const MSG_TICKET_NOT_FOUND: &str = "Không tìm thấy yêu cầu hỗ trợ";
/// More support messages in an hour than a player may write.
pub const MSG_TOO_MANY_MESSAGES: &str = "Bạn đã gửi quá nhiều tin nhắn hỗ trợ trong một giờ; vui lòng chờ bộ phận hỗ trợ trả lời hoặc thử lại sau";
/// More image bytes in a day than a player may attach.
pub const MSG_ATTACHMENT_QUOTA: &str = "Bạn đã gửi quá nhiều ảnh hôm nay (tối đa 20 MB mỗi ngày); hãy gửi tin nhắn không kèm ảnh hoặc thử lại vào ngày mai";
/// Too many tickets opened in a day.
pub const MSG_TOO_MANY_TICKETS: &str =
    "Bạn đã tạo quá nhiều yêu cầu hôm nay; vui lòng chờ bộ phận hỗ trợ trả lời";
