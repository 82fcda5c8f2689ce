//! What the bank feed sent, kept whatever became of it.

use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::TransferStatus;

/// One notification as recorded; the transfer's fields are absent for a malformed body.
pub struct Record<'a> {
    pub provider_id: Option<&'a str>,
    pub transfer: Option<TransferFields<'a>>,
    pub body: Option<&'a Value>,
    pub raw: &'a str,
    pub method_code: Option<&'a str>,
    pub user_id: Option<Uuid>,
    pub status: TransferStatus,
    pub reason: Option<&'a str>,
}

/// The fields of a notification that could be read as a transfer.
#[derive(Clone, Copy)]
pub struct TransferFields<'a> {
    pub transaction_date: &'a str,
    pub account_number: &'a str,
    pub content: &'a str,
    pub transfer_type: &'a str,
    pub amount_vnd: i64,
    pub reference_code: Option<&'a str>,
}

/// Inserts the record; false when its provider id is already recorded.
pub async fn insert(conn: &mut PgConnection, record: Record<'_>) -> Result<bool, sqlx::Error> {
    let transfer = record.transfer;
    let inserted = sqlx::query!(
        "insert into bank_feed_record (id, provider_id, method_code, transaction_date, account_number,
             content, transfer_type, amount_vnd, reference_code, body, raw_body, user_id, status, reason)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         on conflict (provider_id) do nothing",
        Uuid::now_v7(),
        record.provider_id,
        record.method_code,
        transfer.map(|t| t.transaction_date),
        transfer.map(|t| t.account_number),
        transfer.map(|t| t.content),
        transfer.map(|t| t.transfer_type),
        transfer.map(|t| t.amount_vnd),
        transfer.and_then(|t| t.reference_code),
        record.body,
        record.raw,
        record.user_id,
        record.status as TransferStatus,
        record.reason
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(inserted == 1)
}

/// A transfer kept for support: one that matched nobody, or one support has matched by hand.
#[derive(Debug, Clone)]
pub struct KeptTransfer {
    pub id: Uuid,
    pub provider_id: Option<String>,
    pub method_code: Option<String>,
    pub transaction_date: Option<String>,
    pub account_number: Option<String>,
    pub content: Option<String>,
    pub amount_vnd: Option<i64>,
    pub reference_code: Option<String>,
    pub reason: Option<String>,
    pub status: String,
    pub user_id: Option<Uuid>,
    pub received_at: time::OffsetDateTime,
    pub matched_by: Option<Uuid>,
    pub matched_at: Option<time::OffsetDateTime>,
    /// A match waiting for a second finance member: who asked, for whom, when.
    pub match_asked_by: Option<Uuid>,
    pub match_asked_by_username: Option<String>,
    pub match_asked_for: Option<Uuid>,
    pub match_asked_at: Option<time::OffsetDateTime>,
}

/// The newest unmatched transfers, or (`matched`) the newest ones support matched by hand.
pub async fn kept(
    conn: &mut PgConnection,
    matched: bool,
    limit: i64,
) -> Result<Vec<KeptTransfer>, sqlx::Error> {
    sqlx::query_as!(
        KeptTransfer,
        "select id, provider_id, method_code, transaction_date, account_number, content, amount_vnd,
                reference_code, reason, status, user_id, received_at, matched_by, matched_at,
                match_asked_by, match_asked_by_username, match_asked_for, match_asked_at
         from bank_feed_record
         where case when $1 then matched_by is not null else status = 'unmatched' end
         order by coalesce(matched_at, received_at) desc, id desc
         limit $2",
        matched,
        limit
    )
    .fetch_all(conn)
    .await
}

/// One kept transfer, locked for the rest of the transaction.
pub async fn kept_for_update(conn: &mut PgConnection, id: Uuid) -> Result<Option<KeptTransfer>, sqlx::Error> {
    sqlx::query_as!(
        KeptTransfer,
        "select id, provider_id, method_code, transaction_date, account_number, content, amount_vnd,
                reference_code, reason, status, user_id, received_at, matched_by, matched_at,
                match_asked_by, match_asked_by_username, match_asked_for, match_asked_at
         from bank_feed_record where id = $1 for update",
        id
    )
    .fetch_optional(conn)
    .await
}

/// Marks an unmatched transfer credited to `user_id` by `staff_id`, for `kp`. Another member's
/// ask stays on the record (this approves it); the member's own earlier ask, for another
/// player, is dropped (this match did not need it).
pub async fn mark_matched(
    conn: &mut PgConnection,
    id: Uuid,
    user_id: Uuid,
    staff_id: Uuid,
    kp: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update bank_feed_record
            set status = 'credited', user_id = $2, matched_by = $3, matched_at = now(), matched_kp = $4,
                match_asked_by = case when match_asked_by = $3 then null else match_asked_by end,
                match_asked_by_username =
                    case when match_asked_by = $3 then null else match_asked_by_username end,
                match_asked_for = case when match_asked_by = $3 then null else match_asked_for end,
                match_asked_at = case when match_asked_by = $3 then null else match_asked_at end
          where id = $1 and status = 'unmatched'",
        id,
        user_id,
        staff_id,
        kp
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Keeps `asker`'s ask to match an unmatched transfer to `user_id`, for a second member to
/// approve (replacing the asker's own earlier ask, if any).
pub async fn ask_match(
    conn: &mut PgConnection,
    id: Uuid,
    user_id: Uuid,
    asker: (Uuid, &str),
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update bank_feed_record
            set match_asked_by = $2, match_asked_by_username = $3, match_asked_for = $4, match_asked_at = now()
          where id = $1 and status = 'unmatched'",
        id,
        asker.0,
        asker.1,
        user_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The KP matched in the last 24 hours without a second member: by `staff_id`, and to
/// `user_id` by anyone.
pub async fn matched_alone_lately(
    conn: &mut PgConnection,
    staff_id: Uuid,
    user_id: Uuid,
) -> Result<(i64, i64), sqlx::Error> {
    let totals = sqlx::query!(
        r#"select coalesce(sum(matched_kp) filter (where matched_by = $1), 0)::bigint as "by_member!",
                  coalesce(sum(matched_kp) filter (where user_id = $2), 0)::bigint as "to_player!"
           from bank_feed_record
           where matched_by is not null and match_asked_by is null and matched_at > now() - interval '24 hours'
             and (matched_by = $1 or user_id = $2)"#,
        staff_id,
        user_id
    )
    .fetch_one(conn)
    .await?;
    Ok((totals.by_member, totals.to_player))
}

/// The players whose transfer content is one of `codes`, with the content.
pub async fn players_with_codes(
    conn: &mut PgConnection,
    codes: &[String],
) -> Result<Vec<(String, Uuid)>, sqlx::Error> {
    let rows = sqlx::query!(
        "select syntax, user_id from payment_syntax where syntax = any($1) order by syntax",
        codes
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(|row| (row.syntax, row.user_id)).collect())
}
