//! The charging API Vietnamese card-exchange aggregators share (TheSieuRe's `chargingws/v2` and
//! its clones), as their partner documentation gives it: the "CARD PARTNER API" Postman
//! collection (<https://documenter.getpostman.com/view/5740908/SVfWN6vi>), and for the
//! sorted-keys signature, the clones' guide
//! (<https://edricx.com/news/huong-dan-ket-noi-api-doi-the-tai-trumcard1sstore.html>).
//!
//! - A card: `GET|POST {host}/chargingws/v2` with `telco`, `code` (the PIN), `serial`, `amount`,
//!   `request_id`, `partner_id`, `command=charging` and `sign`; `command=check` asks again for
//!   a card. The answer is JSON `{status, message, request_id, declared_value, value, amount,
//!   code, serial, telco, trans_id}`.
//! - `sign` is MD5, lower-case hex, of the partner key followed by the values of `code`,
//!   `command`, `partner_id`, `request_id`, `serial` and `telco` in the order of their sorted
//!   keys (`amount` is not signed), or, with older hosts, of the key, `code` and `serial`
//!   ([`SignScheme`], chosen by settings).
//! - The result, later: a callback with the answer's fields and
//!   `callback_sign = md5(partner_key + code + serial)`, as JSON or as a form.
//! - Statuses: 1 good at the declared value, 2 good at another value (`value`), 3 a bad card,
//!   4 maintenance, 99 pending, 100 not taken (the reason in `message`).
//!
//! MD5 is the protocol's, not a choice of ours: it lives only here.

use md5::{Digest, Md5};
use rust_decimal::{Decimal, prelude::ToPrimitive};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::card::Outcome;

/// How the request's `sign` is made, as the aggregator documents it.
pub use kid_platform::config::CardSignScheme as SignScheme;

/// `charging` or `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Charging,
    Check,
}

impl Command {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Charging => "charging",
            Self::Check => "check",
        }
    }
}

fn md5_hex(parts: &[&str]) -> String {
    let mut hasher = Md5::new();
    for part in parts {
        hasher.update(part.as_bytes());
    }
    hex::encode(hasher.finalize())
}

/// A request's fields, but `amount` and `sign`.
pub struct Signed<'a> {
    pub telco: &'a str,
    pub code: &'a str,
    pub serial: &'a str,
    pub request_id: &'a str,
    pub partner_id: &'a str,
    pub command: Command,
}

/// The request's `sign`.
pub fn sign(key: &str, scheme: SignScheme, request: &Signed<'_>) -> String {
    match scheme {
        SignScheme::SortedValues => md5_hex(&[
            key,
            request.code,
            request.command.as_str(),
            request.partner_id,
            request.request_id,
            request.serial,
            request.telco,
        ]),
        SignScheme::CodeSerial => md5_hex(&[key, request.code, request.serial]),
    }
}

/// A callback's `callback_sign`.
pub fn callback_sign(key: &str, code: &str, serial: &str) -> String {
    md5_hex(&[key, code, serial])
}

/// What the protocol says of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// 1, 2, 3 or 4: the card's result.
    Settled(Outcome),
    /// 99: not yet known.
    Pending,
    /// 100: the card was not taken; why is in `message`.
    NotTaken,
}

impl Status {
    pub fn from_code(code: i64) -> Option<Self> {
        Some(match code {
            1 => Self::Settled(Outcome::Success),
            2 => Self::Settled(Outcome::WrongAmount),
            3 => Self::Settled(Outcome::Invalid),
            4 => Self::Settled(Outcome::Maintenance),
            99 => Self::Pending,
            100 => Self::NotTaken,
            _ => return None,
        })
    }
}

/// A number the aggregator may write as a number, a string of digits or null.
fn loose_number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::Number(number) => number.as_i64(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    })
}

/// A text the aggregator may write as a number or a string.
fn loose_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::String(text) => text,
        Value::Null => String::new(),
        other => other.to_string(),
    })
}

