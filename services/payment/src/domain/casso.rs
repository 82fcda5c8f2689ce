//! Casso's webhook v2, as Casso documents it in
//! <https://github.com/CassoHQ/casso-webhook-v2-verify-signature> (README and samples):
//!
//! - the body: `{"error": 0, "data": {id, reference, description, amount, runningBalance,
//!   transactionDateTime, accountNumber, bankName, bankAbbreviation, virtualAccountNumber,
//!   virtualAccountName, counterAccount…}}`, `amount` negative for money out;
//! - `X-Casso-Signature: t=<unix milliseconds>,v1=<hex>`, where `v1` is the HMAC-SHA512, keyed
//!   with the integration's "Key bảo mật", of `t + "." + ` the body as compact JSON with every
//!   object's keys in ascending order.
//!
//! The signature covers the body re-serialised, not its bytes. Casso's samples are ASCII, and its
//! own ports differ on other characters (Python and PHP escape them as `\uXXXX`, JavaScript and
//! Go do not), so both forms are tried: the second HMAC only for a body that is not ASCII.

use std::collections::HashMap;

use hmac::{Hmac, Mac};
use serde::Deserialize;
use serde_json::Value;
use sha2::Sha512;

use super::bank_feed::{
    CredentialError, IncomingTransfer, Outgoing, TOLERANCE_SECONDS, count_mac, header, same,
};

/// Casso's ids share the feed's id space with SePay's: prefixed, so a publisher who moves from
/// one to the other never sees a new transfer taken for a retry.
const ID_PREFIX: &str = "casso:";

