//! The development mailbox as a mail sender: each message becomes a JSON file the gateway lists
//! at `/api/dev/mailbox`. Only in builds with the `dev-mailbox` feature (the launcher's).

use std::path::PathBuf;

use kid_platform::mailbox::{self, MailboxEntry};
use time::OffsetDateTime;

use super::mail::{Mail, MailSender, SendError, SendFuture};

/// The development mailbox (see `kid_platform::mailbox`), listed by the gateway at
/// `/api/dev/mailbox`. Only in builds with the `dev-mailbox` feature (the launcher's).
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
