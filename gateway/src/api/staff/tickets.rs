//! Support tickets in the console: every ticket (every role), one with its conversation and
//! images, and replying (support), which mails the player.

use axum::{
    Json,
    extract::{Path, State},
    response::Response,
};
use kid_contracts::identity::v1::{
    GetAttachmentRequest, GetTicketRequest, ListTicketsRequest, ReplyTicketRequest,
};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::SignedInStaff;
use crate::{
    api::support::{TicketBody, TicketSummaryBody, image},
    error::{ApiResult, ValidJson, ValidQuery},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(ticket))
        .routes(routes!(reply))
        .routes(routes!(attachment))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TicketsQuery {
    /// `open`, `answered` or `closed`; every status when absent.
    status: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReplyBody {
    #[serde(default)]
    body: String,
    /// Close the ticket with this reply.
    #[serde(default)]
    close: bool,
}

/// Every player's tickets, the most recently active first.
#[utoipa::path(
    get,
    path = "/staff/tickets",
    operation_id = "staff_tickets_list",
    params(TicketsQuery),
    security(("staff-session" = [])),
    responses((status = 200, description = "Tickets.", body = Vec<TicketSummaryBody>))
)]
async fn list(
    State(state): State<AppState>,
    staff: SignedInStaff,
    ValidQuery(query): ValidQuery<TicketsQuery>,
) -> ApiResult<Json<Vec<TicketSummaryBody>>> {
    let tickets = state
        .identity()
        .list_tickets(staff.acting(ListTicketsRequest {
            user_id: String::new(),
            status: query.status.unwrap_or_default(),
        }))
        .await?
        .into_inner()
        .tickets;
    Ok(Json(tickets.into_iter().map(Into::into).collect()))
}

/// A ticket with its conversation.
#[utoipa::path(
    get,
    path = "/staff/tickets/{id}",
    operation_id = "staff_tickets_get",
    params(("id" = String, Path, description = "The ticket's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "The ticket.", body = TicketBody))
)]
async fn ticket(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Json<TicketBody>> {
    let answer = state
        .identity()
        .get_ticket(staff.acting(GetTicketRequest {
            user_id: String::new(),
            ticket_id: id,
        }))
        .await?
        .into_inner();
    Ok(Json(answer.try_into()?))
}

/// Replies on a ticket (support), closing it when asked; the player is mailed.
#[utoipa::path(
    post,
    path = "/staff/tickets/{id}/reply",
    operation_id = "staff_tickets_reply",
    params(("id" = String, Path, description = "The ticket's id.")),
    request_body = ReplyBody,
    security(("staff-session" = [])),
    responses((status = 200, description = "The ticket with the reply.", body = TicketBody))
)]
async fn reply(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<ReplyBody>,
) -> ApiResult<Json<TicketBody>> {
    let answer = state
        .identity()
        .reply_ticket(staff.acting(ReplyTicketRequest {
            ticket_id: id,
            body: body.body,
            close: body.close,
        }))
        .await?
        .into_inner();
    Ok(Json(answer.try_into()?))
}

/// An image a player attached.
#[utoipa::path(
    get,
    path = "/staff/attachments/{id}",
    operation_id = "staff_attachments_get",
    params(("id" = String, Path, description = "The attachment's id.")),
    security(("staff-session" = [])),
    responses((status = 200, description = "The image.", content_type = "image/*"))
)]
async fn attachment(
    State(state): State<AppState>,
    staff: SignedInStaff,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let found = state
        .identity()
        .get_attachment(staff.acting(GetAttachmentRequest {
            user_id: String::new(),
            attachment_id: id,
        }))
        .await?
        .into_inner();
    Ok(image(found.content_type, found.content))
}
