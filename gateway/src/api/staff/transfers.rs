//! Unmatched transfers in the console: bank and e-wallet transfers that matched no player, with
//! suggestions of whom they are for, and matching one (finance, re-authenticated). Payment
//! credits a match through the bank feed's own event and key, once.

use std::collections::BTreeMap;

use axum::{
    Json,
    extract::{Path, State},
};
use kid_contracts::{
    identity::v1::FindPlayersRequest,
    messages::staff::MSG_PLAYER_NOT_FOUND,
    payment::v1::{KeptTransfer, ListUnmatchedTransfersRequest, MatchTransferRequest},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::SignedInStaff;
use crate::{
    api::{auth::one_field, me::rfc3339},
    error::{ApiError, ApiResult, ValidJson, ValidQuery},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(match_transfer))
}

/// A player a transfer may be for, and why.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SuggestionBody {
    user_id: String,
    username: String,
    /// The player's transfer content, when that is why.
    code: String,
    /// `content_names_code` (the content carries their code, beside another's),
    /// `content_near_code` (a code one slip away from theirs) or `content_names_username`.
    why: String,
}

/// A transfer kept for support.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TransferBody {
    id: String,
    provider_id: String,
    method_code: String,
    /// As the bank wrote it.
    transaction_date: String,
    account_number: String,
    amount_vnd: i64,
    content: String,
    reference_code: String,
    /// Why the feed matched nobody.
    reason: String,
    #[schema(required = true)]
    received_at: Option<String>,
    /// `unmatched`, or `credited` once matched.
    status: String,
    /// The player it was credited to, once matched.
    user_id: String,
    username: String,
    #[schema(required = true)]
    matched_at: Option<String>,
    /// KP it credits at its method's rate, before the partner bonus (0: it cannot be credited).
    kp: i64,
    suggestions: Vec<SuggestionBody>,
    /// A match waiting for a second finance member, if one was asked for.
    pending_match: Option<PendingMatchBody>,
}

/// A match asked for past the approval threshold: another finance member approves it by
/// matching the transfer to the same player.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingMatchBody {
    user_id: String,
    username: String,
    asked_by_username: String,
    #[schema(required = true)]
    asked_at: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TransfersQuery {
    /// `true`: the transfers support matched by hand, instead of those still unmatched.
    matched: Option<bool>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchBody {
    /// The player's username (or id).
    #[serde(default)]
    player: String,
}

/// A match's answer; `already` when it had been matched (or asked for) to this player before;
/// `pending` when nothing is credited yet: past the approval threshold, a second finance member
/// must match it to the same player.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchedBody {
    transfer: TransferBody,
    kp: i64,
    already: bool,
    pending: bool,
}

/// Words of a transfer's content that could be a username.
fn username_words(content: &str) -> Vec<String> {
    content
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| (4..=32).contains(&word.len()))
        .map(str::to_lowercase)
        .collect()
}

