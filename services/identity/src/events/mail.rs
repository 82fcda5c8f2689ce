//! Outgoing mail. A request writes its message into `mail_message` in its own transaction; the
//! [`Courier`] delivers due messages through a [`MailSender`] and retries failures with
//! back-off, so a failing SMTP server neither fails nor loses a request.

use std::{future::Future, pin::Pin, sync::Arc, time::Duration};

use anyhow::Context;
use kid_platform::config::MailSettings;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor, message::header::ContentType};
use secrecy::ExposeSecret;
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::db;
pub use kid_platform::mail::Mail;

#[derive(Debug, thiserror::Error)]
#[error("mail not sent: {0}")]
pub struct SendError(pub String);

pub type SendFuture<'a> = Pin<Box<dyn Future<Output = Result<(), SendError>> + Send + 'a>>;

/// Delivers one message, or says why it could not.
pub trait MailSender: Send + Sync + 'static {
    fn send<'a>(&'a self, mail: &'a Mail) -> SendFuture<'a>;
}

/// The real adapter: SMTP over TLS with the configured host and credentials.
pub struct SmtpSender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: lettre::message::Mailbox,
}

impl SmtpSender {
    pub fn new(settings: &MailSettings) -> anyhow::Result<Self> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(settings.smtp_url.expose_secret())?
            .timeout(Some(Duration::from_secs(20)))
            .build();
        Ok(Self {
            transport,
            from: settings.from.parse().with_context(|| {
                format!(
                    "mail.from (KID_MAIL__FROM) {:?} is not an address to send from",
                    settings.from
                )
            })?,
        })
    }
}

impl MailSender for SmtpSender {
    fn send<'a>(&'a self, mail: &'a Mail) -> SendFuture<'a> {
        Box::pin(async move {
            let to = mail
                .to
                .parse()
                .map_err(|error| SendError(format!("recipient: {error}")))?;
            let message = Message::builder()
                .from(self.from.clone())
                .to(to)
                .subject(mail.subject.clone())
                .header(ContentType::TEXT_PLAIN)
                .body(mail.text.clone())
                .map_err(|error| SendError(error.to_string()))?;
            self.transport
                .send(message)
                .await
                .map(drop)
                .map_err(|error| SendError(error.to_string()))
        })
    }
}

/// The production sender: SMTP at the configured URL. The development portal's identity
/// ([`super::mailbox::SERVICE`]) falls back to the development mailbox instead.
pub fn smtp_sender(settings: &MailSettings) -> anyhow::Result<Arc<dyn MailSender>> {
    anyhow::ensure!(
        !settings.smtp_url.expose_secret().is_empty(),
        "mail.smtp_url is not set: production sends mail through SMTP"
    );
    Ok(Arc::new(SmtpSender::new(settings)?))
}

/// Writes `mail` to the player `user_id` in the caller's transaction; it is delivered once that
/// commits. It stays theirs (their download, their erasure) whatever address it went to.
pub async fn enqueue(conn: &mut PgConnection, user_id: Uuid, mail: &Mail) -> Result<(), sqlx::Error> {
    db::mail::insert(conn, Some(user_id), mail).await
}

/// Writes `mail` to whoever owns its address (a notice about another account), as
/// [`enqueue`]; it belongs to no player.
pub async fn enqueue_to_address(conn: &mut PgConnection, mail: &Mail) -> Result<(), sqlx::Error> {
    db::mail::insert(conn, None, mail).await
}

/// How many due messages one courier claims at a time.
const DUE_BATCH: i64 = 10;

/// The wait before the next attempt after `attempts` failures: 2 s, 4 s, 8 s… at most 10 min.
fn retry_after(attempts: i32) -> Duration {
    Duration::from_secs(1u64 << attempts.clamp(1, 20)).min(Duration::from_secs(600))
}

/// Delivers due mail; several replicas may run, each claiming its own messages.
pub struct Courier {
    pool: PgPool,
    sender: Arc<dyn MailSender>,
    poll_interval: Duration,
}

impl Courier {
    pub fn new(pool: PgPool, sender: Arc<dyn MailSender>) -> Self {
        Self {
            pool,
            sender,
            poll_interval: Duration::from_millis(200),
        }
    }

    pub async fn run(self, shutdown: CancellationToken) {
        while !shutdown.is_cancelled() {
            let delivered = match self.deliver_due().await {
                Ok(count) => count,
                Err(error) => {
                    tracing::warn!(error = %error, "mail courier cannot read its queue");
                    0
                }
            };
            if delivered == 0 {
                tokio::select! {
                    () = tokio::time::sleep(self.poll_interval) => {}
                    () = shutdown.cancelled() => {}
                }
            }
        }
    }

    /// Claims due messages, sends each, and records the outcome; returns how many were sent.
    pub async fn deliver_due(&self) -> Result<usize, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let due = db::mail::claim_due(&mut tx, DUE_BATCH).await?;
        let mut sent = 0;
        for (mail, attempts) in due {
            match self.sender.send(&mail).await {
                Ok(()) => {
                    // Delivered: the link or code it carried is not kept (the text holds it too).
                    db::mail::mark_sent(&mut tx, mail.id).await?;
                    sent += 1;
                }
                Err(error) => {
                    let wait = retry_after(attempts + 1);
                    tracing::warn!(mail_id = %mail.id, attempts = attempts + 1, ?wait, error = %error, "mail not sent; will retry");
                    db::mail::mark_failed(&mut tx, mail.id, &error.to_string(), wait).await?;
                }
            }
        }
        tx.commit().await?;
        Ok(sent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_and_stop_growing_at_ten_minutes() {
        assert_eq!(retry_after(1), Duration::from_secs(2));
        assert_eq!(retry_after(3), Duration::from_secs(8));
        assert_eq!(retry_after(40), Duration::from_secs(600));
    }
}
