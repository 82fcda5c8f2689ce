//! Game recharge: the game list, a game's recharge screen, and paying KP for its coin.

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
};
use kid_contracts::recharge::v1::{
    self as pb, CreateRechargeRequest, GetCharacterRequest, GetRechargeInfoRequest, ListProductsRequest,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{auth::require_captcha, idempotency_key, me::rfc3339, rate};
use crate::{
    client_address::ClientAddress,
    error::{ApiResult, ValidJson, ValidQuery},
    session::SignedIn,
    state::AppState,
};
use kid_contracts::messages::coin::MSG_PAYING;
use kid_contracts::messages::order::MSG_ZONE_REQUIRED;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(products))
        .routes(routes!(recharge_info, coin_recharge))
        .routes(routes!(character))
}

/// Which zone's character.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct CharacterQuery {
    /// The zone (server) the player chose.
    #[serde(rename = "zoneId")]
    #[param(rename = "zoneId")]
    zone_id: Option<String>,
}

/// The player's character on a zone.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Character)]
struct CharacterBody {
    /// As the game names it: the screen shows it for the player to confirm.
    name: String,
}

/// Asks the game for the player's character on a zone, as an order does before any KP moves.
#[utoipa::path(
    get,
    path = "/payment/coin-recharge/{product_code}/character",
    security(("session" = [])),
    params(("product_code" = String, Path, description = "The game's code, e.g. jxsj2."), CharacterQuery),
    responses(
        (status = 200, description = "The character the coins would go to.", body = CharacterBody),
        (status = 404, description = "No character there (or no such game): `message` says so.", body = crate::error::ErrorBody),
        (status = 422, description = "No zone, or one the game does not have: `errors.zoneId`.", body = crate::error::ErrorBody),
        (status = 503, description = "The game did not answer in time.", body = crate::error::ErrorBody),
    )
)]
async fn character(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    Path(product_code): Path<String>,
    ValidQuery(query): ValidQuery<CharacterQuery>,
) -> ApiResult<Json<CharacterBody>> {
    let zone_id = query
        .zone_id
        .as_deref()
        .and_then(|zone| zone.trim().parse::<i64>().ok())
        .filter(|zone| *zone > 0)
        .ok_or_else(|| super::auth::one_field("zoneId", MSG_ZONE_REQUIRED))?;
    let user = super::me::user(&state, user_id).await?;
    let found = state
        .recharge()
        .get_character(GetCharacterRequest {
            product_code,
            zone_id,
            username: user.username,
        })
        .await?
        .into_inner();
    Ok(Json(CharacterBody { name: found.name }))
}

/// A game players can buy coin for.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Product)]
struct ProductBody {
    code: String,
    name: String,
    logo_img: String,
}

/// The games on sale.
#[utoipa::path(
    get,
    path = "/product",
    security(("session" = [])),
    responses((status = 200, description = "The games.", body = Vec<ProductBody>))
)]
async fn products(State(state): State<AppState>, _signed_in: SignedIn) -> ApiResult<Json<Vec<ProductBody>>> {
    let products = state
        .recharge()
        .list_products(ListProductsRequest {})
        .await?
        .into_inner()
        .products;
    Ok(Json(
        products
            .into_iter()
            .map(|product| ProductBody {
                code: product.code,
                name: product.name,
                logo_img: product.logo_img,
            })
            .collect(),
    ))
}

/// A game server (zone) the coin is delivered to.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Zone)]
struct ZoneBody {
    id: i64,
    description: String,
}

/// A KP amount on offer and the coin it buys.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = PayableValue)]
struct PayableValueBody {
    credit: i64,
    coins_received: i64,
    coins_bonus: i64,
}

/// What a recharge event gives.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
enum EventKind {
    /// Extra lottery points; `config.extpointRate`.
    #[serde(rename = "recharge.bonus_lottery_point")]
    BonusLotteryPoint,
    /// Extra coin; `config.coinBonusRate`.
    #[serde(rename = "recharge.bonus_coin")]
    BonusCoin,
}

/// An event's rate: `coinBonusRate` for a coin bonus, `extpointRate` for lottery points.
#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct EventConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    coin_bonus_rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    extpoint_rate: Option<f64>,
}

/// A running or coming recharge event of the game.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RechargeEvent)]
struct EventBody {
    name: String,
    #[serde(rename = "type")]
    kind: EventKind,
    config: EventConfig,
    #[schema(required = true)]
    starts_at: Option<String>,
    #[schema(required = true)]
    ends_at: Option<String>,
}

/// A game's recharge screen.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RechargeInfo)]
struct RechargeInfoBody {
    code: String,
    name: String,
    coin_name: String,
    home_page_url: String,
    zones: Vec<ZoneBody>,
    payable_values: Vec<PayableValueBody>,
    recharge_events: Vec<EventBody>,
}

