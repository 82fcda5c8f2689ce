//! The player's own data (Vietnam's Decree 13/2023): a download of everything Kid holds about
//! them, and closing the account at their request. Closing needs the password (a stolen
//! session cannot do it), ends every session at once, and leaves the money records: the
//! ledger keeps the player's id, which the erasure 30 days later leaves as an opaque id.

use axum::{
    Json,
    extract::State,
    http::header,
    response::{IntoResponse, Response},
};
use axum_extra::extract::{CookieJar, cookie::Cookie};
use kid_contracts::{
    identity::v1::{CloseAccountRequest, ExportAccountRequest},
    recharge::v1::{ListOrdersRequest, ListRedemptionsRequest, OrderRecord, RedemptionRecord},
    wallet::v1::SearchTransactionsRequest,
};
use serde::{Deserialize, Serialize};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    me::{UserBody, password_guess, rfc3339, the_user},
    passkeys::PasskeyBody,
    payment::TransactionBody,
    sign_ins::SignInBody,
    support::{TicketBody, tickets_for_download},
    transactions::today_in_vietnam,
};
use crate::{
    client_address::ClientAddress,
    error::{ApiResult, ValidJson},
    session::{SESSION_COOKIE, SignedIn, XSRF_COOKIE},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(export_data))
        .routes(routes!(delete_account))
}

/// The wallet's page size while the export gathers every transaction.
const TRANSACTION_PAGE: i32 = 1_000;

/// The account as identity keeps it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct AccountRecord {
    /// The player's id: what the ledger knows them by.
    id: String,
    receive_newsletter: bool,
    two_factor_enabled: bool,
    #[schema(required = true)]
    email_verified_at: Option<String>,
    #[schema(required = true)]
    password_changed_at: Option<String>,
    /// When support locked the account; null when it is not locked.
    #[schema(required = true)]
    locked_at: Option<String>,
    /// Why support locked it; null when it is not locked.
    #[schema(required = true)]
    locked_reason: Option<String>,
}

/// A coin order, as the recharge service keeps it (the player's download and the console).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct OrderBody {
    id: String,
    product_code: String,
    zone_id: i64,
    /// The account name the game knows the character by.
    username: String,
    /// KP paid.
    credit: i64,
    coins: i64,
    milestone_bonus: i64,
    event_bonus: i64,
    lottery_points: i64,
    /// `paying`, `awaiting_delivery`, `delivered` or `failed`.
    status: String,
    #[schema(required = true)]
    failure_reason: Option<String>,
    /// The wallet's payment (`credit.pay`) of the order; empty while it is being paid.
    transaction_id: String,
    /// When the game must have answered by (null while it is being paid).
    #[schema(required = true)]
    deliver_by: Option<String>,
    created_at: String,
    updated_at: String,
}

impl From<OrderRecord> for OrderBody {
    fn from(order: OrderRecord) -> Self {
        Self {
            id: order.id,
            product_code: order.product_code,
            zone_id: order.zone_id,
            username: order.username,
            credit: order.credit,
            coins: order.coins,
            milestone_bonus: order.milestone_bonus,
            event_bonus: order.event_bonus,
            lottery_points: order.lottery_points,
            status: order.status,
            failure_reason: Some(order.failure_reason).filter(|reason| !reason.is_empty()),
            transaction_id: order.transaction_id,
            deliver_by: rfc3339(order.deliver_by),
            created_at: rfc3339(order.created_at).unwrap_or_default(),
            updated_at: rfc3339(order.updated_at).unwrap_or_default(),
        }
    }
}