/// An answer or a callback: the same fields (a callback adds `callback_sign`).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Report {
    #[serde(deserialize_with = "loose_number")]
    pub status: Option<i64>,
    #[serde(default, deserialize_with = "loose_text")]
    pub message: String,
    #[serde(default, deserialize_with = "loose_text")]
    pub request_id: String,
    #[serde(default, deserialize_with = "loose_number")]
    pub declared_value: Option<i64>,
    /// The card's real value.
    #[serde(default, deserialize_with = "loose_number")]
    pub value: Option<i64>,
    /// What the aggregator pays us for it, after its fee.
    #[serde(default, deserialize_with = "loose_number")]
    pub amount: Option<i64>,
    #[serde(default, deserialize_with = "loose_text")]
    pub code: String,
    #[serde(default, deserialize_with = "loose_text")]
    pub serial: String,
    #[serde(default, deserialize_with = "loose_text")]
    pub telco: String,
    #[serde(default, deserialize_with = "loose_text")]
    pub trans_id: String,
    #[serde(default, deserialize_with = "loose_text")]
    pub callback_sign: String,
}

impl Report {
    /// Reads a JSON body, or a form (`application/x-www-form-urlencoded`) one.
    pub fn parse(body: &[u8], form: bool) -> Result<Self, String> {
        if form {
            let pairs: serde_json::Map<String, Value> =
                serde_urlencoded::from_bytes::<Vec<(String, String)>>(body)
                    .map_err(|error| error.to_string())?
                    .into_iter()
                    .map(|(name, value)| (name, Value::String(value)))
                    .collect();
            Self::deserialize(Value::Object(pairs)).map_err(|error| error.to_string())
        } else {
            serde_json::from_slice(body).map_err(|error| error.to_string())
        }
    }

    /// The report as kept with its card order: every field but the PIN (`code`) and the
    /// signature made from it.
    pub fn redacted(&self) -> Value {
        serde_json::json!({
            "status": self.status,
            "message": self.message,
            "request_id": self.request_id,
            "declared_value": self.declared_value,
            "value": self.value,
            "amount": self.amount,
            "serial": self.serial,
            "telco": self.telco,
            "trans_id": self.trans_id,
        })
    }

    pub fn status(&self) -> Option<Status> {
        self.status.and_then(Status::from_code)
    }

    /// Whether `callback_sign` is the partner's signature of this card's code and serial.
    pub fn signed_by(&self, key: &str) -> bool {
        use subtle::ConstantTimeEq;
        let expected = callback_sign(key, &self.code, &self.serial);
        expected
            .as_bytes()
            .ct_eq(self.callback_sign.to_ascii_lowercase().as_bytes())
            .into()
    }
}

/// One line of the aggregator's price list (`GET {host}/chargingws/v2/getfee?partner_id=`):
/// what it keeps of a card of `telco` at `value`, in percent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fee {
    pub telco: String,
    pub value: i64,
    pub fee_percent: Decimal,
    /// What it keeps of a card of the wrong face value.
    pub penalty_percent: Option<Decimal>,
}

