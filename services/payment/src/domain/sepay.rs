//! SePay's webhook, as its developer documentation gives it:
//!
//! - the body: <https://developer.sepay.vn/en/sepay-webhooks/bat-dau-nhanh> (`id`, `gateway`,
//!   `transactionDate`, `accountNumber`, `subAccount`, `code`, `content`, `transferType`,
//!   `transferAmount`, `accumulated`, `referenceCode`, `description`);
//! - authentication: <https://developer.sepay.vn/en/sepay-webhooks/xac-thuc>. An API key is sent
//!   as `Authorization: Apikey <key>`. HMAC-SHA256 signs `"<X-SePay-Timestamp>.<raw body>"`
//!   with the webhook's secret key into `X-SePay-Signature: sha256=<hex>`; the timestamp is
//!   unix seconds, to be refused past 5 minutes
//!   (<https://developer.sepay.vn/en/sepay-webhooks/bao-mat>). The signed string and the header's
//!   `sha256=` form are as SePay's integrators implement them (for example
//!   `sepayvn/laravel-sepay`'s users); the stored copy of the page's HMAC section was cut;
//! - the answer: any 2xx, `{"success": true}`; otherwise SePay retries 7 times on a Fibonacci
//!   schedule over 33 minutes (<https://developer.sepay.vn/en/sepay-webhooks/xu-ly-loi>).

use std::collections::HashMap;

use hmac::{Hmac, Mac};
use serde::Deserialize;
use serde_json::Value;
use sha2::Sha256;

use super::bank_feed::{
    CredentialError, IncomingTransfer, Outgoing, TOLERANCE_SECONDS, count_mac, header, same,
};

/// The `Authorization` value for `key`.
pub fn api_key_header(key: &str) -> String {
    format!("Apikey {key}")
}

pub(super) fn verify_api_key(key: &[u8], headers: &HashMap<String, String>) -> Result<(), CredentialError> {
    let given = header(headers, "authorization")?
        .strip_prefix("Apikey ")
        .ok_or(CredentialError::Malformed)?;
    if same(key, given.as_bytes()) {
        Ok(())
    } else {
        Err(CredentialError::Mismatch)
    }
}

fn mac(secret: &[u8], timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// `X-SePay-Signature` for `body` sent at `timestamp` (unix seconds).
pub fn hmac_signature(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    format!(
        "sha256={}",
        hex::encode(mac(secret, timestamp, body).finalize().into_bytes())
    )
}

pub(super) fn verify_hmac(
    secret: &[u8],
    headers: &HashMap<String, String>,
    body: &[u8],
    now: i64,
) -> Result<(), CredentialError> {
    let signature = header(headers, "x-sepay-signature")?;
    let timestamp: i64 = header(headers, "x-sepay-timestamp")?
        .parse()
        .map_err(|_| CredentialError::Malformed)?;
    let digest = signature
        .strip_prefix("sha256=")
        .and_then(|digest| hex::decode(digest).ok())
        .ok_or(CredentialError::Malformed)?;
    if (now - timestamp).abs() > TOLERANCE_SECONDS {
        return Err(CredentialError::Stale);
    }
    count_mac();
    mac(secret, timestamp, body)
        .verify_slice(&digest)
        .map_err(|_| CredentialError::Mismatch)
}

/// SePay's body. Unknown fields stay in the record's copy of the body.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Transfer {
    id: Value,
    gateway: String,
    transaction_date: String,
    account_number: String,
    #[serde(default)]
    sub_account: Option<String>,
    #[serde(default)]
    code: Option<String>,
    content: String,
    transfer_type: String,
    transfer_amount: i64,
    #[serde(default)]
    reference_code: Option<String>,
}

/// SePay's numeric `id` (a string one is taken too).
pub(super) fn provider_id(id: &Value) -> Option<String> {
    match id {
        Value::Number(number) => Some(number.to_string()),
        Value::String(text) if !text.trim().is_empty() => Some(text.trim().to_owned()),
        _ => None,
    }
}

/// SePay's body for `transfer`.
pub(super) fn body(transfer: &Outgoing<'_>) -> Value {
    serde_json::json!({
        "id": transfer.id.parse::<u64>().map_or_else(|_| Value::from(transfer.id), Value::from),
        "gateway": transfer.gateway,
        "transactionDate": transfer.transaction_date,
        "accountNumber": transfer.account_number,
        "subAccount": transfer.sub_account,
        "code": null,
        "content": transfer.content,
        "transferType": "in",
        "transferAmount": transfer.amount_vnd,
        "accumulated": 0,
        "referenceCode": format!("FT{}", transfer.id),
        "description": format!("BankAPINotify {}", transfer.content),
    })
}

