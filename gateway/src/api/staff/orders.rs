//! The console's actions on coin orders: resend one to its game (support), refund one the game
//! never delivered (finance, re-authenticated). Recharge checks the roles and does each once.

use axum::{
    Json,
    extract::{Path, State},
};
use kid_contracts::recharge::v1::{OrderRecord, RefundOrderRequest, ResendOrderRequest};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::SignedInStaff;
use crate::{
    api::me::rfc3339,
    error::{ApiError, ApiResult, ValidJson},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(resend))
        .routes(routes!(refund))
}

/// A coin order as support sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderBody {
    id: String,
    product_code: String,
    zone_id: i64,
    username: String,
    /// KP paid.
    credit: i64,
    coins: i64,
    milestone_bonus: i64,
    event_bonus: i64,
    lottery_points: i64,
    /// `paying`, `awaiting_delivery`, `delivered` or `failed`.
    status: String,
    failure_reason: String,
    transaction_id: String,
    #[schema(required = true)]
    created_at: Option<String>,
    #[schema(required = true)]
    updated_at: Option<String>,
    #[schema(required = true)]
    deliver_by: Option<String>,
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
            failure_reason: order.failure_reason,
            transaction_id: order.transaction_id,
            created_at: rfc3339(order.created_at),
            updated_at: rfc3339(order.updated_at),
            deliver_by: rfc3339(order.deliver_by),
        }
    }
}

/// A resend's answer: the order and the game message's id (the same as the first time).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResentBody {
    order: OrderBody,
    message_id: String,
}

/// A refund's answer; `already` when the order had been refunded before.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundedBody {
    order: OrderBody,
    already: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RefundBody {
    #[serde(default)]
    reason: String,
}

fn the_order(order: Option<OrderRecord>) -> ApiResult<OrderBody> {
    order
        .map(OrderBody::from)
        .ok_or_else(|| ApiError::Internal("recharge answered no order".into()))
}

/// Sends an order awaiting delivery to its game again, under the same message id (support).
#[utoipa::path(
    post,
    path = "/staff/orders/{id}/resend",
    operation_id = "staff_orders_resend",
    params(("id" = String, Path, description = "The coin order's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "Published again.", body = ResentBody))
)]
async fn resend(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Json<ResentBody>> {
    let resent = state
        .recharge()
        .resend_order(staff.acting(ResendOrderRequest { order_id: id }))
        .await?
        .into_inner();
    Ok(Json(ResentBody {
        order: the_order(resent.order)?,
        message_id: resent.message_id,
    }))
}

/// Fails an order the game never delivered and refunds its KP, once (finance; needs a
/// re-authentication within five minutes).
#[utoipa::path(
    post,
    path = "/staff/orders/{id}/refund",
    operation_id = "staff_orders_refund",
    params(("id" = String, Path, description = "The coin order's id.")),
    request_body = RefundBody,
    security(("staff-session" = [])),
    responses((status = 200, description = "Refunded.", body = RefundedBody))
)]
async fn refund(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<RefundBody>,
) -> ApiResult<Json<RefundedBody>> {
    let refunded = state
        .recharge()
        .refund_order(staff.acting(RefundOrderRequest {
            order_id: id,
            reason: body.reason,
        }))
        .await?
        .into_inner();
    Ok(Json(RefundedBody {
        order: the_order(refunded.order)?,
        already: refunded.already,
    }))
}
