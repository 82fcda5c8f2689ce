//! The console's player look-up: find a player by username, email, phone number, transfer
//! content or transaction id, and everything about them on one page: profile, sessions,
//! sign-ins, balance, debt, partner tier, ledger (paged beyond its first 100), coin orders,
//! adjustments and tickets. Support ends a player's sessions and locks or unlocks the account.

use axum::{
    Json,
    extract::{Path, State},
};
use futures::TryFutureExt;
use kid_contracts::{
    identity::v1::{
        FindPlayersRequest, FoundPlayer, ListSignInsRequest, ListTicketsRequest, SetAccountLockRequest,
    },
    payment::v1::FindPayersRequest,
    recharge::v1::ListOrdersRequest,
    staff::v1::RecordStaffActionRequest,
    wallet::v1::{GetAccountRequest, ListAdjustmentsRequest, LocateTransactionRequest},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{SignedInStaff, adjustments::AdjustmentBody, orders::OrderBody};
use crate::{
    api::{
        me::rfc3339,
        payment::TransactionBody,
        sessions::SessionBody,
        sign_ins::SignInBody,
        support::TicketSummaryBody,
        transactions::{self, HistoryQuery, PageBody},
    },
    error::{ApiError, ApiResult, ValidJson, ValidQuery},
    state::AppState,
};
use kid_contracts::messages::staff::{MSG_PLAYER_NOT_FOUND, MSG_REASON_REQUIRED};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(search))
        .routes(routes!(detail))
        .routes(routes!(ledger))
        .routes(routes!(revoke_sessions))
        .routes(routes!(lock))
        .routes(routes!(unlock))
}

/// A player found by the look-up.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerBody {
    pub id: String,
    pub username: String,
    pub email: String,
    pub phone_number: String,
    #[schema(required = true)]
    pub created_at: Option<String>,
    /// When the player closed the account (null: open).
    #[schema(required = true)]
    pub closed_at: Option<String>,
    /// When support locked the account (null: not locked).
    #[schema(required = true)]
    pub locked_at: Option<String>,
    pub locked_reason: String,
}

impl From<FoundPlayer> for PlayerBody {
    fn from(player: FoundPlayer) -> Self {
        Self {
            id: player.id,
            username: player.username,
            email: player.email,
            phone_number: player.phone_number,
            created_at: rfc3339(player.created_at),
            closed_at: rfc3339(player.closed_at),
            locked_at: rfc3339(player.locked_at),
            locked_reason: player.locked_reason,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// A username (or its start), an email, a phone number, a player's id, a transfer content
    /// (`KID…`) or a transaction id.
    q: String,
}

/// Finds players by username, email, phone, id, transfer content or transaction id.
#[utoipa::path(
    get,
    path = "/staff/players",
    operation_id = "staff_players_search",
    params(SearchQuery),
    security(("staff-session" = [])),
    responses((status = 200, description = "The players found (at most 20).", body = Vec<PlayerBody>))
)]
async fn search(
    State(state): State<AppState>,
    staff: SignedInStaff,
    ValidQuery(query): ValidQuery<SearchQuery>,
) -> ApiResult<Json<Vec<PlayerBody>>> {
    let q = query.q.trim().to_owned();
    if q.is_empty() {
        return Ok(Json(Vec::new()));
    }
    let mut exact: Vec<String> = state
        .payment()
        .find_payers(staff.acting(FindPayersRequest { content: q.clone() }))
        .await?
        .into_inner()
        .payers
        .into_iter()
        .map(|payer| payer.user_id)
        .collect();
    if uuid::Uuid::parse_str(&q).is_ok() {
        match state
            .wallet()
            .locate_transaction(staff.acting(LocateTransactionRequest {
                transaction_id: q.clone(),
            }))
            .await
        {
            Ok(found) => exact.push(found.into_inner().user_id),
            Err(status) if status.code() == tonic::Code::NotFound => {}
            Err(status) => return Err(status.into()),
        }
    }
    let players = state
        .identity()
        .find_players(staff.acting(FindPlayersRequest {
            query: q,
            exact,
            limit: 20,
        }))
        .await?
        .into_inner()
        .players;
    Ok(Json(players.into_iter().map(PlayerBody::from).collect()))
}

