//! How long what players and staff type may be, in characters, in one place: the services
//! check these, the gateway's OpenAPI document states them as `minLength`/`maxLength` on the
//! REST bodies (`gateway/src/openapi.rs`), and the SPA's forms read them from that document
//! (`web/src/types/api-limits.gen.ts`), so a limit changes here and nowhere else.

/// A username: 4 to 32 of `a-z`, `0-9` and `_` (spec section 5, "Username").
pub const USERNAME_MIN: usize = 4;
pub const USERNAME_MAX: usize = 32;
/// An email address, as typed (trimmed).
pub const EMAIL_MAX: usize = 128;
/// A player's password (spec section 5, "Password"), after Unicode normalisation.
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
/// A staff member's password: it guards the money of every player.
pub const STAFF_PASSWORD_MIN: usize = 12;
/// Each part of a player's name (family, middle, given).
pub const NAME_MAX: usize = 128;
/// The name a player gives a passkey.
pub const PASSKEY_NAME_MAX: usize = 50;
/// A security code mailed to confirm an action (spec section 5, "Security code").
pub const SECURITY_CODE_LENGTH: usize = 6;
/// A support ticket's subject, and any message of a ticket (the player's or support's).
pub const TICKET_SUBJECT_MAX: usize = 120;
pub const TICKET_BODY_MAX: usize = 4000;
/// Why a staff member asks for a KP adjustment.
pub const ADJUSTMENT_REASON_MAX: usize = 500;
/// A gift code, once spaces and dashes are gone.
pub const GIFTCODE_MAX: usize = 64;
