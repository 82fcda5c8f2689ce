//! The tonic service: requests are parsed into domain values, errors mapped once in `error`.

mod error;

use kid_proto::identity::v1::{
    GetUserRequest, GetUserResponse, User, identity_service_server::IdentityService,
};
use sqlx::PgPool;
use time::{OffsetDateTime, macros::format_description};
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::db::{self, UserRow};
pub use error::Error;

pub struct Identity {
    pool: PgPool,
}

impl Identity {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

fn parse_user_id(value: &str) -> Result<Uuid, Error> {
    Uuid::parse_str(value).map_err(|_| Error::InvalidUserId)
}

fn timestamp(at: OffsetDateTime) -> prost_types::Timestamp {
    prost_types::Timestamp {
        seconds: at.unix_timestamp(),
        nanos: at.nanosecond() as i32,
    }
}

impl From<UserRow> for User {
    fn from(row: UserRow) -> Self {
        let dob = row
            .dob
            .format(format_description!("[year]-[month]-[day]"))
            .unwrap_or_default();
        Self {
            id: row.id.to_string(),
            username: row.username,
            email: row.email,
            verified_at: row.verified_at.map(timestamp),
            first_name: row.first_name,
            middle_name: row.middle_name,
            last_name: row.last_name,
            dob,
            language: row.language,
            phone_number: row.phone_number,
            created_at: Some(timestamp(row.created_at)),
            password_changed_at: row.password_changed_at.map(timestamp),
            mfa_enabled: row.mfa_enabled,
        }
    }
}

#[tonic::async_trait]
impl IdentityService for Identity {
    async fn get_user(&self, request: Request<GetUserRequest>) -> Result<Response<GetUserResponse>, Status> {
        let id = parse_user_id(&request.get_ref().user_id)?;
        let user = db::find_user(&self.pool, id)
            .await
            .map_err(Error::from)?
            .ok_or(Error::UserNotFound)?;
        Ok(Response::new(GetUserResponse {
            user: Some(user.into()),
        }))
    }
}