/// The transfers with their suggestions, each suggested player named: the codes payment found,
/// and the usernames the content spells.
async fn described(
    state: &AppState,
    staff: &SignedInStaff,
    transfers: Vec<KeptTransfer>,
) -> ApiResult<Vec<TransferBody>> {
    let mut wanted: Vec<String> = Vec::new();
    for transfer in &transfers {
        wanted.extend(
            transfer
                .suggestions
                .iter()
                .map(|suggestion| suggestion.user_id.clone()),
        );
        wanted.extend(username_words(&transfer.content));
        for id in [&transfer.user_id, &transfer.match_asked_for] {
            if !id.is_empty() {
                wanted.push(id.clone());
            }
        }
    }
    wanted.sort();
    wanted.dedup();
    let players = if wanted.is_empty() {
        Vec::new()
    } else {
        state
            .identity()
            .find_players(staff.acting(FindPlayersRequest {
                query: String::new(),
                exact: wanted,
                limit: 50,
            }))
            .await?
            .into_inner()
            .players
    };
    let by_id: BTreeMap<&str, &str> = players
        .iter()
        .map(|player| (player.id.as_str(), player.username.as_str()))
        .collect();
    let by_username: BTreeMap<&str, &str> = players
        .iter()
        .map(|player| (player.username.as_str(), player.id.as_str()))
        .collect();
    Ok(transfers
        .into_iter()
        .map(|transfer| {
            let mut suggestions: Vec<SuggestionBody> = transfer
                .suggestions
                .iter()
                .map(|suggestion| SuggestionBody {
                    username: by_id
                        .get(suggestion.user_id.as_str())
                        .copied()
                        .unwrap_or_default()
                        .to_owned(),
                    user_id: suggestion.user_id.clone(),
                    code: suggestion.code.clone(),
                    why: suggestion.why.clone(),
                })
                .collect();
            for word in username_words(&transfer.content) {
                if let Some(id) = by_username.get(word.as_str())
                    && !suggestions.iter().any(|known| known.user_id == *id)
                {
                    suggestions.push(SuggestionBody {
                        user_id: (*id).to_owned(),
                        username: word,
                        code: String::new(),
                        why: "content_names_username".into(),
                    });
                }
            }
            let username_of = |id: &str| by_id.get(id).copied().unwrap_or_default().to_owned();
            let waiting = transfer.status == "unmatched" && !transfer.match_asked_for.is_empty();
            let pending_match = waiting.then(|| PendingMatchBody {
                username: username_of(&transfer.match_asked_for),
                user_id: transfer.match_asked_for.clone(),
                asked_by_username: transfer.match_asked_by_username.clone(),
                asked_at: rfc3339(transfer.match_asked_at),
            });
            TransferBody {
                username: username_of(&transfer.user_id),
                id: transfer.id,
                provider_id: transfer.provider_id,
                method_code: transfer.method_code,
                transaction_date: transfer.transaction_date,
                account_number: transfer.account_number,
                amount_vnd: transfer.amount_vnd,
                content: transfer.content,
                reference_code: transfer.reference_code,
                reason: transfer.reason,
                received_at: rfc3339(transfer.received_at),
                status: transfer.status,
                user_id: transfer.user_id,
                matched_at: rfc3339(transfer.matched_at),
                kp: transfer.kp,
                suggestions,
                pending_match,
            }
        })
        .collect())
}

/// The transfers that matched no player (or, `matched=true`, those matched by hand), newest
/// first, with suggestions (every role).
#[utoipa::path(
    get,
    path = "/staff/transfers",
    operation_id = "staff_transfers_list",
    params(TransfersQuery),
    security(("staff-session" = [])),
    responses((status = 200, description = "The transfers.", body = Vec<TransferBody>))
)]
async fn list(
    State(state): State<AppState>,
    staff: SignedInStaff,
    ValidQuery(query): ValidQuery<TransfersQuery>,
) -> ApiResult<Json<Vec<TransferBody>>> {
    let transfers = state
        .payment()
        .list_unmatched_transfers(staff.acting(ListUnmatchedTransfersRequest {
            matched: query.matched.unwrap_or(false),
            limit: 100,
        }))
        .await?
        .into_inner()
        .transfers;
    Ok(Json(described(&state, &staff, transfers).await?))
}

/// Credits an unmatched transfer to a player, once, through the normal top-up path with the
/// partner rules (finance; needs a re-authentication within five minutes). Past the approval
/// threshold (alone, or with what the member or the player had matched alone over 24 hours) it
/// is only asked for (`pending`), and credits when another finance member matches it to the
/// same player; one paid into none of our accounts is refused.
#[utoipa::path(
    post,
    path = "/staff/transfers/{id}/match",
    operation_id = "staff_transfers_match",
    params(("id" = String, Path, description = "The transfer's id.")),
    request_body = MatchBody,
    security(("staff-session" = [])),
    responses((status = 200, description = "Credited.", body = MatchedBody))
)]
async fn match_transfer(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<MatchBody>,
) -> ApiResult<Json<MatchedBody>> {
    let wanted = body.player.trim().to_lowercase();
    let players = if wanted.is_empty() {
        Vec::new()
    } else {
        state
            .identity()
            .find_players(staff.acting(FindPlayersRequest {
                query: String::new(),
                exact: vec![wanted],
                limit: 1,
            }))
            .await?
            .into_inner()
            .players
    };
    let Some(player) = players
        .into_iter()
        .next()
        .filter(|player| player.closed_at.is_none())
    else {
        return Err(one_field("player", MSG_PLAYER_NOT_FOUND));
    };
    let matched = state
        .payment()
        .match_transfer(staff.acting(MatchTransferRequest {
            transfer_id: id,
            user_id: player.id,
        }))
        .await?
        .into_inner();
    let transfer = matched
        .transfer
        .ok_or_else(|| ApiError::Internal("payment answered no transfer".into()))?;
    let transfer = described(&state, &staff, vec![transfer])
        .await?
        .pop()
        .ok_or_else(|| ApiError::Internal("no transfer described".into()))?;
    Ok(Json(MatchedBody {
        transfer,
        kp: matched.kp,
        already: matched.already,
        pending: matched.pending,
    }))
}
