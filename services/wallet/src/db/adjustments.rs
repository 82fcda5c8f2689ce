//! KP adjustments asked for by finance staff, pending, applied or rejected.

use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Debug, Clone)]
pub struct AdjustmentRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub kp: i64,
    pub reason: String,
    pub status: String,
    pub requested_by: Uuid,
    pub requested_by_username: String,
    pub decided_by: Option<Uuid>,
    pub decided_by_username: Option<String>,
    pub decided_at: Option<OffsetDateTime>,
    pub transaction_id: Option<Uuid>,
    pub created_at: OffsetDateTime,
}

pub struct NewAdjustment<'a> {
    pub id: Uuid,
    pub user_id: Uuid,
    pub kp: i64,
    pub reason: &'a str,
    pub requested_by: Uuid,
    pub requested_by_username: &'a str,
    pub request_key: &'a str,
}

pub async fn insert(conn: &mut PgConnection, new: &NewAdjustment<'_>) -> Result<AdjustmentRow, sqlx::Error> {
    sqlx::query_as!(
        AdjustmentRow,
        "insert into adjustment (id, user_id, kp, reason, status, requested_by, requested_by_username, request_key)
         values ($1, $2, $3, $4, 'pending', $5, $6, $7)
         returning id, user_id, kp, reason, status, requested_by, requested_by_username, decided_by,
                   decided_by_username, decided_at, transaction_id, created_at",
        new.id,
        new.user_id,
        new.kp,
        new.reason,
        new.requested_by,
        new.requested_by_username,
        new.request_key
    )
    .fetch_one(conn)
    .await
}

pub async fn lock(conn: &mut PgConnection, id: Uuid) -> Result<Option<AdjustmentRow>, sqlx::Error> {
    sqlx::query_as!(
        AdjustmentRow,
        "select id, user_id, kp, reason, status, requested_by, requested_by_username, decided_by,
                decided_by_username, decided_at, transaction_id, created_at
         from adjustment where id = $1 for update",
        id
    )
    .fetch_optional(conn)
    .await
}

/// The adjustment `requested_by` asked for with `key`, as it is now.
pub async fn asked_with(
    conn: &mut PgConnection,
    requested_by: Uuid,
    key: &str,
) -> Result<Option<AdjustmentRow>, sqlx::Error> {
    sqlx::query_as!(
        AdjustmentRow,
        "select id, user_id, kp, reason, status, requested_by, requested_by_username, decided_by,
                decided_by_username, decided_at, transaction_id, created_at
         from adjustment where requested_by = $1 and request_key = $2",
        requested_by,
        key
    )
    .fetch_optional(conn)
    .await
}

/// Decides a pending adjustment: `applied` with its transaction, or `rejected`.
pub async fn decide(
    conn: &mut PgConnection,
    id: Uuid,
    status: &str,
    decided_by: Option<(Uuid, &str)>,
    transaction_id: Option<Uuid>,
) -> Result<AdjustmentRow, sqlx::Error> {
    sqlx::query_as!(
        AdjustmentRow,
        "update adjustment
            set status = $2, decided_by = $3, decided_by_username = $4, decided_at = now(), transaction_id = $5
          where id = $1 and status = 'pending'
          returning id, user_id, kp, reason, status, requested_by, requested_by_username, decided_by,
                    decided_by_username, decided_at, transaction_id, created_at",
        id,
        status,
        decided_by.map(|(id, _)| id),
        decided_by.map(|(_, username)| username),
        transaction_id
    )
    .fetch_one(conn)
    .await
}

/// The newest adjustments, of one status and one player when given.
pub async fn list(
    conn: &mut PgConnection,
    status: Option<&str>,
    user_id: Option<Uuid>,
    limit: i64,
) -> Result<Vec<AdjustmentRow>, sqlx::Error> {
    sqlx::query_as!(
        AdjustmentRow,
        "select id, user_id, kp, reason, status, requested_by, requested_by_username, decided_by,
                decided_by_username, decided_at, transaction_id, created_at
         from adjustment
         where ($1::text is null or status = $1) and ($2::uuid is null or user_id = $2)
         order by created_at desc, id desc limit $3",
        status,
        user_id,
        limit
    )
    .fetch_all(conn)
    .await
}

/// The KP (credits and clawbacks alike) applied in the last 24 hours without a second member:
/// by `requested_by` to any player, and to `user_id` by anyone.
pub async fn applied_alone_lately(
    conn: &mut PgConnection,
    requested_by: Uuid,
    user_id: Uuid,
) -> Result<(i64, i64), sqlx::Error> {
    let totals = sqlx::query!(
        r#"select coalesce(sum(abs(kp)) filter (where requested_by = $1), 0)::bigint as "by_asker!",
                  coalesce(sum(abs(kp)) filter (where user_id = $2), 0)::bigint as "to_player!"
           from adjustment
           where status = 'applied' and decided_by is null and decided_at > now() - interval '24 hours'
             and (requested_by = $1 or user_id = $2)"#,
        requested_by,
        user_id
    )
    .fetch_one(conn)
    .await?;
    Ok((totals.by_asker, totals.to_player))
}
