//! The staff audit log, read from every service's own log and merged, newest first; as JSON
//! pages for the console and as a CSV download.

use axum::{Json, extract::State, response::Response};
use futures::future::try_join_all;
use kid_contracts::staff::v1::{ListStaffActionsRequest, StaffAction};
use serde::{Deserialize, Serialize};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::SignedInStaff;
use crate::{
    api::{
        me::rfc3339,
        transactions::{csv_download, today_in_vietnam},
    },
    error::{ApiError, ApiResult, ValidQuery},
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list)).routes(routes!(export))
}

/// The most rows a CSV download holds.
const EXPORT_LIMIT: u32 = 5_000;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Only actions before this time (RFC 3339): the `occurredAt` of the last row of the
    /// previous page.
    before: Option<String>,
    /// With `before`, the `id` of that last row: actions of the same instant (one transaction
    /// records several) after it in the log's order come next, none skipped or repeated.
    #[serde(rename = "beforeId")]
    #[param(rename = "beforeId")]
    before_id: Option<String>,
    /// Only actions about this subject, e.g. `player:<id>`, `transfer:<id>`.
    subject: Option<String>,
    /// At most this many rows (1 to 200; 50 when absent).
    limit: Option<u32>,
}

/// One staff action. `before` and `after` are the state it changed, as JSON.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffActionBody {
    id: String,
    #[schema(required = true)]
    occurred_at: Option<String>,
    staff_id: String,
    staff_username: String,
    staff_role: String,
    ip: String,
    action: String,
    subject: String,
    /// Null when there was nothing before (a creation).
    #[schema(value_type = Option<Object>, required = true)]
    before: Option<serde_json::Value>,
    /// Null when nothing is left after.
    #[schema(value_type = Option<Object>, required = true)]
    after: Option<serde_json::Value>,
    /// The service that carried it out.
    service: String,
}

impl From<StaffAction> for StaffActionBody {
    fn from(action: StaffAction) -> Self {
        let json = |text: &str| serde_json::from_str(text).ok();
        Self {
            before: json(&action.before_json),
            after: json(&action.after_json),
            id: action.id,
            occurred_at: rfc3339(action.occurred_at),
            staff_id: action.staff_id,
            staff_username: action.staff_username,
            staff_role: action.staff_role,
            ip: action.ip,
            action: action.action,
            subject: action.subject,
            service: action.service,
        }
    }
}

/// Every service's newest `limit` actions matching `query`, merged: the newest `limit` of all.
async fn merged(
    state: &AppState,
    staff: &SignedInStaff,
    query: &AuditQuery,
    limit: u32,
) -> ApiResult<Vec<StaffAction>> {
    let before = match query.before.as_deref().filter(|before| !before.is_empty()) {
        Some(text) => Some(
            OffsetDateTime::parse(text, &Rfc3339)
                .map_err(|_| ApiError::BadRequest("before is not an RFC 3339 time".into()))?,
        ),
        None => None,
    };
    let before_id = query.before_id.clone().unwrap_or_default();
    if !before_id.is_empty() && uuid::Uuid::parse_str(&before_id).is_err() {
        return Err(ApiError::BadRequest("beforeId is not an id".into()));
    }
    let request = ListStaffActionsRequest {
        limit,
        before: before.map(kid_platform::grpc::timestamp),
        subject: query.subject.clone().unwrap_or_default(),
        before_id,
    };
    let calls = state.clients.audits.iter().map(|(_, client)| {
        let mut client = client.clone();
        let request = staff.acting(request.clone());
        async move { client.list_staff_actions(request).await }
    });
    let mut actions: Vec<StaffAction> = try_join_all(calls)
        .await?
        .into_iter()
        .flat_map(|answer| answer.into_inner().actions)
        .collect();
    let at = |action: &StaffAction| {
        action
            .occurred_at
            .as_ref()
            .map_or((0, 0), |at| (at.seconds, at.nanos))
    };
    actions.sort_by(|a, b| at(b).cmp(&at(a)).then_with(|| b.id.cmp(&a.id)));
    actions.truncate(limit as usize);
    Ok(actions)
}

/// The staff audit log, newest first (every role may read it).
#[utoipa::path(
    get,
    path = "/staff/audit",
    operation_id = "staff_audit_list",
    params(AuditQuery),
    security(("staff-session" = [])),
    responses((status = 200, description = "Staff actions, newest first.", body = Vec<StaffActionBody>))
)]
async fn list(
    State(state): State<AppState>,
    staff: SignedInStaff,
    ValidQuery(query): ValidQuery<AuditQuery>,
) -> ApiResult<Json<Vec<StaffActionBody>>> {
    let limit = query.limit.unwrap_or(50).clamp(1, 200);
    let actions = merged(&state, &staff, &query, limit).await?;
    Ok(Json(actions.into_iter().map(StaffActionBody::from).collect()))
}

/// The staff audit log as CSV (the newest 5,000 actions matching the query), for auditors.
#[utoipa::path(
    get,
    path = "/staff/audit.csv",
    operation_id = "staff_audit_export",
    params(AuditQuery),
    security(("staff-session" = [])),
    responses((status = 200, description = "An attachment, `kid-nhat-ky-nhan-vien-<YYYYMMDD>.csv`.", content_type = "text/csv"))
)]
async fn export(
    State(state): State<AppState>,
    staff: SignedInStaff,
    ValidQuery(query): ValidQuery<AuditQuery>,
) -> ApiResult<Response> {
    let actions = merged(&state, &staff, &query, EXPORT_LIMIT).await?;
    let mut writer = csv::Writer::from_writer(Vec::new());
    let failed = |error: csv::Error| ApiError::Internal(format!("writing CSV: {error}"));
    writer
        .write_record([
            "id",
            "occurred_at",
            "staff_id",
            "staff_username",
            "staff_role",
            "ip",
            "action",
            "subject",
            "before",
            "after",
            "service",
        ])
        .map_err(failed)?;
    for action in actions {
        let occurred_at = rfc3339(action.occurred_at).unwrap_or_default();
        writer
            .write_record([
                &action.id,
                &occurred_at,
                &action.staff_id,
                &action.staff_username,
                &action.staff_role,
                &action.ip,
                &action.action,
                &action.subject,
                &action.before_json,
                &action.after_json,
                &action.service,
            ])
            .map_err(failed)?;
    }
    let body = writer
        .into_inner()
        .map_err(|error| ApiError::Internal(format!("writing CSV: {error}")))?;
    Ok(csv_download(
        &format!("kid-nhat-ky-nhan-vien-{}.csv", today_in_vietnam()),
        body,
    ))
}
