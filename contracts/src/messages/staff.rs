//! The support console's staff: signing in, re-authenticating, roles.

/// A staff sign-in whose username, password or app code is wrong (one message for all three, so
/// it tells nothing about which).
pub const MSG_SIGN_IN_FAILED: &str = "Tên đăng nhập, mật khẩu hoặc mã xác thực không đúng";
pub const MSG_USERNAME_REQUIRED: &str = "Vui lòng nhập tên đăng nhập";
pub const MSG_PASSWORD_REQUIRED: &str = "Vui lòng nhập mật khẩu";
pub const MSG_CODE_REQUIRED: &str = "Vui lòng nhập mã từ ứng dụng xác thực";
/// Production refuses the development seed's shared TOTP secret.
pub const MSG_DEVELOPMENT_SECRET: &str =
    "Tài khoản này dùng mã bí mật mẫu của môi trường phát triển; quản trị viên cần cấp lại ứng dụng xác thực";
/// Re-authentication with a wrong password or code.
pub const MSG_REAUTH_WRONG: &str = "Mật khẩu hoặc mã xác thực không đúng";
pub const MSG_REAUTH_REQUIRED: &str = "Vui lòng nhập mật khẩu hoặc mã xác thực";
/// An action that moves money or changes staff without a re-authentication in the last five
/// minutes.
pub const MSG_REAUTH_NEEDED: &str =
    "Thao tác với tiền hoặc với nhân viên cần xác thực lại (mật khẩu hoặc mã ứng dụng) trong 5 phút gần nhất";
/// A role that may not do what was asked.
pub const MSG_FORBIDDEN: &str = "Vai trò của bạn không được phép thực hiện thao tác này";
pub const MSG_USERNAME_TAKEN: &str = "Tên đăng nhập nhân viên đã tồn tại";
pub const MSG_USERNAME_INVALID: &str =
    "Tên đăng nhập nhân viên gồm 3–32 chữ thường, chữ số, dấu gạch ngang hoặc gạch dưới";
pub const MSG_ROLE_INVALID: &str = "Vai trò không hợp lệ";
pub const MSG_STAFF_NOT_FOUND: &str = "Không tìm thấy nhân viên";
/// An admin may not take away their own admin role or disable themselves.
pub const MSG_NOT_YOURSELF: &str = "Không thể tự hạ vai trò hoặc tự khóa tài khoản quản trị của mình";
/// An admin resetting their own credentials (another admin does it).
pub const MSG_NOT_YOURSELF_RESET: &str = "Không thể tự đặt lại thông tin đăng nhập của mình";
/// A new member without the address their enrolment link goes to.
pub const MSG_EMAIL_REQUIRED: &str = "Vui lòng nhập địa chỉ email";
/// A new member's address outside the organisation's mail domain (the domain follows).
pub const MSG_EMAIL_OUTSIDE_DOMAIN: &str = "Chỉ dùng địa chỉ email của công ty, có đuôi";
/// A new member's address that another member has.
pub const MSG_EMAIL_TAKEN: &str = "Địa chỉ email này đã dùng cho một nhân viên khác";
/// Resetting the credentials of a member made before members had addresses.
pub const MSG_NO_EMAIL: &str = "Nhân viên này chưa có địa chỉ email để nhận đường dẫn đăng ký";
/// An enrolment link that is unknown, used or past its 24 hours.
pub const MSG_ENROLMENT_INVALID: &str =
    "Đường dẫn đăng ký không hợp lệ hoặc đã hết hạn. Hãy nhờ quản trị viên gửi lại.";
/// Enrolling with an app code the offered secret does not give now.
pub const MSG_ENROLMENT_CODE_WRONG: &str =
    "Mã xác thực không đúng. Hãy kiểm tra đồng hồ của điện thoại và nhập mã mới nhất";
/// An app code that is not six digits.
pub const MSG_CODE_FORMAT: &str = "Mã xác thực gồm 6 chữ số";

/// Matching a transfer that was already matched (to another player, or credited by the feed).
pub const MSG_TRANSFER_ALREADY_MATCHED: &str = "Giao dịch này đã được ghi có cho một người chơi khác";
/// Matching a transfer whose bank or amount cannot be turned into KP.
pub const MSG_TRANSFER_NOT_CREDITABLE: &str =
    "Không thể ghi có giao dịch này: không rõ ngân hàng/ví nhận tiền hoặc số tiền không hợp lệ";
pub const MSG_TRANSFER_NOT_FOUND: &str = "Không tìm thấy giao dịch chuyển khoản";
/// Matching a transfer the feed found was paid into none of our accounts.
pub const MSG_TRANSFER_NOT_OURS: &str =
    "Giao dịch này không chuyển vào tài khoản nào của Kid nên không thể ghi có cho người chơi";
/// A second member matching a transfer to another player than the one its asker chose.
pub const MSG_TRANSFER_ASKED_FOR_ANOTHER: &str =
    "Giao dịch này đang chờ duyệt ghi có cho một người chơi khác; chỉ có thể duyệt đúng người chơi đó";
pub const MSG_PLAYER_NOT_FOUND: &str = "Không tìm thấy người chơi";
pub const MSG_ORDER_NOT_FOUND: &str = "Không tìm thấy đơn nạp xu";
/// Resending an order that is not waiting for the game.
pub const MSG_ORDER_NOT_AWAITING: &str =
    "Chỉ gửi lại được đơn đang chờ game giao xu; đơn này đã được giao hoặc đã hoàn KP";
/// Refunding an order the game delivered.
pub const MSG_ORDER_DELIVERED: &str =
    "Đơn này game đã giao xu nên không hoàn KP được; nếu cần bồi hoàn, hãy tạo điều chỉnh KP";
/// Refunding a coin order before its `deliverBy`, while the game may still deliver it.
pub const MSG_ORDER_MAY_STILL_DELIVER: &str = "Game vẫn có thể giao đơn này cho đến hạn giao; chỉ hoàn KP khi game báo thất bại hoặc đơn đã quá hạn giao";
/// Refunding an order still being paid for.
pub const MSG_ORDER_PAYING: &str = "Đơn này chưa trừ KP xong; hãy thử lại sau ít phút";
/// A refund or adjustment without a reason.
pub const MSG_REASON_REQUIRED: &str = "Vui lòng nhập lý do";
/// Approving an adjustment one asked for oneself (maker-checker).
pub const MSG_OWN_ADJUSTMENT: &str =
    "Không thể tự duyệt điều chỉnh KP do chính mình tạo; cần một nhân viên tài chính khác";
/// An ask's Idempotency-Key was used by the same member for a different adjustment.
pub const MSG_ADJUSTMENT_KEY_REUSED: &str = "Yêu cầu điều chỉnh này đã được gửi trước đó với nội dung khác";
pub const MSG_ADJUSTMENT_DECIDED: &str = "Điều chỉnh KP này đã được xử lý";
pub const MSG_ADJUSTMENT_NOT_FOUND: &str = "Không tìm thấy điều chỉnh KP";
pub const MSG_ADJUSTMENT_KP: &str = "Số KP điều chỉnh phải khác 0 và không quá 1.000.000.000 mỗi lần";
pub const MSG_REASON_LONG: &str = "Lý do tối đa 500 ký tự";
/// A clawback larger than the player's balance.
pub const MSG_CLAWBACK_OVER_BALANCE: &str = "Số dư KP của người chơi không đủ để thu hồi số này";
pub const MSG_TICKET_NOT_FOUND: &str = "Không tìm thấy yêu cầu hỗ trợ";
