//! Topping up.

/// What the card screen shows once a card is sent (spec section 4: a processing estimate of
/// 1-30 s).
pub const MSG_CARD_SENT: &str = "Gửi thẻ thành công! Thẻ của bạn sẽ được xử lý trong 1-30 giây.";
