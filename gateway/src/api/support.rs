//! The support centre for signed-in players: open a ticket (a category, a subject, what
//! happened, a transaction of their history, an image), read their tickets and the replies,
//! and answer. Identity checks the image by its bytes and keeps it outside the database.

use axum::{
    Json,
    extract::{DefaultBodyLimit, Multipart, Path, State, multipart::MultipartRejection},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use kid_contracts::{
    identity::v1::{
        AddTicketMessageRequest, Attachment, GetAttachmentRequest, GetTicketRequest, ListTicketsRequest,
        OpenTicketRequest, TicketResponse, TicketSummary,
    },
    messages::support::{MSG_ATTACHMENT_SIZE, MSG_TRANSACTION_UNKNOWN},
    wallet::v1::GetTransactionRequest,
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    api::{auth::one_field, me::rfc3339},
    error::{ApiError, ApiResult},
    session::SignedIn,
    state::AppState,
};

/// An image of at most 5 MB and the form's few fields.
const MAX_FORM_BYTES: usize = 5 * 1024 * 1024 + 64 * 1024;
const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, open))
        .routes(routes!(ticket))
        .routes(routes!(answer))
        .routes(routes!(attachment))
        .layer(DefaultBodyLimit::max(MAX_FORM_BYTES))
}

/// A ticket as its list shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketSummaryBody {
    id: String,
    /// `topup_missing`, `coin_missing`, `account` or `other`.
    category: String,
    subject: String,
    transaction_id: String,
    /// `open` (waiting for support), `answered` or `closed`.
    status: String,
    #[schema(required = true)]
    created_at: Option<String>,
    #[schema(required = true)]
    updated_at: Option<String>,
    /// The player's username (the console's lists).
    username: String,
    user_id: String,
}

impl From<TicketSummary> for TicketSummaryBody {
    fn from(ticket: TicketSummary) -> Self {
        Self {
            id: ticket.id,
            category: ticket.category,
            subject: ticket.subject,
            transaction_id: ticket.transaction_id,
            status: ticket.status,
            created_at: rfc3339(ticket.created_at),
            updated_at: rfc3339(ticket.updated_at),
            username: ticket.username,
            user_id: ticket.user_id,
        }
    }
}

/// One message of a ticket's conversation.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketMessageBody {
    id: String,
    /// `player` or `support`: who wrote it. A player sees only this of support's replies.
    author: &'static str,
    /// The staff member who replied: only in the console's answers, never in a player's (a
    /// username there names whom to guess at the console's sign-in).
    #[serde(skip_serializing_if = "Option::is_none")]
    staff_username: Option<String>,
    body: String,
    /// The attached image's id, if any.
    attachment_id: String,
    /// Where the player's session opens the image: only in the download of their data.
    #[serde(skip_serializing_if = "Option::is_none")]
    attachment_url: Option<String>,
    #[schema(required = true)]
    created_at: Option<String>,
}

/// A ticket and its conversation, oldest message first.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketBody {
    ticket: TicketSummaryBody,
    messages: Vec<TicketMessageBody>,
}

impl TryFrom<TicketResponse> for TicketBody {
    type Error = ApiError;

    fn try_from(answer: TicketResponse) -> ApiResult<Self> {
        Ok(Self {
            ticket: answer
                .ticket
                .map(TicketSummaryBody::from)
                .ok_or_else(|| ApiError::Internal("identity answered no ticket".into()))?,
            messages: answer
                .messages
                .into_iter()
                .map(|message| TicketMessageBody {
                    id: message.id,
                    author: if message.staff_username.is_empty() {
                        "player"
                    } else {
                        "support"
                    },
                    staff_username: Some(message.staff_username).filter(|username| !username.is_empty()),
                    body: message.body,
                    attachment_id: message.attachment_id,
                    attachment_url: None,
                    created_at: rfc3339(message.created_at),
                })
                .collect(),
        })
    }
}

impl TicketBody {
    /// The ticket as its player sees it: support's replies without the member's username.
    fn for_player(answer: TicketResponse) -> ApiResult<Self> {
        let mut body = Self::try_from(answer)?;
        for message in &mut body.messages {
            message.staff_username = None;
        }
        Ok(body)
    }
}

