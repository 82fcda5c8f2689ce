//! Mail waiting to be delivered: written in the transaction of what it tells, delivered after.

use std::time::Duration;

use sqlx::PgConnection;
use uuid::Uuid;

use kid_platform::mail::Mail;

/// Writes `mail` to be delivered, under the player it is written to (`None`: a notice to an
/// address's owner, whoever that is).
pub async fn insert(conn: &mut PgConnection, user_id: Option<Uuid>, mail: &Mail) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into mail_message (id, user_id, to_address, subject, body_text, link, code)
         values ($1, $2, $3, $4, $5, $6, $7)",
        mail.id,
        user_id,
        mail.to,
        mail.subject,
        mail.text,
        mail.link,
        mail.code
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Up to `limit` messages due now, with how often each was tried, skipping those another
/// courier holds.
pub async fn claim_due(conn: &mut PgConnection, limit: i64) -> Result<Vec<(Mail, i32)>, sqlx::Error> {
    let rows = sqlx::query!(
        "select id, to_address, subject, body_text, link, code, attempts from mail_message
         where sent_at is null and next_attempt_at <= now()
         order by next_attempt_at limit $1
         for update skip locked",
        limit
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let mail = Mail {
                id: row.id,
                to: row.to_address,
                subject: row.subject,
                text: row.body_text,
                link: row.link,
                code: row.code,
            };
            (mail, row.attempts)
        })
        .collect())
}

/// Delivered: the link or code it carried is not kept (the text holds it too).
pub async fn mark_sent(conn: &mut PgConnection, id: Uuid) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update mail_message set sent_at = now(), attempts = attempts + 1,
             body_text = case when link is null and code is null then body_text else '' end,
             link = null, code = null
         where id = $1",
        id
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn mark_failed(
    conn: &mut PgConnection,
    id: Uuid,
    error: &str,
    retry_after: Duration,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update mail_message set attempts = attempts + 1, last_error = $2,
                next_attempt_at = now() + make_interval(secs => $3)
         where id = $1",
        id,
        error,
        retry_after.as_secs_f64()
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// A mail sent (or waiting to be) to an address, as the player's data export lists it.
pub struct SentMailRow {
    pub to_address: String,
    pub subject: String,
    pub created_at: time::OffsetDateTime,
    pub sent_at: Option<time::OffsetDateTime>,
}

/// The mail written to the player, at whatever address they had then, and the notices without
/// a player sent to `address` (regardless of case), their address now; oldest first.
pub async fn of_player(
    conn: &mut PgConnection,
    user_id: Uuid,
    address: &str,
) -> Result<Vec<SentMailRow>, sqlx::Error> {
    sqlx::query_as!(
        SentMailRow,
        "select to_address, subject, created_at, sent_at from mail_message
          where user_id = $1 or (user_id is null and lower(to_address) = lower($2))
          order by created_at, id",
        user_id,
        address
    )
    .fetch_all(conn)
    .await
}
