//! Everything identity holds about a player, for the download of their own data (Decree
//! 13/2023): the account and profile, every sign-in and refused attempt still kept, the
//! passkeys, support's lock on the account if there is one, and the mail written to them at any
//! address they had. Mail is listed by subject and time, without its body: the links and codes
//! in it are credentials, and the player received the text. Every support ticket with its
//! conversation, however many: the console's lists stop at 200, the download does not.

use std::collections::HashMap;

use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{Error, tickets::Ticket};
use crate::db::{
    self, UserRow,
    mail::SentMailRow,
    passkeys::PasskeyRow,
    sign_ins::SignInRow,
    tickets::{MessageRow, PlayersMessageRow},
};

/// The most sign-ins an export lists (the history keeps every one; a player with more is rare
/// enough that the newest this many say what there is to say).
const SIGN_INS: i64 = 10_000;

pub struct Export {
    pub user: UserRow,
    pub receive_newsletter: bool,
    pub sign_ins: Vec<SignInRow>,
    pub passkeys: Vec<PasskeyRow>,
    pub mails: Vec<SentMailRow>,
    /// When support locked the account and why; both `None` when it is not locked.
    pub locked_at: Option<OffsetDateTime>,
    pub locked_reason: Option<String>,
    /// Newest first, each with its messages oldest first.
    pub tickets: Vec<Ticket>,
}

pub async fn export(pool: &PgPool, user_id: Uuid) -> Result<Export, Error> {
    let mut conn = pool.acquire().await?;
    let user = db::users::find_user(&mut conn, user_id)
        .await?
        .ok_or(Error::UserNotFound)?;
    let receive_newsletter = db::users::receives_newsletter(&mut conn, user_id).await?;
    let sign_ins = db::sign_ins::latest(&mut conn, user_id, SIGN_INS).await?;
    let passkeys = db::passkeys::of_user(&mut conn, user_id).await?;
    let mails = db::mail::of_player(&mut conn, user_id, &user.email).await?;
    let (locked_at, locked_reason) = db::users::lock_of(&mut conn, user_id).await?;
    let mut messages: HashMap<Uuid, Vec<MessageRow>> = HashMap::new();
    for message in db::tickets::messages_of_player(&mut conn, user_id).await? {
        messages
            .entry(message.ticket_id)
            .or_default()
            .push(message.into());
    }
    let tickets = db::tickets::list(&mut conn, Some(user_id), None, i64::MAX)
        .await?
        .into_iter()
        .map(|ticket| Ticket {
            messages: messages.remove(&ticket.id).unwrap_or_default(),
            ticket,
        })
        .collect();
    Ok(Export {
        user,
        receive_newsletter,
        sign_ins,
        passkeys,
        mails,
        locked_at,
        locked_reason,
        tickets,
    })
}

impl From<PlayersMessageRow> for MessageRow {
    fn from(row: PlayersMessageRow) -> Self {
        Self {
            id: row.id,
            staff_username: row.staff_username,
            body: row.body,
            attachment_id: row.attachment_id,
            created_at: row.created_at,
        }
    }
}
