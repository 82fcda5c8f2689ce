//! Giftcodes: a player redeems a code of a campaign for its KP, or for in-game items of one
//! product's game.
//!
//! KP, as for coin orders, are tied to the redemption by its id rather than one database
//! transaction:
//!
//! 1. one transaction checks the code under its row lock (and the player's per-campaign lock),
//!    records the redemption `granting` and counts the code's use;
//! 2. the wallet grants the KP with the redemption's id as idempotency key;
//! 3. the redemption is marked `granted`.
//!
//! A grant with no clear answer leaves the redemption `granting`: the same request key again,
//! or the sweeper, asks the wallet again, and the key moves the KP at most once.
//!
//! Items go to a zone the player chooses, where the game is first asked whether the player has
//! a character (as a coin order does, with no lock held meanwhile). Then one transaction checks
//! the code as above, records the redemption `sent` and writes the game's grant to the outbox
//! (`giftcode.grant.<product>`); the game's acknowledgement (`events::consumers`) marks it
//! `delivered` or `failed`, and a failure gives the code's use back.
//!
//! Codes are found by their keyed hash (HMAC-SHA-256 under the pepper setting) of the
//! normalised text, and never stored as typed.

use std::time::Duration;

use hmac::{Hmac, Mac};
use kid_contracts::{
    game::GiftItem,
    messages::giftcode::{
        MSG_CODE_ALREADY_REDEEMED, MSG_CODE_EXPIRED, MSG_CODE_NOT_STARTED, MSG_CODE_REQUIRED,
        MSG_CODE_UNKNOWN, MSG_CODE_USED, MSG_NO_CHARACTER, zone_required,
    },
    messages::order::MSG_ZONE_UNKNOWN,
    wallet::v1::GrantRequest,
};
use kid_platform::outbox::OutboxError;
use rand::seq::IndexedRandom;
use secrecy::{ExposeSecret, SecretString};
use sha2::Sha256;
use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{
    characters::{Characters, Unconfirmed},
    orders::WalletClient,
};
use crate::{
    db::{
        self,
        giftcodes::{CodeRow, Destination, Gift, Place, RedemptionRow},
    },
    events,
};

/// How many stalled redemptions one sweep takes.
const SWEEP_BATCH: i64 = 100;
/// The longest text that can be a code once spaces and dashes are gone.
const MAX_CODE_LEN: usize = kid_contracts::limits::GIFTCODE_MAX;
/// What generated codes are made of: no 0/O, 1/I/L or U, which players misread or misspell.
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTVWXYZ23456789";
/// Random characters per generated code, in groups of four: 30^12 ≈ 5·10^17 codes.
const GENERATED_LEN: usize = 12;

/// Development's multi-use code, and its campaign: 1,000 KP, once per account.
pub const WELCOME_CODE: &str = "KID-WELCOME";
pub fn welcome() -> db::giftcodes::NewCampaign<'static> {
    db::giftcodes::NewCampaign {
        name: "Chào mừng tân thủ",
        gift: Gift::Kp(1_000),
        per_account: 1,
        starts_at: time::macros::datetime!(2026-01-01 00:00 UTC),
        expires_at: time::macros::datetime!(2100-01-01 00:00 UTC),
    }
}

/// Development's multi-use code of in-game items: Phong Thần Online's starter pack, once per
/// account.
pub const STARTER_CODE: &str = "KID-TANTHU";
pub fn starter() -> db::giftcodes::NewCampaign<'static> {
    let item = |item_id: &str, name: &str, quantity| GiftItem {
        item_id: item_id.to_owned(),
        name: name.to_owned(),
        quantity,
    };
    db::giftcodes::NewCampaign {
        name: "Quà tân thủ Phong Thần",
        gift: Gift::Items {
            product_code: "fsonline".to_owned(),
            items: vec![
                item("fs.ruong-tan-thu", "Rương Tân Thủ", 1),
                item("fs.bua-may-man", "Bùa May Mắn", 5),
            ],
        },
        per_account: 1,
        starts_at: time::macros::datetime!(2026-01-01 00:00 UTC),
        expires_at: time::macros::datetime!(2100-01-01 00:00 UTC),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum GiftcodeError {
    /// The code is refused; the message is the player's, under `code`.
    #[error("{0}")]
    Refused(&'static str),
    /// An item code's zone is missing, unknown, or has no character of the player: the message
    /// is the player's, under `zoneId`; the player chooses among `product_code`'s zones.
    #[error("{message}")]
    Zone { product_code: String, message: String },
    /// The game did not answer the character check and the policy refuses.
    #[error("the game did not answer the character check")]
    CharacterUnchecked,
    #[error("idempotency key reused for another code")]
    KeyReused,
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] OutboxError),
}