/// A giftcode the player redeemed: its campaign, not the code (Kid keeps only the code's keyed
/// hash).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RedemptionBody {
    id: String,
    campaign: String,
    /// KP granted; null for a campaign of items.
    #[schema(required = true)]
    kp: Option<i64>,
    /// An item campaign's game; null for KP.
    #[schema(required = true)]
    product_code: Option<String>,
    #[schema(required = true)]
    zone_id: Option<i64>,
    /// The account name the game knows the character by (items).
    #[schema(required = true)]
    username: Option<String>,
    /// The character the game named (items); null when it did not answer in time.
    #[schema(required = true)]
    character_name: Option<String>,
    /// `granting`, `granted` (KP), `sent`, `delivered` or `failed` (items).
    status: String,
    #[schema(required = true)]
    failure_reason: Option<String>,
    /// The wallet's grant of the KP; null for items.
    #[schema(required = true)]
    transaction_id: Option<String>,
    created_at: String,
}

impl From<RedemptionRecord> for RedemptionBody {
    fn from(redemption: RedemptionRecord) -> Self {
        let given = |text: String| Some(text).filter(|text| !text.is_empty());
        Self {
            id: redemption.id,
            campaign: redemption.campaign,
            kp: Some(redemption.kp).filter(|kp| *kp > 0),
            product_code: given(redemption.product_code),
            zone_id: Some(redemption.zone_id).filter(|zone| *zone > 0),
            username: given(redemption.username),
            character_name: given(redemption.character_name),
            status: redemption.status,
            failure_reason: given(redemption.failure_reason),
            transaction_id: given(redemption.transaction_id),
            created_at: rfc3339(redemption.created_at).unwrap_or_default(),
        }
    }
}

/// A mail written to the player: subject and times, not the body (its links and codes are
/// credentials, and the player received the text).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct MailBody {
    to: String,
    subject: String,
    created_at: String,
    /// `null` while it waits to be delivered.
    #[schema(required = true)]
    sent_at: Option<String>,
}

/// Everything Kid holds about the player.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ExportBody {
    /// 1; a field added later leaves it, a field changed or removed raises it.
    schema_version: u32,
    exported_at: String,
    /// The player as `GET /api/me` answers.
    profile: UserBody,
    account: AccountRecord,
    /// Every sign-in and refused attempt kept, newest first.
    sign_ins: Vec<SignInBody>,
    passkeys: Vec<PasskeyBody>,
    /// Every top-up and payment, newest first.
    transactions: Vec<TransactionBody>,
    /// Every coin order, newest first.
    orders: Vec<OrderBody>,
    /// Every giftcode redeemed, newest first.
    redemptions: Vec<RedemptionBody>,
    /// Every support ticket with its conversation, newest first; each image at its
    /// `attachmentUrl`, which the player's session opens.
    tickets: Vec<TicketBody>,
    /// The mail written to the player at any address they had, oldest first.
    mails: Vec<MailBody>,
}

/// Every transaction of the player, newest first, a wallet page at a time.
async fn all_transactions(state: &AppState, user_id: &str) -> ApiResult<Vec<TransactionBody>> {
    let mut search = SearchTransactionsRequest {
        user_id: user_id.to_owned(),
        limit: TRANSACTION_PAGE,
        ..Default::default()
    };
    let mut wallet = state.wallet();
    let mut transactions = Vec::new();
    loop {
        let page = wallet.search_transactions(search.clone()).await?.into_inner();
        transactions.extend(page.transactions.into_iter().map(TransactionBody::from));
        match page.next {
            Some(position) => search.after = Some(position),
            None => return Ok(transactions),
        }
    }
}

