//! The signature outside parties put on their webhooks, and we on our requests to them:
//! `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` with a shared secret,
//! accepted within a tolerance of the signer's clock.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use time::OffsetDateTime;

type HmacSha256 = Hmac<Sha256>;

/// How far a signature's time may be from ours.
pub const TOLERANCE_SECONDS: i64 = 300;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SignatureError {
    #[error("the signature header is missing or malformed")]
    Malformed,
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

/// Checks `header` against `body` at time `now` (unix seconds), in constant time.
pub fn verify(secret: &[u8], header: &str, body: &[u8], now: i64) -> Result<(), SignatureError> {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => {
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
    if signatures
        .iter()
        .any(|signature| mac(secret, timestamp, body).verify_slice(signature).is_ok())
    {
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
    fn any_one_of_several_signatures_may_match() {
        let good = sign(SECRET, 5, BODY);
        let v1 = good.split_once(",v1=").unwrap().1;
        let header = format!("t=5,v1={},v1={v1}", "00".repeat(32));
        assert_eq!(verify(SECRET, &header, BODY, 5), Ok(()));
    }
}