fn event(event: pb::RechargeEvent) -> EventBody {
    let (kind, config) = match event.r#type() {
        pb::RechargeEventType::BonusLotteryPoint => (
            EventKind::BonusLotteryPoint,
            EventConfig {
                extpoint_rate: Some(rate(&event.rate)),
                ..EventConfig::default()
            },
        ),
        _ => (
            EventKind::BonusCoin,
            EventConfig {
                coin_bonus_rate: Some(rate(&event.rate)),
                ..EventConfig::default()
            },
        ),
    };
    EventBody {
        name: event.name,
        kind,
        config,
        starts_at: rfc3339(event.starts_at),
        ends_at: rfc3339(event.ends_at),
    }
}

/// A game's zones, KP amounts on offer and events.
#[utoipa::path(
    get,
    path = "/payment/coin-recharge/{product_code}",
    security(("session" = [])),
    params(("product_code" = String, Path, description = "The game's code, e.g. jxsj2.")),
    responses((status = 200, description = "The game's recharge screen.", body = RechargeInfoBody))
)]
async fn recharge_info(
    State(state): State<AppState>,
    _signed_in: SignedIn,
    Path(product_code): Path<String>,
) -> ApiResult<Json<RechargeInfoBody>> {
    let info = state
        .recharge()
        .get_recharge_info(GetRechargeInfoRequest { product_code })
        .await?
        .into_inner();
    Ok(Json(RechargeInfoBody {
        code: info.code,
        name: info.name,
        coin_name: info.coin_name,
        home_page_url: info.home_page_url,
        zones: info
            .zones
            .into_iter()
            .map(|zone| ZoneBody {
                id: zone.id,
                description: zone.description,
            })
            .collect(),
        payable_values: info
            .payable_values
            .into_iter()
            .map(|value| PayableValueBody {
                credit: value.credit,
                coins_received: value.coins_received,
                coins_bonus: value.coins_bonus,
            })
            .collect(),
        recharge_events: info.recharge_events.into_iter().map(event).collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct CoinRechargeBody {
    #[serde(default)]
    zone_id: i64,
    #[serde(default)]
    credit_amount: i64,
    #[serde(default)]
    g_re_captcha_token: String,
}

/// Where a coin order stands.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum OrderStatus {
    /// Paid and sent to the game.
    AwaitingDelivery,
    Delivered,
    Failed,
    /// The payment is not confirmed yet.
    Processing,
}

/// A coin order.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CoinOrder)]
struct OrderBody {
    order_id: String,
    transaction_id: String,
    status: OrderStatus,
    product_code: String,
    coin_name: String,
    zone_id: i64,
    zone_description: String,
    credit: i64,
    coins: i64,
    milestone_bonus: i64,
    event_bonus: i64,
    lottery_points: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'static str>,
}

/// Pays KP for a game's coin. 201 once paid and sent to the game; 202 while the payment is
/// still being confirmed (the same key later returns the outcome); 409 for a short balance.
#[utoipa::path(
    post,
    path = "/payment/coin-recharge/{product_code}",
    security(("session" = [])),
    params(
        ("product_code" = String, Path, description = "The game's code, e.g. jxsj2."),
        (
            "Idempotency-Key" = Option<String>,
            Header,
            description = "1 to 128 printable ASCII characters: the same key retried places one order."
        )
    ),
    request_body = CoinRechargeBody,
    responses(
        (status = 201, description = "Paid and sent to the game (or its outcome, for a key seen before).", body = OrderBody),
        (status = 202, description = "The payment is still being confirmed; retry with the same key.", body = OrderBody)
    )
)]
async fn coin_recharge(
    State(state): State<AppState>,
    client: ClientAddress,
    SignedIn { user_id, .. }: SignedIn,
    Path(product_code): Path<String>,
    headers: HeaderMap,
    ValidJson(body): ValidJson<CoinRechargeBody>,
) -> ApiResult<(StatusCode, Json<OrderBody>)> {
    let key = idempotency_key(&headers)?;
    require_captcha(
        &state,
        &body.g_re_captcha_token,
        "coinRechargeFormSubmit",
        &client.text(),
    )
    .await?;
    let user = super::me::user(&state, user_id.clone()).await?;
    let order = state
        .recharge()
        .create_recharge(CreateRechargeRequest {
            idempotency_key: key,
            user_id,
            product_code,
            zone_id: body.zone_id,
            credit_amount: body.credit_amount,
            username: user.username,
        })
        .await?
        .into_inner();
    let (code, status, message) = match order.status() {
        pb::OrderStatus::Paying => (StatusCode::ACCEPTED, OrderStatus::Processing, Some(MSG_PAYING)),
        pb::OrderStatus::Delivered => (StatusCode::CREATED, OrderStatus::Delivered, None),
        pb::OrderStatus::Failed => (StatusCode::CREATED, OrderStatus::Failed, None),
        _ => (StatusCode::CREATED, OrderStatus::AwaitingDelivery, None),
    };
    Ok((
        code,
        Json(OrderBody {
            order_id: order.order_id,
            transaction_id: order.transaction_id,
            status,
            product_code: order.product_code,
            coin_name: order.coin_name,
            zone_id: order.zone_id,
            zone_description: order.zone_description,
            credit: order.credit,
            coins: order.coins,
            milestone_bonus: order.milestone_bonus,
            event_bonus: order.event_bonus,
            lottery_points: order.lottery_points,
            message,
        }),
    ))
}
