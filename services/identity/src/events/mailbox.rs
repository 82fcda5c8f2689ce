//! The development mailbox as a mail sender: each message becomes a JSON file the gateway lists
//! at `/api/dev/mailbox`. Only the development portal's identity ([`SERVICE`], which the
//! launcher and the tests start) uses it; the identity binary starts [`crate::SERVICE`], which
//! never names this module, so the production binary does not contain it (`scripts/images`
//! checks its symbols).

use std::{path::PathBuf, sync::Arc};

use kid_platform::{
    mailbox::{self, MailboxEntry},
    service::{ServiceHost, ServiceSpec},
};
use secrecy::ExposeSecret;
use time::OffsetDateTime;
use tonic::service::Routes;

use super::mail::{self, Mail, MailSender, SendError, SendFuture};

/// The identity service of the development portal: SMTP when `mail.smtp_url` is set,
/// otherwise the development mailbox in `mail.mailbox_dir`.
pub static SERVICE: ServiceSpec = crate::spec(wire);

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    let settings = &host.settings.mail;
    let sender: Arc<dyn MailSender> = if settings.smtp_url.expose_secret().is_empty() {
        Arc::new(Mailbox::new(&settings.mailbox_dir))
    } else {
        mail::smtp_sender(settings)?
    };
    crate::wire_with(host, sender)
}

/// The development mailbox (see `kid_platform::mailbox`), listed by the gateway at
/// `/api/dev/mailbox`.
pub struct Mailbox {
    dir: PathBuf,
}

impl Mailbox {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }
}

impl MailSender for Mailbox {
    fn send<'a>(&'a self, mail: &'a Mail) -> SendFuture<'a> {
        Box::pin(async move {
            let entry = MailboxEntry {
                mail: mail.clone(),
                sent_at: OffsetDateTime::now_utc(),
            };
            mailbox::write(&self.dir, &entry)
                .await
                .map_err(|error| SendError(format!("mailbox {}: {error}", self.dir.display())))
        })
    }
}