/// How far an item grant got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemStatus {
    Sent,
    Delivered,
    Failed,
}

/// What a redemption gave, as the player is told about it.
#[derive(Debug, Clone)]
pub enum Granted {
    Kp {
        kp: i64,
        /// The wallet's transaction, once it confirmed the grant.
        transaction_id: Option<Uuid>,
    },
    Items {
        to: Place,
        items: Vec<GiftItem>,
        status: ItemStatus,
    },
}

/// A redemption as the player is told about it.
#[derive(Debug, Clone)]
pub struct Redemption {
    pub id: Uuid,
    pub campaign: String,
    pub granted: Granted,
}

/// Where the player asked an item code's items to go: a zone of the code's game.
#[derive(Debug, Clone)]
pub struct ZoneChoice {
    pub zone_id: i64,
    pub username: String,
}

/// Codes' keyed hashes: the pepper never leaves this value.
#[derive(Clone)]
pub struct CodeHasher {
    pepper: SecretString,
}

impl CodeHasher {
    pub fn new(pepper: SecretString) -> Self {
        Self { pepper }
    }

    /// The stored form of a normalised code.
    pub fn hash(&self, normalised: &str) -> Vec<u8> {
        let mut mac = Hmac::<Sha256>::new_from_slice(self.pepper.expose_secret().as_bytes())
            .expect("HMAC takes a key of any length");
        mac.update(normalised.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }
}

/// A code as typed, normalised: upper case, without spaces or dashes. `Err` is the player's
/// message.
pub fn normalise(typed: &str) -> Result<String, &'static str> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if code.is_empty() {
        Err(MSG_CODE_REQUIRED)
    } else if code.len() > MAX_CODE_LEN || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
        Err(MSG_CODE_UNKNOWN)
    } else {
        Ok(code)
    }
}

/// A new random code, `{prefix}-XXXX-XXXX-XXXX`, from the thread's cryptographically secure
/// generator (seeded by the operating system).
pub fn generate(prefix: &str) -> String {
    let mut rng = rand::rng();
    let random: Vec<u8> = (0..GENERATED_LEN)
        .map(|_| *ALPHABET.choose(&mut rng).expect("the alphabet is not empty"))
        .collect();
    let groups: Vec<&str> = random
        .chunks(4)
        .map(|group| std::str::from_utf8(group).expect("the alphabet is ASCII"))
        .collect();
    format!("{prefix}-{}", groups.join("-"))
}

/// What the locked step found: the request's redemption, made now or before, or an item code
/// that needs its destination checked first.
enum Recorded {
    New(RedemptionRow),
    Replay(RedemptionRow),
    NeedsDestination(String),
}

#[derive(Clone)]
pub struct Giftcodes {
    pool: PgPool,
    wallet: WalletClient,
    hasher: CodeHasher,
    characters: Characters,
}

impl Giftcodes {
    pub fn new(pool: PgPool, wallet: WalletClient, hasher: CodeHasher, characters: Characters) -> Self {
        Self {
            pool,
            wallet,
            hasher,
            characters,
        }
    }

