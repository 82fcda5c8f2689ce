//! The tonic service: requests are parsed into domain values, errors mapped once in `error`.

mod error;

use kid_proto::identity::v1::{
    AuthenticateRequest, AuthenticateResponse, ChangeEmailRequest, ChangeEmailResponse,
    ChangePasswordRequest, ChangePasswordResponse, CheckResetTokenRequest, CheckResetTokenResponse,
    GetUserRequest, GetUserResponse, RecoverUsernameRequest, RecoverUsernameResponse, RegisterRequest,
    RegisterResponse, ResetPasswordRequest, ResetPasswordResponse, SecurityCodeAction, SendResetEmailRequest,
    SendResetEmailResponse, SendSecurityCodeRequest, SendSecurityCodeResponse, SendVerificationRequest,
    SendVerificationResponse, UpdateProfileRequest, UpdateProfileResponse, User, VerifyEmailRequest,
    VerifyEmailResponse, identity_service_server::IdentityService,
};
use sqlx::PgPool;
use time::{OffsetDateTime, macros::format_description};
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    account,
    db::{self, InsertError, NewUser, Taken, UserRow},
    domain::{Dob, Email, FieldErrors, Password, PasswordHasher, ProfileChange, Strength, Username},
    recovery,
    security_code::{self, Action},
    verification,
};
pub use error::Error;

const MSG_USERNAME_TAKEN: &str = "Tên đăng nhập này đã có người sử dụng.";

pub struct Identity {
    pool: PgPool,
    hasher: PasswordHasher,
    /// The portal's origin, from configuration (never a request's Host), for links in mail.
    public_url: String,
}

impl Identity {
    pub fn new(pool: PgPool, hasher: PasswordHasher, public_url: String) -> Self {
        Self {
            pool,
            hasher,
            public_url,
        }
    }

    async fn register(&self, request: &RegisterRequest) -> Result<UserRow, Error> {
        let mut errors = FieldErrors::default();
        let email = errors.take("email", Email::parse(&request.email));
        let dob = errors.take("dob", Dob::parse(&request.dob, OffsetDateTime::now_utc().date()));
        let username = errors.take("username", Username::parse(&request.username));
        let password = errors.take("password", Password::parse(&request.password, Strength::Medium));
        errors.take(
            "passwordConfirm",
            Password::confirm(&request.password_confirm, &request.password),
        );
        // The username is the sign-in handle a player must pick anew, so it is told; whether
        // the address has an account is not (its owner is mailed instead, below).
        if let Some(username) = &username
            && db::username_taken(&self.pool, username.as_str()).await?
        {
            record_taken(&mut errors, &Taken::Username);
        }
        let (Some(email), Some(dob), Some(username), Some(password), true) =
            (email, dob, username, password, errors.is_empty())
        else {
            return Err(Error::Validation(errors));
        };
        let password_hash = self.hasher.hash(&password).await?;
        let new_user = NewUser {
            id: Uuid::now_v7(),
            username: username.as_str(),
            email: email.as_str(),
            password_hash: &password_hash,
            dob: dob.date(),
            receive_newsletter: request.receive_newsletter,
        };
        match db::insert_user(&self.pool, &new_user).await {
            Ok(row) => {
                tracing::info!(user_id = %row.id, "account registered");
                account::tell_address_owner(&self.pool, row.id, &row.email).await?;
                Ok(row)
            }
            // Someone took the name between the check and the insert.
            Err(InsertError::Taken(field)) => {
                let mut errors = FieldErrors::default();
                record_taken(&mut errors, &field);
                Err(Error::Validation(errors))
            }
            Err(InsertError::Database(error)) => Err(error.into()),
        }
    }

    async fn authenticate(&self, request: &AuthenticateRequest) -> Result<UserRow, Error> {
        let username = Username::normalise_for_lookup(&request.username);
        let credentials = db::credentials(&self.pool, &username).await?;
        let stored = credentials.as_ref().map(|(_, hash)| hash.as_str());
        let matches = self.hasher.verify(&request.password, stored).await?;
        match credentials {
            Some((id, _)) if matches => {
                tracing::info!(user_id = %id, client_ip = %request.client_ip, outcome = "success", "sign-in attempt");
                db::find_user(&self.pool, id).await?.ok_or(Error::UserNotFound)
            }
            _ => {
                tracing::info!(client_ip = %request.client_ip, outcome = "failure", "sign-in attempt");
                Err(Error::InvalidCredentials)
            }
        }
    }
}

fn record_taken(errors: &mut FieldErrors, field: &Taken) {
    match field {
        Taken::Username => errors.add("username", MSG_USERNAME_TAKEN),
    }
}

fn parse_user_id(value: &str) -> Result<Uuid, Error> {
    Uuid::parse_str(value).map_err(|_| Error::InvalidUserId)
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
            verified_at: row.verified_at.map(kid_platform::grpc::timestamp),
            first_name: row.first_name,
            middle_name: row.middle_name,
            last_name: row.last_name,
            dob,
            language: row.language,
            phone_number: row.phone_number,
            created_at: Some(kid_platform::grpc::timestamp(row.created_at)),
            password_changed_at: row.password_changed_at.map(kid_platform::grpc::timestamp),
            mfa_enabled: row.mfa_enabled,
        }
    }
}

