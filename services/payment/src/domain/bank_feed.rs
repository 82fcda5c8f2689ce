//! The bank feed's port: the provider the publisher signed with proves each webhook by its own
//! documented scheme (SePay's API key or HMAC-SHA256, Casso's HMAC-SHA512) and its body reads
//! into one [`IncomingTransfer`]. Nothing of a body is trusted before [`BankFeed::verify`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use secrecy::{ExposeSecret, SecretString};

use super::{casso, sepay};

pub use kid_platform::webhook::{CREDENTIAL_HEADERS, MAX_HEADER_LENGTH};

/// How far a signed timestamp may be from our clock: SePay's advice ("reject requests where
/// the timestamp drifts more than 5 minutes"), for Casso too.
pub const TOLERANCE_SECONDS: i64 = 300;

/// HMACs computed by verification since the process started (a refused header costs none).
static MACS_VERIFIED: AtomicU64 = AtomicU64::new(0);

/// How many HMACs verification has computed in this process.
pub fn macs_verified() -> u64 {
    MACS_VERIFIED.load(Ordering::Relaxed)
}

pub(super) fn count_mac() {
    MACS_VERIFIED.fetch_add(1, Ordering::Relaxed);
}

/// The provider and scheme, as `payment.bank_feed` names it.
pub use kid_platform::config::BankFeedScheme as Scheme;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CredentialError {
    #[error("the provider's credential header is missing")]
    Missing,
    #[error("the provider's credential header is malformed")]
    Malformed,
    #[error("a credential header is longer than {MAX_HEADER_LENGTH} bytes")]
    Oversized,
    #[error("the signature is too old or from the future")]
    Stale,
    #[error("the credential does not match")]
    Mismatch,
}

/// A header's value, bounded; `Missing` when absent or empty.
pub(super) fn header<'a>(
    headers: &'a HashMap<String, String>,
    name: &str,
) -> Result<&'a str, CredentialError> {
    match headers.get(name).map(|value| value.trim()) {
        Some(value) if value.len() > MAX_HEADER_LENGTH => Err(CredentialError::Oversized),
        Some(value) if !value.is_empty() => Ok(value),
        _ => Err(CredentialError::Missing),
    }
}

/// A notification whose credential [`BankFeed::verify`] accepted.
#[derive(Debug, Clone, Copy)]
pub struct Verified<'a> {
    scheme: Scheme,
    body: &'a [u8],
}

impl<'a> Verified<'a> {
    pub fn body(self) -> &'a [u8] {
        self.body
    }

    /// The transfer the body describes, in its provider's shape.
    pub fn read(self, body: &serde_json::Value) -> Result<IncomingTransfer, String> {
        match self.scheme {
            Scheme::SepayApiKey | Scheme::SepayHmac => sepay::read(body),
            Scheme::Casso => casso::read(body),
        }
    }
}

/// One transfer as any provider reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncomingTransfer {
    /// The provider's id of the transaction: the same id again is the same transfer (a retry).
    pub provider_id: String,
    /// The bank or e-wallet, as the provider names it.
    pub gateway: String,
    pub transaction_date: String,
    /// The account the money arrived in.
    pub account_number: String,
    /// The virtual account inside it the payer paid into, when there is one.
    pub sub_account: Option<String>,
    pub content: String,
    /// Money in (money out is recorded and ignored).
    pub incoming: bool,
    /// In VND, positive for either direction.
    pub amount_vnd: i64,
    pub reference_code: Option<String>,
}

/// The provider the publisher signed with, and its key or secret.
#[derive(Clone)]
pub struct BankFeed {
    scheme: Scheme,
    secret: SecretString,
}

impl BankFeed {
    pub fn new(scheme: Scheme, secret: SecretString) -> Self {
        Self { scheme, secret }
    }

    /// The feed `payment.bank_feed` and `payment.bank_feed_secret` name.
    pub fn from_settings(settings: &kid_platform::config::PaymentSettings) -> Self {
        Self::new(settings.bank_feed, settings.bank_feed_secret.clone())
    }

    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// `body`, once `headers` prove it came from the provider at `now_ms` (unix milliseconds).
    pub fn verify<'a>(
        &self,
        headers: &HashMap<String, String>,
        body: &'a [u8],
        now_ms: i64,
    ) -> Result<Verified<'a>, CredentialError> {
        let secret = self.secret.expose_secret().as_bytes();
        match self.scheme {
            Scheme::SepayApiKey => sepay::verify_api_key(secret, headers)?,
            Scheme::SepayHmac => sepay::verify_hmac(secret, headers, body, now_ms / 1000)?,
            Scheme::Casso => casso::verify(secret, headers, body, now_ms)?,
        }
        Ok(Verified {
            scheme: self.scheme,
            body,
        })
    }
}

/// `expected == given` in time independent of where they differ.
pub(super) fn same(expected: &[u8], given: &[u8]) -> bool {
    use subtle::ConstantTimeEq;
    expected.ct_eq(given).into()
}

/// Now, in unix milliseconds: the time `verify` and `headers` take.
pub fn now_ms() -> i64 {
    i64::try_from(time::OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// A transfer as a provider would notify it: what its simulators, the bench, the chaos suite and
/// the tests send.
#[derive(Debug, Clone, Copy)]
pub struct Outgoing<'a> {
    /// The provider's id (digits, for Casso's numeric ids).
    pub id: &'a str,
    pub gateway: &'a str,
    pub account_number: &'a str,
    pub sub_account: Option<&'a str>,
    pub content: &'a str,
    pub amount_vnd: i64,
    /// `YYYY-MM-DD hh:mm:ss`, as both providers write it.
    pub transaction_date: &'a str,
}

impl BankFeed {
    /// The body the provider sends for `transfer`, in its own shape.
    pub fn body(&self, transfer: &Outgoing<'_>) -> Vec<u8> {
        let body = match self.scheme {
            Scheme::SepayApiKey | Scheme::SepayHmac => sepay::body(transfer),
            Scheme::Casso => casso::body(transfer),
        };
        body.to_string().into_bytes()
    }

    /// The credential headers the provider puts on `body` sent at `now_ms`.
    pub fn headers(&self, body: &[u8], now_ms: i64) -> Vec<(&'static str, String)> {
        let secret = self.secret.expose_secret();
        match self.scheme {
            Scheme::SepayApiKey => vec![("authorization", sepay::api_key_header(secret))],
            Scheme::SepayHmac => {
                let timestamp = now_ms / 1000;
                vec![
                    (
                        "x-sepay-signature",
                        sepay::hmac_signature(secret.as_bytes(), timestamp, body),
                    ),
                    ("x-sepay-timestamp", timestamp.to_string()),
                ]
            }
            Scheme::Casso => {
                let value = serde_json::from_slice(body).unwrap_or_default();
                vec![(
                    "x-casso-signature",
                    casso::signature(secret.as_bytes(), now_ms, &value),
                )]
            }
        }
    }
}