    /// Redeems `typed` for the player; the same key again returns the first redemption (and
    /// asks the wallet again while its KP are not granted). An item code needs `zone`.
    pub async fn redeem(
        &self,
        user_id: Uuid,
        key: &str,
        typed: &str,
        zone: Option<ZoneChoice>,
    ) -> Result<Redemption, GiftcodeError> {
        let code = normalise(typed).map_err(GiftcodeError::Refused)?;
        let hash = self.hasher.hash(&code);
        let recorded = match self.record(user_id, key, &hash, None).await? {
            Recorded::NeedsDestination(product_code) => {
                let destination = self.destination(&product_code, zone).await?;
                self.record(user_id, key, &hash, Some(&destination)).await?
            }
            recorded => recorded,
        };
        let redemption = match recorded {
            Recorded::Replay(first) if first.code_hash != hash => return Err(GiftcodeError::KeyReused),
            Recorded::New(redemption) | Recorded::Replay(redemption) => redemption,
            // The code's campaign cannot change between the two steps.
            Recorded::NeedsDestination(_) => return Err(GiftcodeError::Refused(MSG_CODE_UNKNOWN)),
        };
        match redemption.gift() {
            Gift::Kp(_) => self.grant(redemption).await,
            Gift::Items { .. } => Ok(answer(redemption)),
        }
    }

    /// Checks the code and records the redemption, under the code's and the player's locks.
    /// An item code without a checked `destination` records nothing and says so.
    async fn record(
        &self,
        user_id: Uuid,
        key: &str,
        hash: &[u8],
        destination: Option<&Destination>,
    ) -> Result<Recorded, GiftcodeError> {
        let mut tx = self.pool.begin().await?;
        if let Some(first) = db::giftcodes::find_by_key(&mut tx, user_id, key).await? {
            return Ok(Recorded::Replay(first));
        }
        let code = db::giftcodes::lock_code(&mut tx, hash)
            .await?
            .ok_or(GiftcodeError::Refused(MSG_CODE_UNKNOWN))?;
        refusal(&code, OffsetDateTime::now_utc())
            .map_or(Ok(()), |message| Err(GiftcodeError::Refused(message)))?;
        db::giftcodes::lock_player_campaign(&mut tx, user_id, code.campaign_id).await?;
        // A retry of this request that was holding the locks may have redeemed it meanwhile.
        if let Some(first) = db::giftcodes::find_by_key(&mut tx, user_id, key).await? {
            return Ok(Recorded::Replay(first));
        }
        if db::giftcodes::redeemed_by(&mut tx, user_id, code.campaign_id).await?
            >= i64::from(code.per_account)
        {
            return Err(GiftcodeError::Refused(MSG_CODE_ALREADY_REDEEMED));
        }
        // Only a code the player may still redeem is worth asking the game about.
        let gift = code.gift();
        let destination = match (&gift, destination) {
            (Gift::Kp(_), _) => None,
            (Gift::Items { product_code, .. }, Some(to)) if &to.place.product_code == product_code => {
                Some(to)
            }
            (Gift::Items { product_code, .. }, _) => {
                return Ok(Recorded::NeedsDestination(product_code.clone()));
            }
        };
        // The locks above serialise one code and one campaign, not one key: the same key sent
        // at once with codes of two campaigns meets here, and is the same answer as a replay.
        let id = match db::giftcodes::insert_redemption(&mut tx, user_id, key, &code, destination).await {
            Err(sqlx::Error::Database(error)) if error.is_unique_violation() => {
                return Err(GiftcodeError::KeyReused);
            }
            inserted => inserted?,
        };
        let redemption = RedemptionRow {
            id,
            user_id,
            campaign_id: code.campaign_id,
            campaign: code.campaign,
            code_hash: code.hash,
            status: if destination.is_some() { "sent" } else { "granting" }.to_owned(),
            kp: code.kp,
            transaction_id: None,
            product_code: destination.map(|to| to.place.product_code.clone()),
            product_name: destination.map(|to| to.place.product_name.clone()),
            zone_id: destination.map(|to| to.place.zone_id),
            zone_description: destination.map(|to| to.place.zone_description.clone()),
            character_name: destination.and_then(|to| to.place.character_name.clone()),
            items: code.items,
        };
        if let (Some(to), Gift::Items { items, .. }) = (destination, &gift) {
            events::published::send_gift(&mut tx, &redemption, to, items).await?;
        }
        tx.commit().await?;
        metrics::counter!("recharge_giftcode_redemptions_total").increment(1);
        tracing::info!(redemption_id = %id, campaign = redemption.campaign, gift = ?gift, "giftcode redeemed");
        Ok(Recorded::New(redemption))
    }

