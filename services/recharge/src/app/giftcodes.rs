//! Giftcodes: a player redeems a code of a campaign for its KP.
//!
//! As for coin orders, the redemption and the wallet's grant are tied by the redemption's id
//! rather than one database transaction:
//!
//! 1. one transaction checks the code under its row lock (and the player's per-campaign lock),
//!    records the redemption `granting` and counts the code's use;
//! 2. the wallet grants the KP with the redemption's id as idempotency key;
//! 3. the redemption is marked `granted`.
//!
//! A grant with no clear answer leaves the redemption `granting`: the same request key again,
//! or the sweeper, asks the wallet again, and the key moves the KP at most once.
//!
//! Codes are found by their keyed hash (HMAC-SHA-256 under the pepper setting) of the
//! normalised text, and never stored as typed.

use std::time::Duration;

use hmac::{Hmac, Mac};
use kid_contracts::{
    messages::giftcode::{
        MSG_CODE_ALREADY_REDEEMED, MSG_CODE_EXPIRED, MSG_CODE_NOT_STARTED, MSG_CODE_REQUIRED,
        MSG_CODE_UNKNOWN, MSG_CODE_USED,
    },
    wallet::v1::GrantRequest,
};
use rand::seq::IndexedRandom;
use secrecy::{ExposeSecret, SecretString};
use sha2::Sha256;
use sqlx::PgPool;
use time::OffsetDateTime;
use uuid::Uuid;

use super::orders::WalletClient;
use crate::db::{
    self,
    giftcodes::{CodeRow, RedemptionRow},
};

/// How many stalled redemptions one sweep takes.
const SWEEP_BATCH: i64 = 100;
/// The longest text that can be a code once spaces and dashes are gone.
const MAX_CODE_LEN: usize = 64;
/// What generated codes are made of: no 0/O, 1/I/L or U, which players misread or misspell.
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTVWXYZ23456789";
/// Random characters per generated code, in groups of four: 30^12 ≈ 5·10^17 codes.
const GENERATED_LEN: usize = 12;

/// Development's multi-use code, and its campaign: 1,000 KP, once per account.
pub const WELCOME_CODE: &str = "KID-WELCOME";
pub const WELCOME: db::giftcodes::NewCampaign<'static> = db::giftcodes::NewCampaign {
    name: "Chào mừng tân thủ",
    kp: 1_000,
    per_account: 1,
    starts_at: time::macros::datetime!(2026-01-01 00:00 UTC),
    expires_at: time::macros::datetime!(2100-01-01 00:00 UTC),
};

#[derive(Debug, thiserror::Error)]
pub enum GiftcodeError {
    /// The code is refused; the message is the player's, under `code`.
    #[error("{0}")]
    Refused(&'static str),
    #[error("idempotency key reused for another code")]
    KeyReused,
    #[error("database error")]
    Database(#[from] sqlx::Error),
}

/// A redemption as the player is told about it.
#[derive(Debug, Clone)]
pub struct Redemption {
    pub id: Uuid,
    pub campaign: String,
    pub kp: i64,
    /// The wallet's transaction, once it confirmed the grant.
    pub transaction_id: Option<Uuid>,
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

#[derive(Clone)]
pub struct Giftcodes {
    pool: PgPool,
    wallet: WalletClient,
    hasher: CodeHasher,
}

impl Giftcodes {
    pub fn new(pool: PgPool, wallet: WalletClient, hasher: CodeHasher) -> Self {
        Self { pool, wallet, hasher }
    }

    /// Redeems `typed` for the player; the same key again returns the first redemption (and
    /// asks the wallet again while it is not granted).
    pub async fn redeem(&self, user_id: Uuid, key: &str, typed: &str) -> Result<Redemption, GiftcodeError> {
        let code = normalise(typed).map_err(GiftcodeError::Refused)?;
        let hash = self.hasher.hash(&code);
        let mut tx = self.pool.begin().await?;
        if let Some(first) = db::giftcodes::find_by_key(&mut tx, user_id, key).await? {
            tx.rollback().await?;
            return self.replay(first, &hash).await;
        }
        let code = db::giftcodes::lock_code(&mut tx, &hash)
            .await?
            .ok_or(GiftcodeError::Refused(MSG_CODE_UNKNOWN))?;
        refusal(&code, OffsetDateTime::now_utc())
            .map_or(Ok(()), |message| Err(GiftcodeError::Refused(message)))?;
        db::giftcodes::lock_player_campaign(&mut tx, user_id, code.campaign_id).await?;
        // A retry of this request that was holding the locks may have redeemed it meanwhile.
        if let Some(first) = db::giftcodes::find_by_key(&mut tx, user_id, key).await? {
            tx.rollback().await?;
            return self.replay(first, &hash).await;
        }
        if db::giftcodes::redeemed_by(&mut tx, user_id, code.campaign_id).await?
            >= i64::from(code.per_account)
        {
            return Err(GiftcodeError::Refused(MSG_CODE_ALREADY_REDEEMED));
        }
        // The locks above serialise one code and one campaign, not one key: the same key sent
        // at once with codes of two campaigns meets here, and is the same answer as a replay.
        let id = match db::giftcodes::insert_redemption(&mut tx, user_id, key, &code).await {
            Err(sqlx::Error::Database(error)) if error.is_unique_violation() => {
                return Err(GiftcodeError::KeyReused);
            }
            inserted => inserted?,
        };
        tx.commit().await?;
        metrics::counter!("recharge_giftcode_redemptions_total").increment(1);
        tracing::info!(redemption_id = %id, campaign = code.campaign, kp = code.kp, "giftcode redeemed");
        self.grant(RedemptionRow {
            id,
            user_id,
            campaign_id: code.campaign_id,
            campaign: code.campaign,
            code_hash: code.hash,
            kp: code.kp,
            transaction_id: None,
        })
        .await
    }

    /// The request's key named a redemption already: the same one again, for the same code.
    async fn replay(&self, first: RedemptionRow, hash: &[u8]) -> Result<Redemption, GiftcodeError> {
        if first.code_hash != hash {
            return Err(GiftcodeError::KeyReused);
        }
        self.grant(first).await
    }

    /// Asks the wallet for the redemption's KP (at most once per redemption, however often
    /// asked) and records its transaction; without a clear answer it stays `granting`.
    async fn grant(&self, redemption: RedemptionRow) -> Result<Redemption, GiftcodeError> {
        let mut answer = Redemption {
            id: redemption.id,
            campaign: redemption.campaign.clone(),
            kp: redemption.kp,
            transaction_id: redemption.transaction_id,
        };
        if answer.transaction_id.is_some() {
            return Ok(answer);
        }
        let request = GrantRequest {
            idempotency_key: redemption.id.to_string(),
            user_id: redemption.user_id.to_string(),
            kp: redemption.kp,
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
                    answer.transaction_id = Some(transaction_id);
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
        for redemption in stalled {
            if self.grant(redemption).await?.transaction_id.is_some() {
                granted += 1;
            }
        }
        Ok(granted)
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
            kp: 1_000,
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
