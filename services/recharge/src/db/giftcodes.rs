//! Giftcode campaigns, codes (as keyed hashes) and redemptions, as stored.

use std::time::Duration;

use sqlx::PgConnection;
use time::OffsetDateTime;
use uuid::Uuid;

/// A code with its campaign, as a redemption checks it.
#[derive(Debug, Clone)]
pub struct CodeRow {
    pub hash: Vec<u8>,
    pub campaign_id: Uuid,
    pub campaign: String,
    pub kp: i64,
    pub per_account: i32,
    pub starts_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub max_uses: Option<i32>,
    pub uses: i32,
}

#[derive(Debug, Clone)]
pub struct RedemptionRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub campaign_id: Uuid,
    pub campaign: String,
    pub code_hash: Vec<u8>,
    pub kp: i64,
    pub transaction_id: Option<Uuid>,
}

/// A campaign to create.
#[derive(Debug, Clone)]
pub struct NewCampaign<'a> {
    pub name: &'a str,
    pub kp: i64,
    pub per_account: i32,
    pub starts_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// Creates the campaign; `None` when one of that name exists.
pub async fn insert_campaign(
    conn: &mut PgConnection,
    campaign: &NewCampaign<'_>,
) -> Result<Option<Uuid>, sqlx::Error> {
    sqlx::query_scalar!(
        "insert into giftcode_campaign (id, name, kp, per_account, starts_at, expires_at)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (name) do nothing
         returning id",
        Uuid::now_v7(),
        campaign.name,
        campaign.kp,
        campaign.per_account,
        campaign.starts_at,
        campaign.expires_at
    )
    .fetch_optional(conn)
    .await
}

/// Stores codes by hash, each allowing `max_uses` redemptions (`None`: no limit of its own);
/// returns how many were new.
pub async fn insert_codes(
    conn: &mut PgConnection,
    campaign_id: Uuid,
    hashes: &[Vec<u8>],
    max_uses: Option<i32>,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query!(
        "insert into giftcode (hash, campaign_id, max_uses)
         select hash, $2, $3 from unnest($1::bytea[]) as code (hash)
         on conflict (hash) do nothing",
        hashes,
        campaign_id,
        max_uses
    )
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// The code and its campaign, the code's row locked until the transaction ends (its uses are
/// counted under that lock).
pub async fn lock_code(conn: &mut PgConnection, hash: &[u8]) -> Result<Option<CodeRow>, sqlx::Error> {
    sqlx::query_as!(
        CodeRow,
        "select code.hash, code.campaign_id, campaign.name as campaign, campaign.kp, campaign.per_account,
                campaign.starts_at, campaign.expires_at, code.max_uses, code.uses
           from giftcode code join giftcode_campaign campaign on campaign.id = code.campaign_id
          where code.hash = $1
            for update of code",
        hash
    )
    .fetch_optional(conn)
    .await
}

/// Serialises one player's redemptions of one campaign until the transaction ends, so that two
/// codes of it redeemed at once cannot both pass the per-account limit.
pub async fn lock_player_campaign(
    conn: &mut PgConnection,
    user_id: Uuid,
    campaign_id: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "select pg_advisory_xact_lock(hashtextextended($1::text || $2::text, 0))",
        user_id.to_string(),
        campaign_id.to_string()
    )
    .fetch_one(conn)
    .await?;
    Ok(())
}

/// How many times the player redeemed codes of the campaign.
pub async fn redeemed_by(
    conn: &mut PgConnection,
    user_id: Uuid,
    campaign_id: Uuid,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select count(*) as "count!" from giftcode_redemption where user_id = $1 and campaign_id = $2"#,
        user_id,
        campaign_id
    )
    .fetch_one(conn)
    .await
}

/// Records a redemption `granting` and counts a use of its code.
pub async fn insert_redemption(
    conn: &mut PgConnection,
    user_id: Uuid,
    key: &str,
    code: &CodeRow,
) -> Result<Uuid, sqlx::Error> {
    let id = Uuid::now_v7();
    sqlx::query!(
        "insert into giftcode_redemption (id, user_id, campaign_id, code_hash, idempotency_key, kp, status)
         values ($1, $2, $3, $4, $5, $6, 'granting')",
        id,
        user_id,
        code.campaign_id,
        code.hash,
        key,
        code.kp
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!("update giftcode set uses = uses + 1 where hash = $1", code.hash)
        .execute(conn)
        .await?;
    Ok(id)
}

pub async fn find_by_key(
    conn: &mut PgConnection,
    user_id: Uuid,
    key: &str,
) -> Result<Option<RedemptionRow>, sqlx::Error> {
    sqlx::query_as!(
        RedemptionRow,
        "select r.id, r.user_id, r.campaign_id, c.name as campaign, r.code_hash, r.kp, r.transaction_id
           from giftcode_redemption r join giftcode_campaign c on c.id = r.campaign_id
          where r.user_id = $1 and r.idempotency_key = $2",
        user_id,
        key
    )
    .fetch_optional(conn)
    .await
}

/// Marks the redemption granted; a second confirmation changes nothing.
pub async fn mark_granted(
    conn: &mut PgConnection,
    id: Uuid,
    transaction_id: Uuid,
) -> Result<(), sqlx::Error> {
    sqlx::query!(
        "update giftcode_redemption set status = 'granted', transaction_id = $2, updated_at = now()
          where id = $1 and status = 'granting'",
        id,
        transaction_id
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// Redemptions still `granting` this long after they were made (the wallet did not answer).
pub async fn stalled(
    conn: &mut PgConnection,
    after: Duration,
    limit: i64,
) -> Result<Vec<RedemptionRow>, sqlx::Error> {
    let cutoff = OffsetDateTime::now_utc() - after;
    sqlx::query_as!(
        RedemptionRow,
        "select r.id, r.user_id, r.campaign_id, c.name as campaign, r.code_hash, r.kp, r.transaction_id
           from giftcode_redemption r join giftcode_campaign c on c.id = r.campaign_id
          where r.status = 'granting' and r.created_at < $1
          order by r.created_at
          limit $2",
        cutoff,
        limit
    )
    .fetch_all(conn)
    .await
}
