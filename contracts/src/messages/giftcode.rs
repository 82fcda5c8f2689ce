//! Redeeming a giftcode.

/// Nothing typed.
pub const MSG_CODE_REQUIRED: &str = "Vui lòng nhập mã quà tặng.";
/// No such code (or text that cannot be one).
pub const MSG_CODE_UNKNOWN: &str = "Mã quà tặng không đúng.";
/// A code of a campaign that has not started.
pub const MSG_CODE_NOT_STARTED: &str = "Mã quà tặng chưa đến thời gian sử dụng.";
/// A code of a campaign that has ended.
pub const MSG_CODE_EXPIRED: &str = "Mã quà tặng đã hết hạn.";
/// A code redeemed as often as it allows (a single-use code someone used).
pub const MSG_CODE_USED: &str = "Mã quà tặng đã được sử dụng.";
/// The account already redeemed as many codes of the campaign as it may.
pub const MSG_CODE_ALREADY_REDEEMED: &str = "Bạn đã nhận quà của chương trình này rồi.";
/// The same request key sent again with another code.
pub const MSG_KEY_REUSED: &str = "Yêu cầu này đã được dùng cho một mã quà tặng khác.";
/// Redeemed, but the wallet has not confirmed the KP yet (it will, without the player).
pub const MSG_GRANT_PENDING: &str =
    "Mã quà tặng đã được ghi nhận, KP sẽ được cộng vào tài khoản trong giây lát.";
/// A code of in-game items, redeemed without choosing the game's zone: names the game.
pub fn zone_required(game: &str) -> String {
    format!("Hãy chọn máy chủ của {game} để nhận quà.")
}
/// The game says the player has no character on the zone chosen for the items.
pub const MSG_NO_CHARACTER: &str =
    "Bạn chưa có nhân vật trên máy chủ này. Hãy vào game tạo nhân vật rồi nhận quà lại.";
/// Items sent to the game, whose acknowledgement has not come yet.
pub const MSG_ITEMS_SENT: &str = "Quà đã được gửi tới game, vật phẩm sẽ vào nhân vật của bạn trong giây lát.";
/// The game could not deliver the items; the code's use was given back.
pub const MSG_ITEMS_FAILED: &str =
    "Game chưa trao được quà cho nhân vật của bạn. Mã quà tặng vẫn có thể dùng lại.";
