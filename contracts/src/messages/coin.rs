//! Paying for game coin over REST.

/// Said when the wallet did not confirm the debit in time: the order will be completed (or
/// dropped, with nothing taken) on its own, so the player must not pay again.
pub const MSG_PAYING: &str =
    "Giao dịch của bạn đang được xử lý. Hãy kiểm tra lịch sử giao dịch trước khi nạp lại.";

pub const MSG_KEY_INVALID: &str =
    "Mã yêu cầu (Idempotency-Key) không hợp lệ: cần từ 1 đến 128 ký tự ASCII in được.";
