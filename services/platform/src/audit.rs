//! The staff audit log: every service records each staff action it carries out in its own
//! `staff_action` table (migrations/platform), in the transaction of the action, so an action
//! and its record commit together or not at all. The table refuses UPDATE, DELETE and TRUNCATE.
//! Each service serves its log through `kid.staff.v1.StaffAuditService`; the console merges the
//! four.

use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::auth::{self, StaffActor, StaffRole};
use kid_contracts::staff::v1::{
    ListStaffActionsRequest, ListStaffActionsResponse, RecordStaffActionRequest, RecordStaffActionResponse,
    StaffAction, staff_audit_service_server::StaffAuditService,
};

/// The most rows one listing returns.
pub const MAX_LIST: u32 = 5_000;

/// One recorded action.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub id: Uuid,
    pub staff_id: Uuid,
    pub staff_username: String,
    pub staff_role: String,
    pub ip: String,
    pub action: String,
    pub subject: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
    pub occurred_at: OffsetDateTime,
}

/// Records that `staff` did `action` to `subject`, with the state before and after, on the
/// caller's connection (its transaction).
pub async fn record(
    conn: &mut PgConnection,
    staff: &StaffActor,
    action: &str,
    subject: &str,
    before: Option<&Value>,
    after: Option<&Value>,
) -> sqlx::Result<Recorded> {
    sqlx::query_as!(
        Recorded,
        "insert into staff_action (id, staff_id, staff_username, staff_role, ip, action, subject, before, after)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         returning id, staff_id, staff_username, staff_role, ip, action, subject, before, after, occurred_at",
        Uuid::now_v7(),
        staff.id,
        staff.username,
        staff.role.as_str(),
        staff.ip,
        action,
        subject,
        before,
        after,
    )
    .fetch_one(conn)
    .await
}

/// Where a page of the log starts: after the action at `at` with id `id` (newest first), or
/// before `at` when no id is given.
#[derive(Debug, Clone, Copy)]
pub struct Position {
    pub at: OffsetDateTime,
    pub id: Option<Uuid>,
}

/// The newest actions first (by time, then id), after `before` when given, about `subject`
/// when given.
pub async fn list(
    pool: &PgPool,
    limit: u32,
    before: Option<Position>,
    subject: Option<&str>,
) -> sqlx::Result<Vec<Recorded>> {
    sqlx::query_as!(
        Recorded,
        "select id, staff_id, staff_username, staff_role, ip, action, subject, before, after, occurred_at
         from staff_action
         where ($1::timestamptz is null
                or occurred_at < $1
                or (occurred_at = $1 and $4::uuid is not null and id < $4))
           and ($2::text is null or subject = $2)
         order by occurred_at desc, id desc
         limit $3",
        before.map(|position| position.at),
        subject,
        i64::from(limit.min(MAX_LIST)),
        before.and_then(|position| position.id),
    )
    .fetch_all(pool)
    .await
}

/// Actions carried out outside any service's database that a service records for the gateway
/// (identity does): each with the roles that may do it.
const RECORDED_FOR_THE_GATEWAY: &[(&str, &[StaffRole])] = &[
    ("staff.sign_out", &StaffRole::ALL),
    ("player.sessions_revoke", &[StaffRole::Support]),
];

impl Recorded {
    fn into_proto(self, service: &str) -> StaffAction {
        let json = |value: Option<Value>| value.map(|value| value.to_string()).unwrap_or_default();
        StaffAction {
            id: self.id.to_string(),
            staff_id: self.staff_id.to_string(),
            staff_username: self.staff_username,
            staff_role: self.staff_role,
            ip: self.ip,
            action: self.action,
            subject: self.subject,
            before_json: json(self.before),
            after_json: json(self.after),
            occurred_at: Some(crate::grpc::timestamp(self.occurred_at)),
            service: service.to_owned(),
        }
    }
}

/// `kid.staff.v1.StaffAuditService` over one service's log.
pub struct AuditLog {
    pool: PgPool,
    service: &'static str,
}

impl AuditLog {
    pub fn new(pool: PgPool, service: &'static str) -> Self {
        Self { pool, service }
    }
}

fn json_field(field: &str, text: &str) -> Result<Option<Value>, Status> {
    if text.is_empty() {
        return Ok(None);
    }
    serde_json::from_str(text)
        .map(Some)
        .map_err(|_| Status::invalid_argument(format!("{field} is not JSON")))
}

#[tonic::async_trait]
impl StaffAuditService for AuditLog {
    async fn list_staff_actions(
        &self,
        request: Request<ListStaffActionsRequest>,
    ) -> Result<Response<ListStaffActionsResponse>, Status> {
        auth::staff_actor(&request, "ListStaffActions", &StaffRole::ALL)?;
        let request = request.into_inner();
        let before = request
            .before
            .map(|at| {
                OffsetDateTime::from_unix_timestamp_nanos(
                    i128::from(at.seconds) * 1_000_000_000 + i128::from(at.nanos),
                )
            })
            .transpose()
            .map_err(|_| Status::invalid_argument("before is out of range"))?;
        let before_id = Some(request.before_id.as_str())
            .filter(|id| !id.is_empty())
            .map(Uuid::parse_str)
            .transpose()
            .map_err(|_| Status::invalid_argument("before_id is not a UUID"))?;
        let before = before.map(|at| Position { at, id: before_id });
        let subject = Some(request.subject.as_str()).filter(|subject| !subject.is_empty());
        let limit = if request.limit == 0 { 100 } else { request.limit };
        let actions = list(&self.pool, limit, before, subject)
            .await
            .map_err(|error| crate::grpc::internal("staff audit log", &error))?
            .into_iter()
            .map(|recorded| recorded.into_proto(self.service))
            .collect();
        Ok(Response::new(ListStaffActionsResponse { actions }))
    }

    async fn record_staff_action(
        &self,
        request: Request<RecordStaffActionRequest>,
    ) -> Result<Response<RecordStaffActionResponse>, Status> {
        let roles = RECORDED_FOR_THE_GATEWAY
            .iter()
            .find(|(action, _)| *action == request.get_ref().action)
            .map(|(_, roles)| *roles)
            .ok_or_else(|| Status::invalid_argument("not an action recorded for the gateway"))?;
        let staff = auth::staff_actor(&request, "RecordStaffAction", roles)?;
        let request = request.into_inner();
        if request.subject.is_empty() {
            return Err(Status::invalid_argument("subject is empty"));
        }
        let before = json_field("before_json", &request.before_json)?;
        let after = json_field("after_json", &request.after_json)?;
        let mut conn = self
            .pool
            .acquire()
            .await
            .map_err(|error| crate::grpc::internal("staff audit log", &error))?;
        let recorded = record(
            &mut conn,
            &staff,
            &request.action,
            &request.subject,
            before.as_ref(),
            after.as_ref(),
        )
        .await
        .map_err(|error| crate::grpc::internal("staff audit log", &error))?;
        Ok(Response::new(RecordStaffActionResponse {
            recorded: Some(recorded.into_proto(self.service)),
        }))
    }
}