#[tonic::async_trait]
impl IdentityService for Identity {
    async fn register(
        &self,
        request: Request<RegisterRequest>,
    ) -> Result<Response<RegisterResponse>, Status> {
        let user = Identity::register(self, request.get_ref()).await?;
        Ok(Response::new(RegisterResponse {
            user: Some(user.into()),
        }))
    }

    async fn authenticate(
        &self,
        request: Request<AuthenticateRequest>,
    ) -> Result<Response<AuthenticateResponse>, Status> {
        let user = Identity::authenticate(self, request.get_ref()).await?;
        Ok(Response::new(AuthenticateResponse {
            user: Some(user.into()),
        }))
    }

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

    async fn update_profile(
        &self,
        request: Request<UpdateProfileRequest>,
    ) -> Result<Response<UpdateProfileResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let change = ProfileChange::parse(
            request.first_name.as_deref(),
            request.middle_name.as_deref(),
            request.last_name.as_deref(),
            request.language.as_deref(),
            request.phone_number.as_deref(),
        )
        .map_err(Error::Validation)?;
        let user = account::update_profile(&self.pool, id, &change).await?;
        Ok(Response::new(UpdateProfileResponse {
            user: Some(user.into()),
        }))
    }

    async fn change_password(
        &self,
        request: Request<ChangePasswordRequest>,
    ) -> Result<Response<ChangePasswordResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        account::change_password(
            &self.pool,
            &self.hasher,
            id,
            &request.current_password,
            &request.password,
            &request.password_confirm,
        )
        .await?;
        Ok(Response::new(ChangePasswordResponse {}))
    }

    async fn send_security_code(
        &self,
        request: Request<SendSecurityCodeRequest>,
    ) -> Result<Response<SendSecurityCodeResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let action = match request.action() {
            SecurityCodeAction::ConfirmEmail => Action::ConfirmEmail,
            SecurityCodeAction::ConfirmPhoneNumber => Action::ConfirmPhoneNumber,
            SecurityCodeAction::ConfirmPayment => Action::ConfirmPayment,
            SecurityCodeAction::ConfirmChangePassword => Action::ConfirmChangePassword,
            SecurityCodeAction::ConfirmChangeEmail => Action::ConfirmChangeEmail,
            SecurityCodeAction::ApproveLogin => Action::ApproveLogin,
            SecurityCodeAction::Unspecified => {
                return Err(Status::invalid_argument("action is required"));
            }
        };
        security_code::send(&self.pool, id, action).await?;
        Ok(Response::new(SendSecurityCodeResponse {}))
    }

    async fn change_email(
        &self,
        request: Request<ChangeEmailRequest>,
    ) -> Result<Response<ChangeEmailResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let user = account::change_email(
            &self.pool,
            &self.hasher,
            id,
            &request.email,
            &request.security_code,
            &request.current_password,
        )
        .await?;
        Ok(Response::new(ChangeEmailResponse {
            user: Some(user.into()),
        }))
    }

    async fn send_verification(
        &self,
        request: Request<SendVerificationRequest>,
    ) -> Result<Response<SendVerificationResponse>, Status> {
        let id = parse_user_id(&request.get_ref().user_id)?;
        verification::send(&self.pool, &self.public_url, id).await?;
        Ok(Response::new(SendVerificationResponse {}))
    }

    async fn verify_email(
        &self,
        request: Request<VerifyEmailRequest>,
    ) -> Result<Response<VerifyEmailResponse>, Status> {
        let user_id = verification::verify(&self.pool, &request.get_ref().token).await?;
        Ok(Response::new(VerifyEmailResponse {
            user_id: user_id.to_string(),
        }))
    }

    async fn send_reset_email(
        &self,
        request: Request<SendResetEmailRequest>,
    ) -> Result<Response<SendResetEmailResponse>, Status> {
        let request = request.get_ref();
        tracing::info!(client_ip = %request.client_ip, "password reset asked");
        recovery::send_reset(&self.pool, &self.public_url, &request.username).await?;
        Ok(Response::new(SendResetEmailResponse {}))
    }

    async fn check_reset_token(
        &self,
        request: Request<CheckResetTokenRequest>,
    ) -> Result<Response<CheckResetTokenResponse>, Status> {
        let valid = recovery::check_reset(&self.pool, &request.get_ref().token).await?;
        Ok(Response::new(CheckResetTokenResponse { valid }))
    }

    async fn reset_password(
        &self,
        request: Request<ResetPasswordRequest>,
    ) -> Result<Response<ResetPasswordResponse>, Status> {
        let request = request.get_ref();
        let user_id = recovery::reset(
            &self.pool,
            &self.hasher,
            &request.token,
            &request.password,
            &request.password_confirm,
        )
        .await?;
        Ok(Response::new(ResetPasswordResponse {
            user_id: user_id.to_string(),
        }))
    }

    async fn recover_username(
        &self,
        request: Request<RecoverUsernameRequest>,
    ) -> Result<Response<RecoverUsernameResponse>, Status> {
        let request = request.get_ref();
        tracing::info!(client_ip = %request.client_ip, "username reminder asked");
        recovery::recover_username(&self.pool, &request.email).await?;
        Ok(Response::new(RecoverUsernameResponse {}))
    }
}