/// A player's balance, debt and partner tier.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WalletBody {
    /// KP balance.
    credit: i64,
    /// KP owed.
    debt_credit: i64,
    is_pay_partner: bool,
    /// Bonus rate of the partner tier in force, in basis points.
    partner_bonus_bps: i32,
    pay_amount_last_28_days: i64,
}

/// Everything about one player, for support.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlayerDetailBody {
    player: PlayerBody,
    sessions: Vec<SessionBody>,
    sign_ins: Vec<SignInBody>,
    wallet: WalletBody,
    /// The newest 100 transactions.
    ledger: Vec<TransactionBody>,
    /// Pass as `cursor` to `/staff/players/{id}/ledger` for the older ones; null when these are all.
    #[schema(required = true)]
    ledger_next_cursor: Option<String>,
    orders: Vec<OrderBody>,
    adjustments: Vec<AdjustmentBody>,
    /// The player's support tickets, the most recently active first.
    tickets: Vec<TicketSummaryBody>,
}

/// The player, by id, as identity finds them (closed accounts included).
pub(super) async fn found(state: &AppState, staff: &SignedInStaff, id: &str) -> ApiResult<FoundPlayer> {
    if uuid::Uuid::parse_str(id).is_err() {
        return Err(ApiError::NotFound(MSG_PLAYER_NOT_FOUND.into()));
    }
    state
        .identity()
        .find_players(staff.acting(FindPlayersRequest {
            query: String::new(),
            exact: vec![id.to_owned()],
            limit: 1,
        }))
        .await?
        .into_inner()
        .players
        .pop()
        .ok_or_else(|| ApiError::NotFound(MSG_PLAYER_NOT_FOUND.into()))
}

/// Everything about one player on one page.
#[utoipa::path(
    get,
    path = "/staff/players/{id}",
    operation_id = "staff_players_detail",
    params(("id" = String, Path, description = "The player's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "The player.", body = PlayerDetailBody))
)]
async fn detail(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Json<PlayerDetailBody>> {
    let player = found(&state, &staff, &id).await?;
    let user_id = player.id.clone();
    let first_page = HistoryQuery::first(LEDGER_PAGE);
    let (mut identity, mut wallet, mut recharge, mut adjustments, mut tickets) = (
        state.identity(),
        state.wallet(),
        state.recharge(),
        state.wallet(),
        state.identity(),
    );
    let (sign_ins, account, ledger, orders, asked, tickets) = tokio::try_join!(
        identity
            .list_sign_ins(ListSignInsRequest {
                user_id: user_id.clone(),
            })
            .map_err(ApiError::from),
        wallet
            .get_account(GetAccountRequest {
                user_id: user_id.clone(),
            })
            .map_err(ApiError::from),
        transactions::page(&state, user_id.clone(), &first_page),
        recharge
            .list_orders(ListOrdersRequest {
                user_id: user_id.clone(),
            })
            .map_err(ApiError::from),
        adjustments
            .list_adjustments(staff.acting(ListAdjustmentsRequest {
                status: String::new(),
                user_id: user_id.clone(),
                limit: 100,
            }))
            .map_err(ApiError::from),
        tickets
            .list_tickets(staff.acting(ListTicketsRequest {
                user_id: user_id.clone(),
                status: String::new(),
            }))
            .map_err(ApiError::from),
    )?;
    let account = account.into_inner();
    let sessions = state.sessions.list_of(&user_id).await?;
    Ok(Json(PlayerDetailBody {
        player: player.into(),
        sessions: sessions
            .into_iter()
            .map(|session| SessionBody::of(session, None))
            .collect(),
        sign_ins: sign_ins
            .into_inner()
            .sign_ins
            .into_iter()
            .map(SignInBody::from)
            .collect(),
        wallet: WalletBody {
            credit: account.credit,
            debt_credit: account.debt_credit,
            is_pay_partner: account.is_pay_partner,
            partner_bonus_bps: account.partner_bonus_bps,
            pay_amount_last_28_days: account.pay_amount_last_28_days,
        },
        ledger: ledger.items,
        ledger_next_cursor: ledger.next_cursor,
        orders: orders.into_inner().orders.into_iter().map(Into::into).collect(),
        adjustments: asked
            .into_inner()
            .adjustments
            .into_iter()
            .map(Into::into)
            .collect(),
        tickets: tickets.into_inner().tickets.into_iter().map(Into::into).collect(),
    }))
}

/// The transactions the player's page shows first.
const LEDGER_PAGE: u32 = 100;

/// The player's whole ledger, a page at a time, newest first, with the history's filters.
#[utoipa::path(
    get,
    path = "/staff/players/{id}/ledger",
    operation_id = "staff_players_ledger",
    params(("id" = String, Path, description = "The player's id."), HistoryQuery),
    security(("staff-session" = [])),
    responses(
        (status = 200, description = "A page of the player's transactions.", body = PageBody),
        (status = 422, description = "A filter, the limit or the cursor is invalid: `errors` names it.", body = crate::error::ErrorBody),
    )
)]
async fn ledger(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
    ValidQuery(query): ValidQuery<HistoryQuery>,
) -> ApiResult<Json<PageBody>> {
    let player = found(&state, &staff, &id).await?;
    Ok(Json(transactions::page(&state, player.id, &query).await?))
}

