//! The development mailbox: the simulator of outgoing mail. Each message is one JSON file in a
//! folder; the identity service writes them, the gateway lists them for people and tests.

use std::path::Path;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::mail::Mail;

/// A message as the development mailbox keeps it: the mail, and when it was sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MailboxEntry {
    #[serde(flatten)]
    pub mail: Mail,
    #[serde(with = "time::serde::rfc3339")]
    pub sent_at: OffsetDateTime,
}

/// Stores `entry` in `dir`, under a temporary name first so a reader never sees half a file.
pub async fn write(dir: &Path, entry: &MailboxEntry) -> std::io::Result<()> {
    let body = serde_json::to_vec_pretty(entry)?;
    tokio::fs::create_dir_all(dir).await?;
    let partial = dir.join(format!("{}.part", entry.mail.id));
    tokio::fs::write(&partial, body).await?;
    tokio::fs::rename(&partial, dir.join(format!("{}.json", entry.mail.id))).await
}

/// The messages sent to `to` (regardless of case), newest first.
pub fn read(dir: &Path, to: &str) -> std::io::Result<Vec<MailboxEntry>> {
    let mut entries = Vec::new();
    let listing = match std::fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(entries),
        Err(error) => return Err(error),
    };
    for file in listing {
        let path = file?.path();
        if path.extension().is_none_or(|extension| extension != "json") {
            continue;
        }
        if let Ok(entry) = serde_json::from_slice::<MailboxEntry>(&std::fs::read(&path)?)
            && entry.mail.to.eq_ignore_ascii_case(to)
        {
            entries.push(entry);
        }
    }
    entries.sort_by(|a, b| b.sent_at.cmp(&a.sent_at).then(b.mail.id.cmp(&a.mail.id)));
    Ok(entries)
}
