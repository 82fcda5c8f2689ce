//! Support's side of the bank feed: the transfers that matched no player, with suggestions of
//! whom they may be for, and matching one by hand. A match goes through the very path the feed
//! takes for a transfer it matched itself: the same `payment.topup.received` event under the
//! same key (`bank-feed:<provider id>`), so the wallet credits it once with the partner rules,
//! whoever matches it and however often they click. Past the approval threshold a match is
//! only asked for, and credits when a second finance member approves it.

use kid_contracts::{
    messages::staff::{
        MSG_TRANSFER_ALREADY_MATCHED, MSG_TRANSFER_ASKED_FOR_ANOTHER, MSG_TRANSFER_NOT_CREDITABLE,
        MSG_TRANSFER_NOT_FOUND, MSG_TRANSFER_NOT_OURS,
    },
    topics::{self, TopupReceived},
};
use kid_platform::{
    audit,
    auth::{self, StaffActor},
    outbox,
};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use super::bank_feed::NOT_OUR_ACCOUNT;
use crate::{
    db::{self, bank_feed::KeptTransfer},
    domain::{card::kp_for_transfer, syntax},
    events,
};

/// Why a player is suggested for a transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The content carries this player's code (with another's: the feed could not choose).
    NamesCode,
    /// The content carries a code one slip away from this player's.
    NearCode,
}

impl Why {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NamesCode => "content_names_code",
            Self::NearCode => "content_near_code",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Suggestion {
    pub user_id: Uuid,
    pub code: String,
    pub why: Why,
}

/// A kept transfer, what it would credit, and whom it may be for.
#[derive(Debug, Clone)]
pub struct Kept {
    pub transfer: KeptTransfer,
    /// KP the transfer credits at its method's rate; `None` when it cannot be credited.
    pub kp: Option<i64>,
    pub suggestions: Vec<Suggestion>,
}

#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("{0}")]
    NotFound(&'static str),
    #[error("{0}")]
    Refused(&'static str),
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] outbox::OutboxError),
}

/// What a match did.
pub struct Matched {
    pub transfer: KeptTransfer,
    pub kp: i64,
    /// It was already matched (or asked for) to this player: nothing was done again.
    pub already: bool,
    /// Nothing is credited yet: the match waits for a second finance member.
    pub pending: bool,
}

async fn kp_of(conn: &mut sqlx::PgConnection, transfer: &KeptTransfer) -> Result<Option<i64>, sqlx::Error> {
    let (Some(code), Some(amount)) = (&transfer.method_code, transfer.amount_vnd) else {
        return Ok(None);
    };
    if amount <= 0 {
        return Ok(None);
    }
    let method = db::methods::transfer_method(conn, code).await?;
    Ok(method.and_then(|method| kp_for_transfer(amount, method.rate())))
}

/// The newest kept transfers (unmatched, or `matched` by hand), each with its suggestions.
pub async fn kept(pool: &PgPool, matched: bool, limit: i64) -> Result<Vec<Kept>, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    let transfers = db::bank_feed::kept(&mut conn, matched, limit).await?;
    let mut kept = Vec::with_capacity(transfers.len());
    for transfer in transfers {
        let content = transfer.content.clone().unwrap_or_default();
        let named = syntax::candidates(&content);
        let mut suggestions: Vec<Suggestion> = db::bank_feed::players_with_codes(&mut conn, &named)
            .await?
            .into_iter()
            .map(|(code, user_id)| Suggestion {
                user_id,
                code,
                why: Why::NamesCode,
            })
            .collect();
        let near: Vec<String> = syntax::near(&content)
            .into_iter()
            .filter(|code| !named.contains(code))
            .collect();
        for (code, user_id) in db::bank_feed::players_with_codes(&mut conn, &near).await? {
            if !suggestions.iter().any(|known| known.user_id == user_id) {
                suggestions.push(Suggestion {
                    user_id,
                    code,
                    why: Why::NearCode,
                });
            }
        }
        let kp = kp_of(&mut conn, &transfer).await?;
        kept.push(Kept {
            transfer,
            kp,
            suggestions,
        });
    }
    Ok(kept)
}

/// Whether a match of `kp` waits for a second member ([`auth::needs_second_member`]), counting
/// what `staff`, and anyone for the player, had matched alone over 24 hours. Takes the member's
/// and the player's locks, so two matches at once cannot both find a total under the threshold.
async fn needs_a_checker(
    conn: &mut sqlx::PgConnection,
    staff: &StaffActor,
    user_id: Uuid,
    kp: i64,
    threshold: i64,
) -> Result<bool, sqlx::Error> {
    kid_platform::db::lock_key(conn, &format!("transfer-match-member:{}", staff.id)).await?;
    kid_platform::db::lock_key(conn, &format!("transfer-match-player:{user_id}")).await?;
    let totals = db::bank_feed::matched_alone_lately(conn, staff.id, user_id).await?;
    Ok(auth::needs_second_member(kp, threshold, totals.into()))
}

