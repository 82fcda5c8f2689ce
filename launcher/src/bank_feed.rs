//! The bank feed's notifications, as the provider the portal is set up for (SePay or Casso) sends
//! them: in its body shape, with its credential, posted to `/api/webhooks/bank-transfer`. The `kid-bank-feed`
//! simulator and the `kid-smoke` journey send them.

use anyhow::Context;
use kid_payment::domain::bank_feed::{BankFeed, Outgoing, now_ms};
use time::{OffsetDateTime, macros::format_description};

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

    /// The notification as `feed`'s provider words it.
    pub fn body(&self, feed: &BankFeed) -> anyhow::Result<Vec<u8>> {
        let date = OffsetDateTime::now_utc().format(format_description!(
            "[year]-[month]-[day] [hour]:[minute]:[second]"
        ))?;
        Ok(feed.body(&Outgoing {
            id: &self.id,
            gateway: &self.gateway,
            account_number: &self.account_number,
            sub_account: None,
            content: &self.content,
            amount_vnd: self.amount,
            transaction_date: &date,
        }))
    }

    /// Posts the notification, with `feed`'s credential, to the portal at `portal`; the
    /// portal's answer.
    pub async fn send(&self, portal: &str, feed: &BankFeed) -> anyhow::Result<(reqwest::StatusCode, String)> {
        let body = self.body(feed)?;
        let url = format!("{}/api/webhooks/bank-transfer", portal.trim_end_matches('/'));
        let mut request = reqwest::Client::new()
            .post(&url)
            .header("content-type", "application/json");
        for (name, value) in feed.headers(&body, now_ms()) {
            request = request.header(name, value);
        }
        let response = request
            .body(body)
            .send()
            .await
            .with_context(|| format!("sending to {url}"))?;
        let status = response.status();
        Ok((status, response.text().await.unwrap_or_default()))
    }
}