/// The player's tickets as identity's export answers them (every one, newest first, each with
/// its conversation), each image as the link their session opens ([`attachment`]'s path): for
/// the download of their data.
pub(super) fn tickets_for_download(answers: Vec<TicketResponse>) -> ApiResult<Vec<TicketBody>> {
    answers
        .into_iter()
        .map(|answer| {
            let mut ticket = TicketBody::for_player(answer)?;
            for message in &mut ticket.messages {
                message.attachment_url = Some(&message.attachment_id)
                    .filter(|id| !id.is_empty())
                    .map(|id| format!("/api/support/attachments/{id}"));
            }
            Ok(ticket)
        })
        .collect()
}

/// The form of a new ticket (multipart/form-data); its field names are the JSON bodies' camelCase.
#[derive(Debug, Default, ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct TicketForm {
    /// `topup_missing`, `coin_missing`, `account` or `other`.
    category: String,
    subject: String,
    body: String,
    /// A transaction of the player's history (its id), optional.
    transaction_id: Option<String>,
    /// A PNG, JPEG or WebP image of at most 5 MB, optional.
    #[schema(value_type = Option<String>, format = Binary)]
    attachment: Option<Vec<u8>>,
}

/// The form of an answer on a ticket (multipart/form-data).
#[derive(Debug, Default, ToSchema)]
#[allow(dead_code)]
pub struct AnswerForm {
    body: String,
    #[schema(value_type = Option<String>, format = Binary)]
    attachment: Option<Vec<u8>>,
}

/// The fields a ticket's form sent.
#[derive(Default)]
struct Fields {
    category: String,
    subject: String,
    body: String,
    transaction_id: String,
    attachment: Option<Vec<u8>>,
}

/// Reads the form; an image over 5 MB is refused on `attachment` before it is read whole. A
/// body that is no multipart form is the API's JSON 400.
async fn fields(form: Result<Multipart, MultipartRejection>) -> ApiResult<Fields> {
    let mut form = form.map_err(|rejection| ApiError::BadRequest(format!("form: {rejection}")))?;
    let mut fields = Fields::default();
    while let Some(mut field) = form
        .next_field()
        .await
        .map_err(|error| ApiError::BadRequest(format!("form: {error}")))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "attachment" {
            let mut bytes = Vec::new();
            while let Some(chunk) = field
                .chunk()
                .await
                .map_err(|error| ApiError::BadRequest(format!("form: {error}")))?
            {
                if bytes.len() + chunk.len() > MAX_IMAGE_BYTES {
                    return Err(one_field("attachment", MSG_ATTACHMENT_SIZE));
                }
                bytes.extend_from_slice(&chunk);
            }
            fields.attachment = Some(bytes).filter(|bytes| !bytes.is_empty());
            continue;
        }
        let text = field
            .text()
            .await
            .map_err(|error| ApiError::BadRequest(format!("form: {error}")))?;
        if text.contains('\0') {
            return Err(ApiError::BadRequest("form: a field holds a NUL character".into()));
        }
        match name.as_str() {
            "category" => fields.category = text,
            "subject" => fields.subject = text,
            "body" => fields.body = text,
            "transactionId" => fields.transaction_id = text.trim().to_owned(),
            _ => {}
        }
    }
    Ok(fields)
}

/// The player's tickets, the most recently active first.
#[utoipa::path(
    get,
    path = "/support/tickets",
    operation_id = "support_list",
    security(("session" = [])),
    responses((status = 200, description = "The player's tickets.", body = Vec<TicketSummaryBody>))
)]
async fn list(State(state): State<AppState>, signed_in: SignedIn) -> ApiResult<Json<Vec<TicketSummaryBody>>> {
    let tickets = state
        .identity()
        .list_tickets(ListTicketsRequest {
            user_id: signed_in.user_id,
            status: String::new(),
        })
        .await?
        .into_inner()
        .tickets;
    Ok(Json(tickets.into_iter().map(Into::into).collect()))
}