/// Downloads, as one JSON file, everything Kid holds about the player: the profile and
/// account (with support's lock, if any), sign-ins, passkeys, every transaction, coin order and
/// giftcode redeemed, their support tickets, and the mail sent to them at any address.
#[utoipa::path(
    get,
    path = "/me/export",
    security(("session" = [])),
    responses((status = 200, description = "An attachment, `kid-du-lieu-ca-nhan-<username>-<YYYYMMDD>.json`.", body = ExportBody))
)]
async fn export_data(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
) -> ApiResult<Response> {
    let (identity, orders, redemptions, transactions) = tokio::try_join!(
        async {
            Ok(state
                .identity()
                .export_account(ExportAccountRequest {
                    user_id: user_id.clone(),
                })
                .await?
                .into_inner())
        },
        async {
            Ok(state
                .recharge()
                .list_orders(ListOrdersRequest {
                    user_id: user_id.clone(),
                })
                .await?
                .into_inner()
                .orders)
        },
        async {
            Ok(state
                .recharge()
                .list_redemptions(ListRedemptionsRequest {
                    user_id: user_id.clone(),
                })
                .await?
                .into_inner()
                .redemptions)
        },
        all_transactions(&state, &user_id),
    )?;
    let user = the_user(identity.user)?;
    let username = user.username.clone();
    let account = AccountRecord {
        id: user.id.clone(),
        receive_newsletter: identity.receive_newsletter,
        two_factor_enabled: user.mfa_enabled,
        email_verified_at: rfc3339(user.verified_at),
        password_changed_at: rfc3339(user.password_changed_at),
        locked_at: rfc3339(identity.locked_at),
        locked_reason: Some(identity.locked_reason).filter(|reason| !reason.is_empty()),
    };
    let now = OffsetDateTime::now_utc();
    let body = ExportBody {
        schema_version: 1,
        exported_at: now.format(&Rfc3339).unwrap_or_default(),
        profile: UserBody::compose(&state, user).await?,
        account,
        sign_ins: identity.sign_ins.into_iter().map(SignInBody::from).collect(),
        passkeys: identity.passkeys.into_iter().map(PasskeyBody::from).collect(),
        transactions,
        orders: orders.into_iter().map(OrderBody::from).collect(),
        redemptions: redemptions.into_iter().map(RedemptionBody::from).collect(),
        tickets: tickets_for_download(identity.tickets)?,
        mails: identity
            .mails
            .into_iter()
            .map(|mail| MailBody {
                to: mail.to,
                subject: mail.subject,
                created_at: rfc3339(mail.created_at).unwrap_or_default(),
                sent_at: rfc3339(mail.sent_at),
            })
            .collect(),
    };
    let disposition = format!(
        "attachment; filename=\"kid-du-lieu-ca-nhan-{username}-{}.json\"",
        today_in_vietnam()
    );
    Ok((
        [
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        Json(body),
    )
        .into_response())
}

#[derive(Debug, Deserialize, ToSchema)]
struct DeleteBody {
    /// The account's password, checked and throttled as change-password's.
    #[serde(default)]
    password: String,
}

/// The account is closed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Closed {
    /// Always `true`.
    closed: bool,
    /// When the personal data is erased (30 days on); until then support can reopen it.
    erase_after: String,
}

/// Closes the player's account at once: the password first; every session ends (this one's
/// cookies are cleared) and sign-in is refused from then on. Personal data is erased after 30
/// days; money records stay, under the player's id only. The KP balance is not paid out: the
/// SPA shows it before the player confirms.
#[utoipa::path(
    post,
    path = "/me/delete",
    security(("session" = [])),
    request_body = DeleteBody,
    responses((status = 200, description = "Closed.", body = Closed))
)]
async fn delete_account(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    client: ClientAddress,
    jar: CookieJar,
    ValidJson(body): ValidJson<DeleteBody>,
) -> ApiResult<Response> {
    let mut identity = state.identity();
    let call = identity.close_account(CloseAccountRequest {
        user_id: user_id.clone(),
        password: body.password.clone(),
    });
    let closed = password_guess(&state, &user_id, &client, "password", &body.password, call)
        .await?
        .into_inner();
    state.sessions.destroy_all_of(&user_id).await?;
    tracing::info!(%user_id, "account closed; every session ended");
    let jar = jar
        .remove(Cookie::build(SESSION_COOKIE).path("/"))
        .remove(Cookie::build(XSRF_COOKIE).path("/"));
    let answer = Closed {
        closed: true,
        erase_after: rfc3339(closed.erase_after).unwrap_or_default(),
    };
    Ok((jar, Json(answer)).into_response())
}