/// Ends every session of the player (support): a stolen cookie stops working at once.
#[utoipa::path(
    post,
    path = "/staff/players/{id}/sessions/revoke",
    operation_id = "staff_players_revoke_sessions",
    params(("id" = String, Path, description = "The player's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "The sessions ended.", body = PlayerBody))
)]
async fn revoke_sessions(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Json<PlayerBody>> {
    let player = found(&state, &staff, &id).await?;
    let before = state.sessions.list_of(&player.id).await?.len();
    // Identity checks the role and records the action before anything ends.
    state
        .identity_audit()
        .record_staff_action(staff.acting(RecordStaffActionRequest {
            action: "player.sessions_revoke".into(),
            subject: format!("player:{}", player.id),
            before_json: serde_json::json!({ "sessions": before }).to_string(),
            after_json: serde_json::json!({ "sessions": 0 }).to_string(),
        }))
        .await?;
    state.sessions.destroy_all_of(&player.id).await?;
    Ok(Json(player.into()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LockBody {
    /// Why the account is locked (kept and shown to staff).
    #[serde(default)]
    reason: String,
}

/// Locks the account (support): the right password and passkeys sign it in no more, and every
/// session ends.
#[utoipa::path(
    post,
    path = "/staff/players/{id}/lock",
    operation_id = "staff_players_lock",
    params(("id" = String, Path, description = "The player's id.")),
    request_body = LockBody,
    security(("staff-session" = [])),
    responses((status = 200, description = "Locked.", body = PlayerBody))
)]
async fn lock(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<LockBody>,
) -> ApiResult<Json<PlayerBody>> {
    if body.reason.trim().is_empty() {
        return Err(crate::api::auth::one_field("reason", MSG_REASON_REQUIRED));
    }
    let player = found(&state, &staff, &id).await?;
    let locked = state
        .identity()
        .set_account_lock(staff.acting(SetAccountLockRequest {
            user_id: player.id.clone(),
            reason: body.reason,
        }))
        .await?
        .into_inner()
        .player
        .ok_or_else(|| ApiError::Internal("identity answered no player".into()))?;
    state.sessions.destroy_all_of(&player.id).await?;
    Ok(Json(locked.into()))
}

/// Unlocks the account (support).
#[utoipa::path(
    post,
    path = "/staff/players/{id}/unlock",
    operation_id = "staff_players_unlock",
    params(("id" = String, Path, description = "The player's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "Unlocked.", body = PlayerBody))
)]
async fn unlock(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Json<PlayerBody>> {
    let player = found(&state, &staff, &id).await?;
    let unlocked = state
        .identity()
        .set_account_lock(staff.acting(SetAccountLockRequest {
            user_id: player.id,
            reason: String::new(),
        }))
        .await?
        .into_inner()
        .player
        .ok_or_else(|| ApiError::Internal("identity answered no player".into()))?;
    Ok(Json(unlocked.into()))
}
