//! Bounds of an outside party's webhook signature header (`X-Signature`), which the gateway
//! checks before forwarding and the payment service before any HMAC: one number for both.

/// The most `v1=` values a header may carry: two during a secret's rotation, with room.
/// Each costs an HMAC over the whole body, so an unbounded list is a CPU amplifier.
pub const MAX_SIGNATURES: usize = 4;
/// The longest header accepted: `t=` and four signatures take under 300 bytes.
pub const MAX_HEADER_LENGTH: usize = 1024;
