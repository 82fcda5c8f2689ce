//! The signature outside parties put on their webhooks, and we on our requests to them:
//! `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` with a shared secret,
//! accepted within a tolerance of the signer's clock.

use std::sync::atomic::{AtomicU64, Ordering};

use hmac::{Hmac, Mac};
use sha2::Sha256;
use time::OffsetDateTime;

type HmacSha256 = Hmac<Sha256>;

/// How far a signature's time may be from ours.
pub const TOLERANCE_SECONDS: i64 = 300;

pub use kid_platform::webhook::{MAX_HEADER_LENGTH, MAX_SIGNATURES};

/// HMACs computed by verification since the process started (a refused header costs none).
static MACS_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// How many HMACs verification has computed in this process.
pub fn macs_verified() -> u64 {
    MACS_VERIFIED.load(Ordering::Relaxed)
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SignatureError {
    #[error("the signature header is missing or malformed")]
    Malformed,
    #[error(
        "the signature header is longer than {MAX_HEADER_LENGTH} bytes or has more than {MAX_SIGNATURES} signatures"
    )]
    Oversized,
    #[error("the signature is too old or from the future")]
    Stale,
    #[error("the signature does not match the body")]
    Mismatch,
}

fn mac(secret: &[u8], timestamp: i64, body: &[u8]) -> HmacSha256 {
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The header value for `body` signed at `timestamp`.
pub fn sign(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    let digest = mac(secret, timestamp, body).finalize().into_bytes();
    format!("t={timestamp},v1={}", hex::encode(digest))
}

/// Signs `body` now.
pub fn sign_now(secret: &[u8], body: &[u8]) -> String {
    sign(secret, OffsetDateTime::now_utc().unix_timestamp(), body)
}

/// A body whose signature [`verified`] accepted: what the webhooks' handlers take.
#[derive(Debug, Clone, Copy)]
pub struct Verified<'a>(&'a [u8]);

impl<'a> Verified<'a> {
    pub fn body(self) -> &'a [u8] {
        self.0
    }
}

/// `body`, once `header` is found to sign it (see [`verify`]).
pub fn verified<'a>(
    secret: &[u8],
    header: &str,
    body: &'a [u8],
    now: i64,
) -> Result<Verified<'a>, SignatureError> {
    verify(secret, header, body, now).map(|()| Verified(body))
}

/// Checks `header` against `body` at time `now` (unix seconds), in constant time.
/// A header over [`MAX_HEADER_LENGTH`] or with more than [`MAX_SIGNATURES`] is refused before
/// any HMAC is computed.
pub fn verify(secret: &[u8], header: &str, body: &[u8], now: i64) -> Result<(), SignatureError> {
    if header.len() > MAX_HEADER_LENGTH {
        return Err(SignatureError::Oversized);
    }
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => {
                if signatures.len() == MAX_SIGNATURES {
                    return Err(SignatureError::Oversized);
                }
                signatures.push(hex::decode(value).map_err(|_| SignatureError::Malformed)?)
            }
            _ => {}
        }
    }
    let timestamp = timestamp.ok_or(SignatureError::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if (now - timestamp).abs() > TOLERANCE_SECONDS {
        return Err(SignatureError::Stale);
    }
    // Several v1 values allow a secret to be rotated: any one matching is enough.
    if signatures.iter().any(|signature| {
        MACS_VERIFIED.fetch_add(1, Ordering::Relaxed);
        mac(secret, timestamp, body).verify_slice(signature).is_ok()
    }) {
        Ok(())
    } else {
        Err(SignatureError::Mismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"dev-bank-secret";
    const BODY: &[u8] = br#"{"id":1}"#;

    #[test]
    fn a_signature_verifies_within_the_tolerance() {
        let header = sign(SECRET, 1_000_000, BODY);
        assert!(header.starts_with("t=1000000,v1="));
        assert_eq!(verify(SECRET, &header, BODY, 1_000_000), Ok(()));
        assert_eq!(verify(SECRET, &header, BODY, 1_000_300), Ok(()));
        assert_eq!(verify(SECRET, &header, BODY, 999_700), Ok(()));
    }

    #[test]
    fn refuses_stale_forged_and_malformed_signatures() {
        let header = sign(SECRET, 1_000_000, BODY);
        assert_eq!(
            verify(SECRET, &header, BODY, 1_000_301),
            Err(SignatureError::Stale)
        );
        assert_eq!(
            verify(SECRET, &header, br#"{"id":2}"#, 1_000_000),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify(b"other", &header, BODY, 1_000_000),
            Err(SignatureError::Mismatch)
        );
        // The timestamp is signed too: moving it breaks the signature.
        let moved = header.replace("t=1000000", "t=1000100");
        assert_eq!(
            verify(SECRET, &moved, BODY, 1_000_100),
            Err(SignatureError::Mismatch)
        );
        for bad in ["", "t=1000000", "v1=00", "t=x,v1=00", "t=1000000,v1=zz"] {
            assert_eq!(
                verify(SECRET, bad, BODY, 1_000_000),
                Err(SignatureError::Malformed),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_oversized_header_is_refused_before_any_hmac() {
        let good = sign(SECRET, 5, BODY);
        let v1 = good.split_once(",v1=").unwrap().1;
        let five = format!("t=5{}", format!(",v1={v1}").repeat(5));
        assert!(five.len() < MAX_HEADER_LENGTH);
        let before = macs_verified();
        assert_eq!(verify(SECRET, &five, BODY, 5), Err(SignatureError::Oversized));
        let long = format!("t=5,v1={v1},x={}", "a".repeat(MAX_HEADER_LENGTH));
        assert_eq!(verify(SECRET, &long, BODY, 5), Err(SignatureError::Oversized));
        assert_eq!(macs_verified(), before, "no HMAC for a refused header");
        let four = format!("t=5{}", format!(",v1={v1}").repeat(4));
        assert_eq!(verify(SECRET, &four, BODY, 5), Ok(()));
    }

    #[test]
    fn any_one_of_several_signatures_may_match() {
        let good = sign(SECRET, 5, BODY);
        let v1 = good.split_once(",v1=").unwrap().1;
        let header = format!("t=5,v1={},v1={v1}", "00".repeat(32));
        assert_eq!(verify(SECRET, &header, BODY, 5), Ok(()));
    }
}
