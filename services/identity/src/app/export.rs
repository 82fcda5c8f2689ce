//! Everything identity holds about a player, for the download of their own data (Decree
//! 13/2023): the account and profile, every sign-in and refused attempt still kept, the
//! passkeys, support's lock on the account if there is one, and the mail written to them at any
//! address they had. Mail is listed by subject and time, without its body: the links and codes
//! in it are credentials, and the player received the text. (Their support tickets the gateway
//! gathers through the tickets' own calls.)

use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

use super::Error;
use crate::db::{self, UserRow, mail::SentMailRow, passkeys::PasskeyRow, sign_ins::SignInRow};

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
    Ok(Export {
        user,
        receive_newsletter,
        sign_ins,
        passkeys,
        mails,
        locked_at,
        locked_reason,
    })
}