    /// The zone the player chose for an item code, checked: a zone of the code's game where
    /// the game says the player has a character (or did not answer, when the policy allows).
    async fn destination(
        &self,
        product_code: &str,
        zone: Option<ZoneChoice>,
    ) -> Result<Destination, GiftcodeError> {
        let info = db::catalogue::recharge_info(&mut *self.pool.acquire().await?, product_code)
            .await?
            .ok_or(GiftcodeError::Refused(MSG_CODE_UNKNOWN))?;
        let refuse = |message: String| GiftcodeError::Zone {
            product_code: product_code.to_owned(),
            message,
        };
        let Some(choice) = zone.filter(|choice| choice.zone_id > 0) else {
            return Err(refuse(zone_required(&info.product.name)));
        };
        let zone = info
            .zone(choice.zone_id)
            .ok_or_else(|| refuse(MSG_ZONE_UNKNOWN.to_owned()))?;
        let character_name = self
            .characters
            .confirm(product_code, zone.id, &choice.username)
            .await
            .map_err(|unconfirmed| match unconfirmed {
                Unconfirmed::Missing => refuse(MSG_NO_CHARACTER.to_owned()),
                Unconfirmed::Unchecked => GiftcodeError::CharacterUnchecked,
            })?;
        Ok(Destination {
            place: Place {
                product_code: product_code.to_owned(),
                product_name: info.product.name.clone(),
                zone_id: zone.id,
                zone_description: zone.description.clone(),
                character_name,
            },
            username: choice.username,
        })
    }

    /// Asks the wallet for the redemption's KP (at most once per redemption, however often
    /// asked) and records its transaction; without a clear answer it stays `granting`.
    async fn grant(&self, redemption: RedemptionRow) -> Result<Redemption, GiftcodeError> {
        let kp = redemption.kp.unwrap_or_default();
        let mut answer = Redemption {
            id: redemption.id,
            campaign: redemption.campaign.clone(),
            granted: Granted::Kp {
                kp,
                transaction_id: redemption.transaction_id,
            },
        };
        if redemption.transaction_id.is_some() {
            return Ok(answer);
        }
        let request = GrantRequest {
            idempotency_key: redemption.id.to_string(),
            user_id: redemption.user_id.to_string(),
            kp,
            campaign: redemption.campaign,
        };
        match self.wallet.clone().grant(request).await {
            Ok(response) => {
                let transaction_id = response
                    .into_inner()
                    .transaction
                    .and_then(|transaction| transaction.id.parse::<Uuid>().ok());
                if let Some(transaction_id) = transaction_id {
                    db::giftcodes::mark_granted(
                        &mut *self.pool.acquire().await?,
                        redemption.id,
                        transaction_id,
                    )
                    .await?;
                    answer.granted = Granted::Kp {
                        kp,
                        transaction_id: Some(transaction_id),
                    };
                }
            }
            Err(status) => {
                tracing::warn!(redemption_id = %redemption.id, code = ?status.code(), message = status.message(), "giftcode grant not confirmed; it will be asked again");
                metrics::counter!("recharge_giftcode_grant_unconfirmed_total").increment(1);
            }
        }
        Ok(answer)
    }

    /// Asks the wallet again for redemptions stalled `granting`; returns how many were granted.
    pub async fn sweep(&self, redrive_after: Duration) -> Result<usize, GiftcodeError> {
        let stalled =
            db::giftcodes::stalled(&mut *self.pool.acquire().await?, redrive_after, SWEEP_BATCH).await?;
        let mut granted = 0;
        for (user_id, key) in stalled {
            // No connection is held while the wallet answers.
            let found = db::giftcodes::find_by_key(&mut *self.pool.acquire().await?, user_id, &key).await?;
            let Some(redemption) = found else {
                continue;
            };
            if let Granted::Kp {
                transaction_id: Some(_),
                ..
            } = self.grant(redemption).await?.granted
            {
                granted += 1;
            }
        }
        Ok(granted)
    }
}

