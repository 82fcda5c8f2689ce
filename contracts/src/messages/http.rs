//! What any call may answer: the request, the session, the CSRF check, limits and outages.

pub const MSG_UNAUTHENTICATED: &str = "Bạn chưa đăng nhập hoặc phiên đăng nhập đã hết hạn.";

pub const MSG_CSRF: &str = "Phiên làm việc đã hết hạn. Hãy tải lại trang và thử lại.";

pub const MSG_FOREIGN_ORIGIN: &str = "Yêu cầu bị từ chối vì không xuất phát từ trang của chúng tôi.";

pub const MSG_ROUTE_NOT_FOUND: &str = "Không tìm thấy địa chỉ API này.";

pub const MSG_TOO_MANY: &str = "Bạn thao tác quá nhanh, hãy thử lại sau ít phút.";

pub const MSG_UNAVAILABLE: &str = "Dịch vụ tạm thời gián đoạn, xin thử lại sau.";

pub const MSG_BUSY: &str = "Hệ thống đang bận, xin thử lại sau giây lát.";

pub const MSG_INTERNAL: &str = "Đã xảy ra lỗi, xin thử lại sau.";

pub const MSG_BAD_REQUEST: &str = "Dữ liệu gửi lên không hợp lệ.";
