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
pub(super) use crate::api::personal_data::OrderBody;
use crate::{
    error::{ApiError, ApiResult, ValidJson},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(resend))
        .routes(routes!(refund))
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
