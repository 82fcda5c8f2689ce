//! The bank feed's notifications, as the provider (SePay's webhook shape) sends them: signed with
//! the portal's bank-feed secret and posted to `/api/webhooks/bank-transfer`. The `kid-bank-feed`
//! simulator and the `kid-smoke` journey send them.

use anyhow::Context;
use kid_payment::domain::signature;
use serde_json::json;
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

/// An incoming transfer to one of our accounts.
pub struct Transfer {
    /// The bank or e-wallet, as the provider names it (the method's name).
    pub gateway: String,
    /// Our account there.
    pub account_number: String,
    /// What the payer wrote; the player's transfer content somewhere inside it.
    pub content: String,
    /// In VND.
    pub amount: i64,
    /// The provider's id of the transfer: the same id twice is the same transfer.
    pub id: String,
}

impl Transfer {
    /// The transfer content as a bank app writes it: its own reference around the player's.
    pub fn content_from_app(payment_syntax: &str) -> String {
        format!(
            "MBVCB.{}.{payment_syntax}.CT tu 0123456789",
            OffsetDateTime::now_utc().unix_timestamp() % 100_000
        )
    }

    pub fn body(&self) -> anyhow::Result<Vec<u8>> {
        let id = &self.id;
        let body = json!({
            "id": id,
            "gateway": self.gateway,
            "transactionDate": OffsetDateTime::now_utc().format(&Rfc3339)?,
            "accountNumber": self.account_number,
            "code": null,
            "content": self.content,
            "transferType": "in",
            "transferAmount": self.amount,
            "referenceCode": format!("FT{}", &id[..id.len().min(12)]),
            "accumulated": 0,
            "subAccount": null,
            "description": format!("BankAPINotify {}", self.content),
        });
        Ok(serde_json::to_vec(&body)?)
    }

    /// Posts the signed notification to the portal at `portal`; the portal's answer.
    pub async fn send(&self, portal: &str, secret: &[u8]) -> anyhow::Result<(reqwest::StatusCode, String)> {
        let body = self.body()?;
        let signature = signature::sign_now(secret, &body);
        let url = format!("{}/api/webhooks/bank-transfer", portal.trim_end_matches('/'));
        let response = reqwest::Client::new()
            .post(&url)
            .header("content-type", "application/json")
            .header("x-signature", signature)
            .body(body)
            .send()
            .await
            .with_context(|| format!("sending to {url}"))?;
        let status = response.status();
        Ok((status, response.text().await.unwrap_or_default()))
    }
}
