//! Bounds of an outside party's webhook credential headers, which the gateway checks before
//! forwarding and the payment service before any HMAC: one list and one number for both.

/// The headers that may carry a bank feed's credential, by lower-case name: SePay's API key
/// (`Authorization: Apikey …`) or HMAC (`X-SePay-Signature`, `X-SePay-Timestamp`), and Casso's
/// `X-Casso-Signature`. The gateway forwards these and no other.
pub const CREDENTIAL_HEADERS: [&str; 4] = [
    "authorization",
    "x-sepay-signature",
    "x-sepay-timestamp",
    "x-casso-signature",
];

/// The longest credential header accepted: a signature takes under 200 bytes.
pub const MAX_HEADER_LENGTH: usize = 1024;