/// Credits an unmatched transfer to `user_id` (a player the gateway found), once: the record
/// turns `credited`, the wallet's event goes to the outbox, and the audit log keeps who did it,
/// all in one transaction. Matching it again to the same player changes nothing. Maker-checker
/// as for adjustments: a match past `threshold` (alone, or with what its member or its player
/// had matched alone over 24 hours) is only asked for, and credits when a second finance member
/// matches it to the same player. A transfer paid into none of our accounts is never credited.
pub async fn match_transfer(
    pool: &PgPool,
    staff: &StaffActor,
    transfer_id: Uuid,
    user_id: Uuid,
    threshold: i64,
) -> Result<Matched, MatchError> {
    let mut tx = pool.begin().await?;
    let transfer = db::bank_feed::kept_for_update(&mut tx, transfer_id)
        .await?
        .ok_or(MatchError::NotFound(MSG_TRANSFER_NOT_FOUND))?;
    let kp = kp_of(&mut tx, &transfer).await?;
    if transfer.status == "credited" {
        return match (transfer.user_id == Some(user_id), kp) {
            (true, Some(kp)) => Ok(Matched {
                transfer,
                kp,
                already: true,
                pending: false,
            }),
            _ => Err(MatchError::Refused(MSG_TRANSFER_ALREADY_MATCHED)),
        };
    }
    if transfer.reason.as_deref() == Some(NOT_OUR_ACCOUNT) {
        return Err(MatchError::Refused(MSG_TRANSFER_NOT_OURS));
    }
    let (Some(provider_id), Some(kp), Some(amount_vnd), "unmatched") = (
        transfer.provider_id.clone(),
        kp,
        transfer.amount_vnd,
        transfer.status.as_str(),
    ) else {
        return Err(MatchError::Refused(MSG_TRANSFER_NOT_CREDITABLE));
    };
    let method = match &transfer.method_code {
        Some(code) => db::methods::transfer_method(&mut tx, code).await?,
        None => None,
    }
    .ok_or(MatchError::Refused(MSG_TRANSFER_NOT_CREDITABLE))?;
    let approving = match transfer.match_asked_by {
        // Another member approves the ask: only for the player it names.
        Some(asker) if asker != staff.id => {
            if transfer.match_asked_for != Some(user_id) {
                return Err(MatchError::Refused(MSG_TRANSFER_ASKED_FOR_ANOTHER));
            }
            true
        }
        // The asker again: the same ask answers as it is; another player replaces it.
        Some(_) if transfer.match_asked_for == Some(user_id) => {
            return Ok(Matched {
                transfer,
                kp,
                already: true,
                pending: true,
            });
        }
        _ => false,
    };
    let pending = !approving && needs_a_checker(&mut tx, staff, user_id, kp, threshold).await?;
    let subject = format!("transfer:{transfer_id}");
    if pending {
        db::bank_feed::ask_match(&mut tx, transfer_id, user_id, (staff.id, &staff.username)).await?;
        let before = json!({ "status": transfer.status, "askedFor": transfer.match_asked_for });
        let after = json!({ "status": "unmatched", "askedFor": user_id, "amountVnd": amount_vnd, "kp": kp });
        audit::record(
            &mut tx,
            staff,
            "transfer.match_request",
            &subject,
            Some(&before),
            Some(&after),
        )
        .await?;
    } else {
        let event = TopupReceived {
            idempotency_key: events::bank_feed_topup_key(&provider_id),
            user_id,
            topup_type: method.kind.clone(),
            source: method.code.clone(),
            amount_vnd,
            kp,
            card_serial: String::new(),
            error_code: String::new(),
            received_at: Some(transfer.received_at),
        };
        outbox::enqueue(&mut tx, topics::TOPUP_RECEIVED, &event).await?;
        db::bank_feed::mark_matched(&mut tx, transfer_id, user_id, staff.id, kp).await?;
        let before = json!({ "status": transfer.status, "reason": transfer.reason, "userId": null });
        let after = json!({ "status": "credited", "userId": user_id, "amountVnd": amount_vnd, "kp": kp });
        let action = if approving {
            "transfer.match_approve"
        } else {
            "transfer.match"
        };
        audit::record(&mut tx, staff, action, &subject, Some(&before), Some(&after)).await?;
    }
    let transfer = db::bank_feed::kept_for_update(&mut tx, transfer_id)
        .await?
        .ok_or(MatchError::NotFound(MSG_TRANSFER_NOT_FOUND))?;
    tx.commit().await?;
    if !pending {
        events::topup_received(&method.kind);
    }
    tracing::info!(%transfer_id, %user_id, kp, staff = staff.username, approving, pending, "unmatched transfer matched by support");
    Ok(Matched {
        transfer,
        kp,
        already: false,
        pending,
    })
}