/// Opens a ticket (multipart/form-data): 422 per field, the image checked by its bytes.
#[utoipa::path(
    post,
    path = "/support/tickets",
    operation_id = "support_open",
    request_body(content = TicketForm, content_type = "multipart/form-data"),
    security(("session" = [])),
    responses((status = 201, description = "Opened.", body = TicketBody))
)]
async fn open(
    State(state): State<AppState>,
    signed_in: SignedIn,
    form: Result<Multipart, MultipartRejection>,
) -> ApiResult<Response> {
    let fields = fields(form).await?;
    if !fields.transaction_id.is_empty() {
        let found = state
            .wallet()
            .get_transaction(GetTransactionRequest {
                user_id: signed_in.user_id.clone(),
                id: fields.transaction_id.clone(),
            })
            .await;
        match found {
            Ok(_) => {}
            Err(status)
                if matches!(
                    status.code(),
                    tonic::Code::NotFound | tonic::Code::InvalidArgument
                ) =>
            {
                return Err(one_field("transactionId", MSG_TRANSACTION_UNKNOWN));
            }
            Err(status) => return Err(status.into()),
        }
    }
    let answer = state
        .identity()
        .open_ticket(OpenTicketRequest {
            user_id: signed_in.user_id,
            category: fields.category,
            subject: fields.subject,
            body: fields.body,
            transaction_id: fields.transaction_id,
            attachment: fields.attachment.map(|content| Attachment { content }),
        })
        .await?
        .into_inner();
    Ok((StatusCode::CREATED, Json(TicketBody::for_player(answer)?)).into_response())
}

/// One of the player's tickets with its conversation (another player's is 404).
#[utoipa::path(
    get,
    path = "/support/tickets/{id}",
    operation_id = "support_ticket",
    params(("id" = String, Path, description = "The ticket's id.")),
    security(("session" = [])),
    responses((status = 200, description = "The ticket.", body = TicketBody))
)]
async fn ticket(
    State(state): State<AppState>,
    signed_in: SignedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<TicketBody>> {
    let answer = state
        .identity()
        .get_ticket(GetTicketRequest {
            user_id: signed_in.user_id,
            ticket_id: id,
        })
        .await
        .map_err(not_found_on_bad_id)?
        .into_inner();
    Ok(Json(TicketBody::for_player(answer)?))
}

/// A malformed id names no ticket: the same 404 as another player's.
fn not_found_on_bad_id(status: tonic::Status) -> ApiError {
    if status.code() == tonic::Code::InvalidArgument && status.message().ends_with("is not a UUID") {
        ApiError::NotFound(kid_contracts::messages::support::MSG_TICKET_NOT_FOUND.into())
    } else {
        status.into()
    }
}

/// The player answers on their ticket (multipart/form-data), which waits for support again.
#[utoipa::path(
    post,
    path = "/support/tickets/{id}/messages",
    operation_id = "support_answer",
    params(("id" = String, Path, description = "The ticket's id.")),
    request_body(content = AnswerForm, content_type = "multipart/form-data"),
    security(("session" = [])),
    responses((status = 200, description = "The ticket with the answer.", body = TicketBody))
)]
async fn answer(
    State(state): State<AppState>,
    signed_in: SignedIn,
    Path(id): Path<String>,
    form: Result<Multipart, MultipartRejection>,
) -> ApiResult<Json<TicketBody>> {
    let fields = fields(form).await?;
    let answer = state
        .identity()
        .add_ticket_message(AddTicketMessageRequest {
            user_id: signed_in.user_id,
            ticket_id: id,
            body: fields.body,
            attachment: fields.attachment.map(|content| Attachment { content }),
        })
        .await
        .map_err(not_found_on_bad_id)?
        .into_inner();
    Ok(Json(TicketBody::for_player(answer)?))
}

/// An image as served back: its checked type, never sniffed, never run.
pub(super) fn image(content_type: String, content: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_DISPOSITION, "inline".to_owned()),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_owned()),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; sandbox".to_owned(),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        content,
    )
        .into_response()
}

/// An image the player attached to one of their tickets.
#[utoipa::path(
    get,
    path = "/support/attachments/{id}",
    operation_id = "support_attachment",
    params(("id" = String, Path, description = "The attachment's id.")),
    security(("session" = [])),
    responses((status = 200, description = "The image.", content_type = "image/*"))
)]
async fn attachment(
    State(state): State<AppState>,
    signed_in: SignedIn,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let found = state
        .identity()
        .get_attachment(GetAttachmentRequest {
            user_id: signed_in.user_id,
            attachment_id: id,
        })
        .await
        .map_err(not_found_on_bad_id)?
        .into_inner();
    Ok(image(found.content_type, found.content))
}