/// The body as Casso signs it: compact, keys sorted (serde_json's map is ordered), and, when
/// `ascii`, every other character as `\uXXXX`.
fn canonical(body: &Value, ascii: bool) -> String {
    let compact = body.to_string();
    if !ascii {
        return compact;
    }
    let mut escaped = String::with_capacity(compact.len());
    for c in compact.chars() {
        if c.is_ascii() {
            escaped.push(c);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                escaped.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    escaped
}

fn mac(key: &[u8], timestamp: i64, canonical: &str) -> Hmac<Sha512> {
    let mut mac = Hmac::<Sha512>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(canonical.as_bytes());
    mac
}

/// `X-Casso-Signature` for `body` sent at `timestamp_ms` (as Casso's JavaScript sample signs).
pub fn signature(key: &[u8], timestamp_ms: i64, body: &Value) -> String {
    let digest = mac(key, timestamp_ms, &canonical(body, false))
        .finalize()
        .into_bytes();
    format!("t={timestamp_ms},v1={}", hex::encode(digest))
}

pub(super) fn verify(
    key: &[u8],
    headers: &HashMap<String, String>,
    body: &[u8],
    now_ms: i64,
) -> Result<(), CredentialError> {
    let given = header(headers, "x-casso-signature")?;
    let (mut timestamp, mut digest) = (None, None);
    for part in given.split(',') {
        match part.trim().split_once('=') {
            Some(("t", value)) => timestamp = value.parse::<i64>().ok(),
            Some(("v1", value)) => digest = hex::decode(value).ok(),
            _ => {}
        }
    }
    let (Some(timestamp), Some(digest)) = (timestamp, digest) else {
        return Err(CredentialError::Malformed);
    };
    if (now_ms - timestamp).abs() > TOLERANCE_SECONDS * 1000 {
        return Err(CredentialError::Stale);
    }
    let body: Value = serde_json::from_slice(body).map_err(|_| CredentialError::Mismatch)?;
    let forms: &[bool] = if canonical(&body, false).is_ascii() {
        &[false]
    } else {
        &[false, true]
    };
    for &ascii in forms {
        count_mac();
        let expected = mac(key, timestamp, &canonical(&body, ascii))
            .finalize()
            .into_bytes();
        if same(&expected, &digest) {
            return Ok(());
        }
    }
    Err(CredentialError::Mismatch)
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Transaction {
    id: Value,
    #[serde(default)]
    reference: Option<String>,
    description: String,
    amount: i64,
    transaction_date_time: String,
    account_number: String,
    bank_name: String,
    #[serde(default)]
    virtual_account_number: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Notification {
    error: i64,
    data: Transaction,
}

/// Casso's body for `transfer`.
pub(super) fn body(transfer: &Outgoing<'_>) -> Value {
    serde_json::json!({
        "error": 0,
        "data": {
            "id": transfer.id.parse::<u64>().map_or_else(|_| Value::from(transfer.id), Value::from),
            "reference": format!("FT{}", transfer.id),
            "description": transfer.content,
            "amount": transfer.amount_vnd,
            "runningBalance": 0,
            "transactionDateTime": transfer.transaction_date,
            "accountNumber": transfer.account_number,
            "bankName": transfer.gateway,
            "bankAbbreviation": "",
            "virtualAccountNumber": transfer.sub_account.unwrap_or_default(),
            "virtualAccountName": "",
            "counterAccountName": "",
            "counterAccountNumber": "",
            "counterAccountBankId": "",
            "counterAccountBankName": "",
        }
    })
}

pub(super) fn read(body: &Value) -> Result<IncomingTransfer, String> {
    let notification = Notification::deserialize(body).map_err(|error| error.to_string())?;
    if notification.error != 0 {
        return Err(format!("Casso reported error {}", notification.error));
    }
    let transaction = notification.data;
    let id = super::sepay::provider_id(&transaction.id).ok_or("no transaction id")?;
    Ok(IncomingTransfer {
        provider_id: format!("{ID_PREFIX}{id}"),
        gateway: transaction.bank_name,
        transaction_date: transaction.transaction_date_time,
        account_number: transaction.account_number,
        sub_account: transaction
            .virtual_account_number
            .filter(|account| !account.trim().is_empty()),
        content: transaction.description,
        incoming: transaction.amount > 0,
        amount_vnd: transaction.amount.saturating_abs(),
        reference_code: transaction.reference.filter(|reference| !reference.is_empty()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Casso's own sample (`python.py` of CassoHQ/casso-webhook-v2-verify-signature): the body,
    /// its key and the header Casso computed.
    const SAMPLE: &str = include_str!("../../tests/fixtures/casso-webhook-v2.json");
    const SAMPLE_KEY: &[u8] = b"mgExMrjj4i7a1p8Cs6LmFbpCd8lbw4sSX4LZXPag7TKazeIogtR90tvWYTkwQbvs";
    const SAMPLE_SIGNATURE: &str = "t=1727948258788,v1=ed0a4bd2e826d5cb69988cdb141e6c1a080e21f3b57eb72cd78192220042b9e7dde0868fc667faea8e224900fa7904e7c88dfa098032fb2d6b6996856e8b7ff3";
    const SAMPLE_AT: i64 = 1_727_948_258_788;

    fn signed(signature: &str) -> HashMap<String, String> {
        HashMap::from([("x-casso-signature".to_owned(), signature.to_owned())])
    }

    #[test]
    fn cassos_own_sample_verifies_and_reads() {
        assert_eq!(
            verify(
                SAMPLE_KEY,
                &signed(SAMPLE_SIGNATURE),
                SAMPLE.as_bytes(),
                SAMPLE_AT + 1_000
            ),
            Ok(())
        );
        let body: Value = serde_json::from_str(SAMPLE).expect("json");
        assert_eq!(signature(SAMPLE_KEY, SAMPLE_AT, &body), SAMPLE_SIGNATURE);
        let transfer = read(&body).expect("read");
        assert_eq!(transfer.provider_id, "casso:0");
        assert_eq!(transfer.gateway, "VPBank");
        assert_eq!(transfer.account_number, "88888888");
        assert_eq!(transfer.sub_account, None);
        assert_eq!(transfer.content, "giao dich thu nghiem");
        assert!(transfer.incoming);
        assert_eq!(transfer.amount_vnd, 599_000);
    }

    #[test]
    fn a_changed_stale_or_malformed_signature_is_refused() {
        let body = SAMPLE.replace("599000", "5990000");
        assert_eq!(
            verify(SAMPLE_KEY, &signed(SAMPLE_SIGNATURE), body.as_bytes(), SAMPLE_AT),
            Err(CredentialError::Mismatch)
        );
        assert_eq!(
            verify(
                SAMPLE_KEY,
                &signed(SAMPLE_SIGNATURE),
                SAMPLE.as_bytes(),
                SAMPLE_AT + 300_001
            ),
            Err(CredentialError::Stale)
        );
        for bad in ["t=1727948258788", "v1=00", "t=x,v1=00", "t=1727948258788,v1=zz"] {
            assert_eq!(
                verify(SAMPLE_KEY, &signed(bad), SAMPLE.as_bytes(), SAMPLE_AT),
                Err(CredentialError::Malformed),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_vietnamese_description_verifies_in_either_of_cassos_encodings() {
        let body: Value =
            serde_json::from_str(&SAMPLE.replace("giao dich thu nghiem", "Nạp KP 🎮")).expect("json");
        let bytes = body.to_string();
        let escaped = canonical(&body, true);
        assert!(escaped.contains("N\\u1ea1p KP \\ud83c\\udfae"), "{escaped}");
        let python = mac(SAMPLE_KEY, SAMPLE_AT, &escaped).finalize().into_bytes();
        let header = format!("t={SAMPLE_AT},v1={}", hex::encode(python));
        assert_eq!(
            verify(SAMPLE_KEY, &signed(&header), bytes.as_bytes(), SAMPLE_AT),
            Ok(())
        );
        let javascript = signature(SAMPLE_KEY, SAMPLE_AT, &body);
        assert_eq!(
            verify(SAMPLE_KEY, &signed(&javascript), bytes.as_bytes(), SAMPLE_AT),
            Ok(())
        );
    }

    #[test]
    fn money_out_and_an_error_notification_are_not_incoming_transfers() {
        let out: Value = serde_json::from_str(&SAMPLE.replace("599000", "-599000")).expect("json");
        let transfer = read(&out).expect("read");
        assert!(!transfer.incoming);
        assert_eq!(transfer.amount_vnd, 599_000);
        let error: Value =
            serde_json::from_str(&SAMPLE.replace("\"error\": 0", "\"error\": 1")).expect("json");
        assert!(read(&error).is_err());
    }
}