fn decimal(value: &Value) -> Option<Decimal> {
    match value {
        Value::Number(number) => number.to_string().parse().ok(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    }
}

/// The price list, in either shape the aggregators answer: a flat array of
/// `{telco, value, fees, penalty}`, or those grouped in an object by telco.
pub fn parse_fees(body: &[u8]) -> Result<Vec<Fee>, String> {
    let list: Value = serde_json::from_slice(body).map_err(|error| error.to_string())?;
    let rows: Vec<&Value> = match &list {
        Value::Array(rows) => rows.iter().collect(),
        Value::Object(groups) => groups.values().filter_map(Value::as_array).flatten().collect(),
        _ => return Err("a price list is an array or an object of arrays".into()),
    };
    rows.into_iter()
        .map(|row| {
            let telco = row["telco"].as_str().ok_or("a fee without its telco")?;
            let value = decimal(&row["value"])
                .and_then(|value| value.to_i64())
                .ok_or("a fee without its value")?;
            let fee_percent = decimal(&row["fees"]).ok_or("a fee without its percent")?;
            Ok(Fee {
                telco: telco.trim().to_ascii_uppercase(),
                value,
                fee_percent,
                penalty_percent: decimal(&row["penalty"]),
            })
        })
        .collect()
}

/// The PIN is a bearer secret: never in a log line.
impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "status {:?} request {} serial {} value {:?} ({})",
            self.status, self.request_id, self.serial, self.value, self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The callback of the Postman collection, as it gives it (JSON, by POST).
    const CALLBACK: &str = include_str!("../../tests/fixtures/charging-callback.json");

    #[test]
    fn the_documented_callback_reads_with_every_field() {
        let report = Report::parse(CALLBACK.as_bytes(), false).expect("parse");
        assert_eq!(report.status(), Some(Status::Settled(Outcome::Success)));
        assert_eq!(report.message, "Thành công");
        assert_eq!(report.request_id, "989876");
        assert_eq!(
            (report.declared_value, report.value, report.amount),
            (Some(50_000), Some(50_000), Some(25_000))
        );
        assert_eq!(
            (report.code.as_str(), report.serial.as_str()),
            ("314688440422676", "10003395125761")
        );
        assert_eq!(report.trans_id, "54180");
        assert_eq!(report.callback_sign, "17b118fe86852c52ea126c9537617f6d");
    }

    #[test]
    fn a_form_callback_with_values_as_text_reads_the_same() {
        let form = "status=2&message=WRONG_VALUE&request_id=15707&declared_value=50000&value=20000&amount=8500\
                    &code=012522661145218&serial=10008596714373&telco=VIETTEL&trans_id=3554649&callback_sign=ab";
        let report = Report::parse(form.as_bytes(), true).expect("parse");
        assert_eq!(report.status(), Some(Status::Settled(Outcome::WrongAmount)));
        assert_eq!(report.value, Some(20_000));
        assert_eq!(report.trans_id, "3554649");
        let json = r#"{"status":"2","value":"20000","trans_id":3554649,"declared_value":null}"#;
        let report = Report::parse(json.as_bytes(), false).expect("parse");
        assert_eq!(
            (report.status, report.value, report.declared_value),
            (Some(2), Some(20_000), None)
        );
        assert_eq!(report.trans_id, "3554649");
    }

    #[test]
    fn the_price_list_reads_in_both_of_its_shapes() {
        // As the Postman collection shows it (grouped by telco) and as the thesieure.com
        // clients read it (flat).
        let grouped = br#"{"VIETTEL":[{"telco":"VIETTEL","value":10000,"fees":30,"penalty":20},
            {"telco":"VIETTEL","value":20000,"fees":"14.5","penalty":50}],"VINAPHONE":[],"GATE":[]}"#;
        let flat = br#"[{"telco":"VNMOBI","value":10000,"fees":17,"penalty":50},
            {"telco":"VIETTEL","value":10000,"fees":19,"penalty":null}]"#;
        let grouped = parse_fees(grouped).expect("grouped");
        assert_eq!(grouped.len(), 2);
        assert_eq!(grouped[1].fee_percent, Decimal::new(145, 1));
        assert_eq!(grouped[0].penalty_percent, Some(Decimal::from(20)));
        let flat = parse_fees(flat).expect("flat");
        assert_eq!((flat[0].telco.as_str(), flat[0].value), ("VNMOBI", 10_000));
        assert_eq!(flat[1].penalty_percent, None);
        assert!(parse_fees(br#"[{"telco":"VIETTEL","value":10000}]"#).is_err());
        assert!(parse_fees(b"12").is_err());
    }

    #[test]
    fn every_status_of_the_protocol_has_its_meaning() {
        assert_eq!(Status::from_code(3), Some(Status::Settled(Outcome::Invalid)));
        assert_eq!(Status::from_code(4), Some(Status::Settled(Outcome::Maintenance)));
        assert_eq!(Status::from_code(99), Some(Status::Pending));
        assert_eq!(Status::from_code(100), Some(Status::NotTaken));
        assert_eq!(Status::from_code(102), None);
    }

    #[test]
    fn signs_as_the_documentation_computes() {
        // md5("dev-partner-key" + "123" + "456"), as `printf %s dev-partner-key123456 | md5sum` gives.
        assert_eq!(
            callback_sign("dev-partner-key", "123", "456"),
            "97abbbc0ebc678256f25a9d03c578fb2"
        );
        let request = Signed {
            telco: "VIETTEL",
            code: "312821445892982",
            serial: "10004783347874",
            request_id: "323233",
            partner_id: "kid-dev",
            command: Command::Charging,
        };
        assert_eq!(
            sign("k", SignScheme::SortedValues, &request),
            md5_hex(&["k312821445892982chargingkid-dev32323310004783347874VIETTEL"])
        );
        assert_eq!(
            sign("k", SignScheme::CodeSerial, &request),
            md5_hex(&["k31282144589298210004783347874"])
        );
        let mut report = Report::parse(CALLBACK.as_bytes(), false).expect("parse");
        report.callback_sign = callback_sign("dev-partner-key", &report.code, &report.serial).to_uppercase();
        assert!(report.signed_by("dev-partner-key"));
        assert!(!report.signed_by("other-key"));
        report.serial.push('1');
        assert!(!report.signed_by("dev-partner-key"));
    }
}
