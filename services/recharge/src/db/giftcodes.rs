//! Giftcode campaigns, codes (as keyed hashes) and redemptions, as stored.

use std::time::Duration;

use kid_contracts::game::GiftItem;
use sqlx::{PgConnection, types::Json};
use time::OffsetDateTime;
use uuid::Uuid;

/// What a campaign gives: KP, or items of one product's game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gift {
    Kp(i64),
    Items {
        product_code: String,
        items: Vec<GiftItem>,
    },
}

/// The gift of a row whose checks hold: `kp`, or `product_code` with `items`.
fn gift(kp: Option<i64>, product_code: Option<&String>, items: Option<&Json<Vec<GiftItem>>>) -> Gift {
    match kp {
        Some(kp) => Gift::Kp(kp),
        None => Gift::Items {
            product_code: product_code.cloned().unwrap_or_default(),
            items: items.map(|items| items.0.clone()).unwrap_or_default(),
        },
    }
}

/// A code with its campaign, as a redemption checks it.
#[derive(Debug, Clone)]
pub struct CodeRow {
    pub hash: Vec<u8>,
    pub campaign_id: Uuid,
    pub campaign: String,
    pub kp: Option<i64>,
    pub product_code: Option<String>,
    pub items: Option<Json<Vec<GiftItem>>>,
    pub per_account: i32,
    pub starts_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub max_uses: Option<i32>,
    pub uses: i32,
}

impl CodeRow {
    pub fn gift(&self) -> Gift {
        gift(self.kp, self.product_code.as_ref(), self.items.as_ref())
    }
}

/// A redemption with its campaign, and for items the names of the game and zone they went to.
#[derive(Debug, Clone)]
pub struct RedemptionRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub campaign_id: Uuid,
    pub campaign: String,
    pub code_hash: Vec<u8>,
    pub status: String,
    pub kp: Option<i64>,
    pub transaction_id: Option<Uuid>,
    pub product_code: Option<String>,
    pub product_name: Option<String>,
    pub zone_id: Option<i64>,
    pub zone_description: Option<String>,
    pub character_name: Option<String>,
    pub items: Option<Json<Vec<GiftItem>>>,
}

impl RedemptionRow {
    pub fn gift(&self) -> Gift {
        gift(self.kp, self.product_code.as_ref(), self.items.as_ref())
    }
}

/// A campaign to create.
#[derive(Debug, Clone)]
pub struct NewCampaign<'a> {
    pub name: &'a str,
    pub gift: Gift,
    pub per_account: i32,
    pub starts_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

/// Creates the campaign; `None` when one of that name exists.
pub async fn insert_campaign(
    conn: &mut PgConnection,
    campaign: &NewCampaign<'_>,
) -> Result<Option<Uuid>, sqlx::Error> {
    let (kp, product_code, items) = match &campaign.gift {
        Gift::Kp(kp) => (Some(*kp), None, None),
        Gift::Items { product_code, items } => (None, Some(product_code.as_str()), Some(Json(items))),
    };
    sqlx::query_scalar!(
        r#"insert into giftcode_campaign (id, name, kp, product_code, items, per_account, starts_at, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (name) do nothing
         returning id"#,
        Uuid::now_v7(),
        campaign.name,
        kp,
        product_code,
        items as _,
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
        r#"select code.hash, code.campaign_id, campaign.name as campaign, campaign.kp, campaign.product_code,
                campaign.items as "items: Json<Vec<GiftItem>>", campaign.per_account,
                campaign.starts_at, campaign.expires_at, code.max_uses, code.uses
           from giftcode code join giftcode_campaign campaign on campaign.id = code.campaign_id
          where code.hash = $1
            for update of code"#,
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
    kid_platform::db::lock_key(conn, &format!("{user_id}{campaign_id}")).await
}

/// How many times the player redeemed codes of the campaign (items a game failed to deliver do
/// not count).
pub async fn redeemed_by(
    conn: &mut PgConnection,
    user_id: Uuid,
    campaign_id: Uuid,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar!(
        r#"select count(*) as "count!" from giftcode_redemption
            where user_id = $1 and campaign_id = $2 and status <> 'failed'"#,
        user_id,
        campaign_id
    )
    .fetch_one(conn)
    .await
}

/// A zone of a game and the player's character there: where items went, as the player is told.
#[derive(Debug, Clone)]
pub struct Place {
    pub product_code: String,
    pub product_name: String,
    pub zone_id: i64,
    pub zone_description: String,
    /// The character the game named; `None` when it did not answer in time.
    pub character_name: Option<String>,
}

/// Where an item code's items go: a place checked for the player's character, and the
/// username the game knows the player by.
#[derive(Debug, Clone)]
pub struct Destination {
    pub place: Place,
    pub username: String,
}

/// Records a redemption and counts a use of its code: `granting` for KP, `sent` for items
/// (whose grant the caller writes to the outbox in the same transaction).
pub async fn insert_redemption(
    conn: &mut PgConnection,
    user_id: Uuid,
    key: &str,
    code: &CodeRow,
    destination: Option<&Destination>,
) -> Result<Uuid, sqlx::Error> {
    let id = Uuid::now_v7();
    let status = if destination.is_some() { "sent" } else { "granting" };
    sqlx::query!(
        "insert into giftcode_redemption (id, user_id, campaign_id, code_hash, idempotency_key, kp, status,
                product_code, zone_id, username, character_name)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        id,
        user_id,
        code.campaign_id,
        code.hash,
        key,
        code.kp,
        status,
        destination.map(|to| to.place.product_code.as_str()),
        destination.map(|to| to.place.zone_id),
        destination.map(|to| to.username.as_str()),
        destination.and_then(|to| to.place.character_name.as_deref())
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
        r#"select r.id, r.user_id, r.campaign_id, c.name as campaign, r.code_hash, r.status, r.kp, r.transaction_id,
                r.product_code, p.name as "product_name?", r.zone_id, z.description as "zone_description?",
                r.character_name, c.items as "items: Json<Vec<GiftItem>>"
           from giftcode_redemption r join giftcode_campaign c on c.id = r.campaign_id
           left join product p on p.code = r.product_code
           left join zone z on z.product_code = r.product_code and z.id = r.zone_id
          where r.user_id = $1 and r.idempotency_key = $2"#,
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

/// Redemptions still `granting` this long after they were made (the wallet did not answer),
/// oldest first, as their players and keys ([`find_by_key`] reads each).
pub async fn stalled(
    conn: &mut PgConnection,
    after: Duration,
    limit: i64,
) -> Result<Vec<(Uuid, String)>, sqlx::Error> {
    let cutoff = OffsetDateTime::now_utc() - after;
    let rows = sqlx::query!(
        "select user_id, idempotency_key from giftcode_redemption
          where status = 'granting' and created_at < $1
          order by created_at
          limit $2",
        cutoff,
        limit
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| (row.user_id, row.idempotency_key))
        .collect())
}

/// What a game's acknowledgement of an item grant did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acknowledged {
    /// It decided the grant: delivered, or failed (and the code's use was given back).
    Applied,
    /// The grant was already decided the same way (a redelivery or a repeated answer).
    Duplicate,
    /// Another answer after the first: nothing changes.
    Conflicting,
    /// No such grant.
    Unknown,
    /// Published on another product's routing key than the grant's: nothing changes.
    Rejected,
}

