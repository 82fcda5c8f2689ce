//! The card aggregator, spoken to in the charging API the aggregators share
//! (`domain::charging`): each card is sent with `command=charging` and answered at once with a
//! status (usually 99, pending); the result comes later to our webhook, and a card left pending
//! is asked for again with `command=check`. Its price list (`getfee`) is read every hour.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use uuid::Uuid;

use crate::domain::charging::{self, Command, Fee, Report, SignScheme, Signed};

/// A card as the aggregator takes it. Not `Debug` by derive: it holds the PIN.
#[derive(Clone)]
pub struct CardRequest {
    /// Our order id; the callback names it.
    pub request_id: Uuid,
    /// Kid's provider code (`viettel`); [`telco`] gives the aggregator's name.
    pub provider: String,
    pub value: i64,
    pub pin: String,
    pub serial: String,
}

/// The PIN is a bearer secret: never in a log line, whatever formats the request.
impl std::fmt::Debug for CardRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardRequest")
            .field("request_id", &self.request_id)
            .field("provider", &self.provider)
            .field("value", &self.value)
            .field("pin", &"<redacted>")
            .field("serial", &self.serial)
            .finish_non_exhaustive()
    }
}

/// The aggregators' name of a Kid provider code: upper case, and `VNMOBI` for Vietnamobile.
pub fn telco(provider: &str) -> String {
    match provider {
        "vietnamobile" => "VNMOBI".to_owned(),
        other => other.to_ascii_uppercase(),
    }
}

/// The Kid provider code of an aggregator's telco name ([`telco`] the other way).
pub fn provider(telco: &str) -> String {
    match telco.to_ascii_uppercase().as_str() {
        "VNMOBI" | "VIETNAMOBILE" => "vietnamobile".to_owned(),
        other => other.to_ascii_lowercase(),
    }
}

/// The request's form fields, signed.
pub fn form(
    card: &CardRequest,
    partner_id: &str,
    key: &str,
    scheme: SignScheme,
    command: Command,
) -> Vec<(&'static str, String)> {
    let telco = telco(&card.provider);
    let request_id = card.request_id.to_string();
    let sign = charging::sign(
        key,
        scheme,
        &Signed {
            telco: &telco,
            code: &card.pin,
            serial: &card.serial,
            request_id: &request_id,
            partner_id,
            command,
        },
    );
    vec![
        ("telco", telco),
        ("code", card.pin.clone()),
        ("serial", card.serial.clone()),
        ("amount", card.value.to_string()),
        ("request_id", request_id),
        ("partner_id", partner_id.to_owned()),
        ("command", command.as_str().to_owned()),
        ("sign", sign),
    ]
}

#[derive(Debug, thiserror::Error)]
pub enum AggregatorError {
    /// No clear answer: the aggregator may or may not have the card; its callback, or a
    /// `check`, decides.
    #[error("no answer: {0}")]
    Unavailable(String),
}

/// Sends cards to the aggregator.
#[tonic::async_trait]
pub trait Aggregator: Send + Sync + 'static {
    /// The aggregator's answer to `command` for `card`.
    async fn send(&self, card: &CardRequest, command: Command) -> Result<Report, AggregatorError>;

    /// The aggregator's price list.
    async fn fees(&self) -> Result<Vec<Fee>, AggregatorError>;
}

/// The real adapter: form POSTs to `{aggregator_url}/chargingws/v2`.
pub struct HttpAggregator {
    client: reqwest::Client,
    url: String,
    fees_url: String,
    partner_id: String,
    key: SecretString,
    scheme: SignScheme,
}

impl HttpAggregator {
    pub fn new(
        url: &str,
        partner_id: &str,
        key: SecretString,
        scheme: SignScheme,
        timeout: Duration,
    ) -> Result<Self, reqwest::Error> {
        Ok(Self {
            client: reqwest::Client::builder().timeout(timeout).build()?,
            url: format!("{}/chargingws/v2", url.trim_end_matches('/')),
            fees_url: format!(
                "{}/chargingws/v2/getfee?{}",
                url.trim_end_matches('/'),
                serde_urlencoded::to_string([("partner_id", partner_id)]).unwrap_or_default()
            ),
            partner_id: partner_id.to_owned(),
            key,
            scheme,
        })
    }
}

#[tonic::async_trait]
impl Aggregator for HttpAggregator {
    async fn send(&self, card: &CardRequest, command: Command) -> Result<Report, AggregatorError> {
        let fields = form(
            card,
            &self.partner_id,
            self.key.expose_secret(),
            self.scheme,
            command,
        );
        let response = self
            .client
            .post(&self.url)
            .form(&fields)
            .send()
            .await
            // Never the request itself in the message: it holds the PIN.
            .map_err(|error| AggregatorError::Unavailable(error.without_url().to_string()))?;
        let status = response.status();
        if !status.is_success() {
            return Err(AggregatorError::Unavailable(status.to_string()));
        }
        let body = response
            .bytes()
            .await
            .map_err(|error| AggregatorError::Unavailable(error.without_url().to_string()))?;
        let report = Report::parse(&body, false).map_err(AggregatorError::Unavailable)?;
        if report.status().is_none() {
            return Err(AggregatorError::Unavailable(format!(
                "unknown status {:?}",
                report.status
            )));
        }
        Ok(report)
    }

    async fn fees(&self) -> Result<Vec<Fee>, AggregatorError> {
        let unavailable =
            |error: reqwest::Error| AggregatorError::Unavailable(error.without_url().to_string());
        let response = self
            .client
            .get(&self.fees_url)
            .send()
            .await
            .map_err(unavailable)?
            .error_for_status()
            .map_err(unavailable)?;
        let body = response.bytes().await.map_err(unavailable)?;
        charging::parse_fees(&body).map_err(AggregatorError::Unavailable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_request_never_shows_its_pin() {
        let request = CardRequest {
            request_id: Uuid::nil(),
            provider: "viettel".into(),
            value: 100_000,
            pin: "123456789015678".into(),
            serial: "20000000000001".into(),
        };
        let shown = format!("{request:?}");
        assert!(!shown.contains("123456789015678"), "{shown}");
        assert!(shown.contains("20000000000001"), "{shown}");
    }

    #[test]
    fn the_form_names_the_telco_as_aggregators_do_and_signs_without_the_amount() {
        let card = CardRequest {
            request_id: Uuid::nil(),
            provider: "vietnamobile".into(),
            value: 50_000,
            pin: "123456789012".into(),
            serial: "12345678901".into(),
        };
        let fields = form(
            &card,
            "kid-dev",
            "dev-partner-key",
            SignScheme::SortedValues,
            Command::Charging,
        );
        let field = |name: &str| {
            fields
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| value.clone())
        };
        assert_eq!(field("telco").as_deref(), Some("VNMOBI"));
        assert_eq!(field("command").as_deref(), Some("charging"));
        assert_eq!(field("amount").as_deref(), Some("50000"));
        let mut other = card.clone();
        other.value = 100_000;
        let again = form(
            &other,
            "kid-dev",
            "dev-partner-key",
            SignScheme::SortedValues,
            Command::Charging,
        );
        assert_eq!(fields.last(), again.last(), "the amount is not signed");
        let check = form(
            &card,
            "kid-dev",
            "dev-partner-key",
            SignScheme::SortedValues,
            Command::Check,
        );
        assert_ne!(fields.last(), check.last(), "the command is");
    }
}