/// An item redemption as the player is told about it.
fn answer(redemption: RedemptionRow) -> Redemption {
    let status = match redemption.status.as_str() {
        "delivered" => ItemStatus::Delivered,
        "failed" => ItemStatus::Failed,
        _ => ItemStatus::Sent,
    };
    let items = redemption.items.map(|items| items.0).unwrap_or_default();
    Redemption {
        id: redemption.id,
        campaign: redemption.campaign,
        granted: Granted::Items {
            to: Place {
                product_code: redemption.product_code.unwrap_or_default(),
                product_name: redemption.product_name.unwrap_or_default(),
                zone_id: redemption.zone_id.unwrap_or_default(),
                zone_description: redemption.zone_description.unwrap_or_default(),
                character_name: redemption.character_name,
            },
            items,
            status,
        },
    }
}

/// Why a code found cannot be redeemed now, as the player's message.
fn refusal(code: &CodeRow, now: OffsetDateTime) -> Option<&'static str> {
    if now < code.starts_at {
        Some(MSG_CODE_NOT_STARTED)
    } else if now >= code.expires_at {
        Some(MSG_CODE_EXPIRED)
    } else if code.max_uses.is_some_and(|max| code.uses >= max) {
        Some(MSG_CODE_USED)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn codes_are_normalised_before_they_are_hashed() {
        assert_eq!(normalise(" kid-welcome ").as_deref(), Ok("KIDWELCOME"));
        assert_eq!(normalise("KID WEL-COME").as_deref(), Ok("KIDWELCOME"));
        assert_eq!(normalise(" - "), Err(MSG_CODE_REQUIRED));
        assert_eq!(normalise("KID_WELCOME"), Err(MSG_CODE_UNKNOWN));
        assert_eq!(normalise("MÃ"), Err(MSG_CODE_UNKNOWN));
        assert_eq!(normalise(&"A".repeat(65)), Err(MSG_CODE_UNKNOWN));
    }

    #[test]
    fn the_hash_is_keyed_by_the_pepper() {
        let one = CodeHasher::new(SecretString::from("one"));
        let two = CodeHasher::new(SecretString::from("two"));
        assert_eq!(one.hash("KIDWELCOME"), one.hash("KIDWELCOME"));
        assert_ne!(one.hash("KIDWELCOME"), two.hash("KIDWELCOME"));
        assert_ne!(one.hash("KIDWELCOME"), one.hash("KIDWELCOMF"));
        assert_eq!(one.hash("KIDWELCOME").len(), 32);
    }

    #[test]
    fn generated_codes_are_grouped_from_the_unambiguous_alphabet() {
        let codes: std::collections::HashSet<String> = (0..1_000).map(|_| generate("KID")).collect();
        assert_eq!(codes.len(), 1_000);
        for code in &codes {
            let groups: Vec<&str> = code.split('-').collect();
            assert_eq!(groups.len(), 4, "{code}");
            assert_eq!(groups[0], "KID");
            assert!(
                groups[1..]
                    .iter()
                    .all(|group| group.len() == 4 && group.bytes().all(|b| ALPHABET.contains(&b)))
            );
            assert!(normalise(code).is_ok());
        }
    }

    fn code(
        starts_at: OffsetDateTime,
        expires_at: OffsetDateTime,
        max_uses: Option<i32>,
        uses: i32,
    ) -> CodeRow {
        CodeRow {
            hash: vec![0; 32],
            campaign_id: Uuid::nil(),
            campaign: "c".into(),
            kp: Some(1_000),
            product_code: None,
            items: None,
            per_account: 1,
            starts_at,
            expires_at,
            max_uses,
            uses,
        }
    }

    #[test]
    fn a_code_is_refused_outside_its_campaign_and_when_used_up() {
        let start = datetime!(2026-12-01 00:00 UTC);
        let end = datetime!(2026-12-31 00:00 UTC);
        let during = datetime!(2026-12-15 00:00 UTC);
        assert_eq!(refusal(&code(start, end, None, 5_000), during), None);
        assert_eq!(refusal(&code(start, end, Some(1), 0), during), None);
        assert_eq!(
            refusal(&code(start, end, Some(1), 1), during),
            Some(MSG_CODE_USED)
        );
        assert_eq!(
            refusal(&code(start, end, None, 0), start - time::Duration::SECOND),
            Some(MSG_CODE_NOT_STARTED)
        );
        assert_eq!(refusal(&code(start, end, None, 0), end), Some(MSG_CODE_EXPIRED));
    }
}