impl Acknowledged {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::Duplicate => "duplicate",
            Self::Conflicting => "conflicting",
            Self::Unknown => "unknown_grant",
            Self::Rejected => "rejected",
        }
    }
}

/// Records a game's answer to an item grant, claimed on `claimed_product`'s routing key: the
/// first answer for a `sent` grant of that product decides it, and a failure gives its code's
/// use back.
pub async fn acknowledge(
    conn: &mut PgConnection,
    grant_id: Uuid,
    claimed_product: &str,
    delivered: bool,
    reason: &str,
) -> Result<Acknowledged, sqlx::Error> {
    let status = if delivered { "delivered" } else { "failed" };
    let decided = sqlx::query_scalar!(
        "update giftcode_redemption
            set status = $3, failure_reason = nullif($4, ''), acknowledged_at = now(), updated_at = now()
          where id = $1 and product_code = $2 and status = 'sent'
          returning code_hash",
        grant_id,
        claimed_product,
        status,
        reason
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(code_hash) = decided {
        if !delivered {
            sqlx::query!("update giftcode set uses = uses - 1 where hash = $1", code_hash)
                .execute(conn)
                .await?;
        }
        return Ok(Acknowledged::Applied);
    }
    let found = sqlx::query!(
        "select status, product_code from giftcode_redemption where id = $1",
        grant_id
    )
    .fetch_optional(conn)
    .await?;
    Ok(match found {
        None => Acknowledged::Unknown,
        Some(row) if row.product_code.as_deref() != Some(claimed_product) => Acknowledged::Rejected,
        Some(row) if row.status == status => Acknowledged::Duplicate,
        Some(_) => Acknowledged::Conflicting,
    })
}

/// A redemption as the player's download of their data lists it.
#[derive(Debug, Clone)]
pub struct RedemptionRecord {
    pub id: Uuid,
    pub campaign: String,
    pub kp: Option<i64>,
    pub product_code: Option<String>,
    pub zone_id: Option<i64>,
    pub username: Option<String>,
    pub character_name: Option<String>,
    pub status: String,
    pub failure_reason: Option<String>,
    pub transaction_id: Option<Uuid>,
    pub created_at: OffsetDateTime,
}

/// Every redemption of the player, newest first.
pub async fn of_user(conn: &mut PgConnection, user_id: Uuid) -> Result<Vec<RedemptionRecord>, sqlx::Error> {
    sqlx::query_as!(
        RedemptionRecord,
        "select r.id, c.name as campaign, r.kp, r.product_code, r.zone_id, r.username,
                r.character_name, r.status, r.failure_reason, r.transaction_id, r.created_at
           from giftcode_redemption r join giftcode_campaign c on c.id = r.campaign_id
          where r.user_id = $1
          order by r.created_at desc, r.id desc",
        user_id
    )
    .fetch_all(conn)
    .await
}