pub(super) fn read(body: &Value) -> Result<IncomingTransfer, String> {
    let transfer = Transfer::deserialize(body).map_err(|error| error.to_string())?;
    let provider_id = provider_id(&transfer.id).ok_or("no transaction id")?;
    Ok(IncomingTransfer {
        provider_id,
        gateway: transfer.gateway,
        transaction_date: transfer.transaction_date,
        account_number: transfer.account_number,
        sub_account: transfer.sub_account.filter(|account| !account.trim().is_empty()),
        content: transfer.content,
        incoming: transfer.transfer_type.eq_ignore_ascii_case("in"),
        amount_vnd: transfer.transfer_amount,
        reference_code: transfer.reference_code.or(transfer.code),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::bank_feed::MAX_HEADER_LENGTH;

    fn headers(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect()
    }

    /// SePay's sample, from <https://developer.sepay.vn/en/sepay-webhooks/bat-dau-nhanh>.
    const SAMPLE: &str = include_str!("../../tests/fixtures/sepay-webhook.json");

    #[test]
    fn the_documented_sample_reads_as_an_incoming_transfer() {
        let body: Value = serde_json::from_str(SAMPLE).expect("json");
        let transfer = read(&body).expect("read");
        assert_eq!(transfer.provider_id, "92704");
        assert_eq!(transfer.gateway, "Vietcombank");
        assert_eq!(transfer.account_number, "0123499999");
        assert_eq!(transfer.sub_account, None);
        assert!(transfer.incoming);
        assert_eq!(transfer.amount_vnd, 2_277_000);
        assert_eq!(transfer.reference_code.as_deref(), Some("MBVCB.3278907687"));
    }

    #[test]
    fn an_api_key_is_taken_only_whole_and_after_its_scheme() {
        let key = b"dev-sepay-key";
        assert_eq!(
            verify_api_key(key, &headers(&[("authorization", "Apikey dev-sepay-key")])),
            Ok(())
        );
        for (given, refused) in [
            ("Apikey dev-sepay-ke", CredentialError::Mismatch),
            ("Apikey dev-sepay-keyy", CredentialError::Mismatch),
            ("Bearer dev-sepay-key", CredentialError::Malformed),
            ("dev-sepay-key", CredentialError::Malformed),
            ("", CredentialError::Missing),
        ] {
            assert_eq!(
                verify_api_key(key, &headers(&[("authorization", given)])),
                Err(refused),
                "{given}"
            );
        }
        let long = format!("Apikey {}", "k".repeat(MAX_HEADER_LENGTH));
        assert_eq!(
            verify_api_key(key, &headers(&[("authorization", &long)])),
            Err(CredentialError::Oversized)
        );
    }

    #[test]
    fn an_hmac_signs_the_timestamp_and_the_body_within_five_minutes() {
        let secret = b"sepay-secret";
        let body = SAMPLE.as_bytes();
        let signed = |at: i64| {
            headers(&[
                ("x-sepay-signature", &hmac_signature(secret, at, body)),
                ("x-sepay-timestamp", &at.to_string()),
            ])
        };
        assert_eq!(verify_hmac(secret, &signed(1_000), body, 1_300), Ok(()));
        assert_eq!(
            verify_hmac(secret, &signed(1_000), body, 1_301),
            Err(CredentialError::Stale)
        );
        assert_eq!(
            verify_hmac(b"other", &signed(1_000), body, 1_000),
            Err(CredentialError::Mismatch)
        );
        assert_eq!(
            verify_hmac(secret, &signed(1_000), b"{}", 1_000),
            Err(CredentialError::Mismatch)
        );
        // The timestamp is signed: moving it breaks the signature.
        let mut moved = signed(1_000);
        moved.insert("x-sepay-timestamp".into(), "1001".into());
        assert_eq!(
            verify_hmac(secret, &moved, body, 1_000),
            Err(CredentialError::Mismatch)
        );
        let bare = headers(&[
            ("x-sepay-signature", &hmac_signature(secret, 1_000, body)[7..]),
            ("x-sepay-timestamp", "1000"),
        ]);
        assert_eq!(
            verify_hmac(secret, &bare, body, 1_000),
            Err(CredentialError::Malformed)
        );
        assert_eq!(
            verify_hmac(secret, &headers(&[]), body, 1_000),
            Err(CredentialError::Missing)
        );
    }
}
