//! The support centre's tickets, their messages and attachments' records.

use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct TicketRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub username: String,
    pub category: String,
    pub subject: String,
    pub transaction_id: Option<Uuid>,
    pub status: String,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

#[derive(Debug, Clone)]
pub struct MessageRow {
    pub id: Uuid,
    pub staff_username: Option<String>,
    pub body: String,
    pub attachment_id: Option<Uuid>,
    pub created_at: OffsetDateTime,
}

#[derive(Debug, Clone)]
pub struct AttachmentRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub content_type: String,
    pub size_bytes: i64,
}

pub struct NewTicket<'a> {
    pub id: Uuid,
    pub user_id: Uuid,
    pub category: &'a str,
    pub subject: &'a str,
    pub transaction_id: Option<Uuid>,
}

pub async fn insert_ticket(conn: &mut PgConnection, ticket: &NewTicket<'_>) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into support_ticket (id, user_id, category, subject, transaction_id) values ($1, $2, $3, $4, $5)",
        ticket.id,
        ticket.user_id,
        ticket.category,
        ticket.subject,
        ticket.transaction_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_attachment(
    conn: &mut PgConnection,
    id: Uuid,
    user_id: Uuid,
    content_type: &str,
    size_bytes: i64,
    sha256: &[u8],
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into ticket_attachment (id, user_id, content_type, size_bytes, sha256) values ($1, $2, $3, $4, $5)",
        id,
        user_id,
        content_type,
        size_bytes,
        sha256
    )
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_message(
    conn: &mut PgConnection,
    ticket_id: Uuid,
    staff: Option<(Uuid, &str)>,
    body: &str,
    attachment_id: Option<Uuid>,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "insert into ticket_message (id, ticket_id, staff_id, staff_username, body, attachment_id)
         values ($1, $2, $3, $4, $5, $6)",
        Uuid::now_v7(),
        ticket_id,
        staff.map(|(id, _)| id),
        staff.map(|(_, username)| username),
        body,
        attachment_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Sets the ticket's status (and its updated time).
pub async fn set_status(conn: &mut PgConnection, id: Uuid, status: &str) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update support_ticket set status = $2, updated_at = now() where id = $1",
        id,
        status
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// One ticket, locked, of `user_id` when given (another player's is none).
pub async fn lock(
    conn: &mut PgConnection,
    id: Uuid,
    user_id: Option<Uuid>,
) -> Result<Option<TicketRow>, sqlx::Error> {
    sqlx::query_as!(
        TicketRow,
        "select t.id, t.user_id, u.username, t.category, t.subject, t.transaction_id, t.status, t.created_at,
                t.updated_at
         from support_ticket t join user_account u on u.id = t.user_id
         where t.id = $1 and ($2::uuid is null or t.user_id = $2)
         for update of t",
        id,
        user_id
    )
    .fetch_optional(conn)
    .await
}

/// Tickets newest first: one player's, or (`user_id` none) everyone's of `status` when given.
pub async fn list(
    conn: &mut PgConnection,
    user_id: Option<Uuid>,
    status: Option<&str>,
    limit: i64,
) -> Result<Vec<TicketRow>, sqlx::Error> {
    sqlx::query_as!(
        TicketRow,
        "select t.id, t.user_id, u.username, t.category, t.subject, t.transaction_id, t.status, t.created_at,
                t.updated_at
         from support_ticket t join user_account u on u.id = t.user_id
         where ($1::uuid is null or t.user_id = $1) and ($2::text is null or t.status = $2)
         order by t.updated_at desc, t.id desc limit $3",
        user_id,
        status,
        limit
    )
    .fetch_all(conn)
    .await
}

pub async fn messages(conn: &mut PgConnection, ticket_id: Uuid) -> Result<Vec<MessageRow>, sqlx::Error> {
    sqlx::query_as!(
        MessageRow,
        "select id, staff_username, body, attachment_id, created_at from ticket_message
         where ticket_id = $1 order by created_at, id",
        ticket_id
    )
    .fetch_all(conn)
    .await
}

/// One message of a player's tickets, with the ticket it belongs to.
#[derive(Debug, Clone)]
pub struct PlayersMessageRow {
    pub ticket_id: Uuid,
    pub id: Uuid,
    pub staff_username: Option<String>,
    pub body: String,
    pub attachment_id: Option<Uuid>,
    pub created_at: OffsetDateTime,
}

/// Every message of every ticket of the player, oldest first: one query for all their tickets.
pub async fn messages_of_player(
    conn: &mut PgConnection,
    user_id: Uuid,
) -> Result<Vec<PlayersMessageRow>, sqlx::Error> {
    sqlx::query_as!(
        PlayersMessageRow,
        "select m.ticket_id, m.id, m.staff_username, m.body, m.attachment_id, m.created_at
         from ticket_message m join support_ticket t on t.id = m.ticket_id
         where t.user_id = $1 order by m.created_at, m.id",
        user_id
    )
    .fetch_all(conn)
    .await
}

/// Tickets the player opened since `since`.
pub async fn opened_since(
    conn: &mut PgConnection,
    user_id: Uuid,
    since: OffsetDateTime,
) -> Result<i64, sqlx::Error> {
    let count = sqlx::query_scalar!(
        r#"select count(*) as "count!" from support_ticket where user_id = $1 and created_at > $2"#,
        user_id,
        since
    )
    .fetch_one(conn)
    .await?;
    Ok(count)
}

/// How many messages the player wrote on their tickets since `since`, and the oldest's time.
pub async fn written_since(
    conn: &mut PgConnection,
    user_id: Uuid,
    since: OffsetDateTime,
) -> Result<(i64, Option<OffsetDateTime>), sqlx::Error> {
    let row = sqlx::query!(
        r#"select count(*) as "count!", min(m.created_at) as oldest
           from ticket_message m join support_ticket t on t.id = m.ticket_id
           where t.user_id = $1 and m.staff_id is null and m.created_at > $2"#,
        user_id,
        since
    )
    .fetch_one(conn)
    .await?;
    Ok((row.count, row.oldest))
}

/// How many bytes of images the player attached since `since`, and the oldest's time.
pub async fn attached_since(
    conn: &mut PgConnection,
    user_id: Uuid,
    since: OffsetDateTime,
) -> Result<(i64, Option<OffsetDateTime>), sqlx::Error> {
    let row = sqlx::query!(
        r#"select coalesce(sum(size_bytes), 0)::bigint as "bytes!", min(created_at) as oldest
           from ticket_attachment where user_id = $1 and created_at > $2"#,
        user_id,
        since
    )
    .fetch_one(conn)
    .await?;
    Ok((row.bytes, row.oldest))
}

/// An attachment's record; the player's own only, when `user_id` is given.
pub async fn attachment(
    conn: &mut PgConnection,
    id: Uuid,
    user_id: Option<Uuid>,
) -> Result<Option<AttachmentRow>, sqlx::Error> {
    sqlx::query_as!(
        AttachmentRow,
        "select id, user_id, content_type, size_bytes from ticket_attachment
         where id = $1 and ($2::uuid is null or user_id = $2)",
        id,
        user_id
    )
    .fetch_optional(conn)
    .await
}
