//! The tonic service: requests are parsed into domain values, errors mapped once in `error`.

mod error;

use kid_contracts::identity::v1::{
    AddTicketMessageRequest, GetAttachmentRequest, GetAttachmentResponse, GetTicketRequest,
    ListTicketsRequest, ListTicketsResponse, OpenTicketRequest, ReplyTicketRequest, TicketMessage,
    TicketResponse, TicketSummary,
};
use kid_contracts::identity::v1::{
    AuthenticateRequest, AuthenticateResponse, ChangeEmailRequest, ChangeEmailResponse,
    ChangePasswordRequest, ChangePasswordResponse, CheckResetTokenRequest, CheckResetTokenResponse,
    GetUserRequest, GetUserResponse, RecoverUsernameRequest, RecoverUsernameResponse, RegisterRequest,
    RegisterResponse, ResetPasswordRequest, ResetPasswordResponse, SecurityCodeAction, SendResetEmailRequest,
    SendResetEmailResponse, SendSecurityCodeRequest, SendSecurityCodeResponse, SendVerificationRequest,
    SendVerificationResponse, UpdateProfileRequest, UpdateProfileResponse, User, VerifyEmailRequest,
    VerifyEmailResponse, identity_service_server::IdentityService,
};
use kid_contracts::identity::v1::{
    CloseAccountRequest, CloseAccountResponse, ExportAccountRequest, ExportAccountResponse, SentMail,
};
use kid_contracts::identity::v1::{
    CompleteStaffEnrolmentRequest, CompleteStaffEnrolmentResponse, CreateStaffRequest, CreateStaffResponse,
    GetStaffEnrolmentRequest, GetStaffEnrolmentResponse, GetStaffRequest, GetStaffResponse, ListStaffRequest,
    ListStaffResponse, ResetStaffCredentialsRequest, ResetStaffCredentialsResponse, StaffMember,
    StaffReauthenticateRequest, StaffReauthenticateResponse, StaffSignInRequest, StaffSignInResponse,
    UpdateStaffRequest, UpdateStaffResponse,
};
use kid_contracts::identity::v1::{
    ConfirmTotpRequest, ConfirmTotpResponse, DisableTotpRequest, DisableTotpResponse, ListSignInsRequest,
    ListSignInsResponse, SignIn, SignInContext, StartTotpRequest, StartTotpResponse,
    UseEndSessionLinkRequest, UseEndSessionLinkResponse, VerifySecondFactorRequest,
    VerifySecondFactorResponse,
};
use kid_contracts::identity::v1::{
    FindPlayersRequest, FindPlayersResponse, FoundPlayer, SetAccountLockRequest, SetAccountLockResponse,
};
use kid_contracts::identity::v1::{
    FinishPasskeyRegistrationRequest, FinishPasskeyRegistrationResponse, FinishPasskeySignInRequest,
    FinishPasskeySignInResponse, ListPasskeysRequest, ListPasskeysResponse, Passkey, RemovePasskeyRequest,
    RemovePasskeyResponse, StartPasskeyRegistrationRequest, StartPasskeyRegistrationResponse,
    StartPasskeySignInRequest, StartPasskeySignInResponse,
};
use kid_platform::auth::{self, StaffRole};
use sqlx::PgPool;
use time::macros::format_description;
use tonic::{Request, Response, Status};
use uuid::Uuid;
use webauthn_rs::Webauthn;

use crate::{
    app::{
        Error, account, closure, console, export, passkeys, recovery,
        registration::{self, Registration},
        security_code::{self, Action},
        sign_ins::{self, Attempt, Method},
        staff, tickets, two_factor, verification,
    },
    db::{self, UserRow, passkeys::PasskeyRow, sign_ins::SignInRow},
    domain::{PasswordHasher, ProfileChange, device},
};

pub struct Identity {
    pool: PgPool,
    hasher: PasswordHasher,
    seal: two_factor::SecretSeal,
    webauthn: Webauthn,
    /// The portal's origin, from configuration (never a request's Host), for links in mail.
    public_url: String,
    /// Production refuses the development staff's authenticator secret.
    production: bool,
    attachments: tickets::AttachmentStore,
    /// The mail domain every staff address is in.
    staff_email_domain: String,
}

impl Identity {
    pub fn new(
        pool: PgPool,
        hasher: PasswordHasher,
        public_url: String,
        seal: two_factor::SecretSeal,
        webauthn: Webauthn,
        production: bool,
    ) -> Self {
        Self {
            pool,
            hasher,
            seal,
            webauthn,
            public_url,
            production,
            attachments: tickets::AttachmentStore::new(std::env::temp_dir().join("kid-attachments")),
            staff_email_domain: String::new(),
        }
    }

    /// The mail domain staff addresses must be in (none is, until it is set).
    pub fn with_staff_email_domain(mut self, domain: &str) -> Self {
        domain.clone_into(&mut self.staff_email_domain);
        self
    }

    /// Where ticket attachments are kept.
    pub fn with_attachments(mut self, attachments: tickets::AttachmentStore) -> Self {
        self.attachments = attachments;
        self
    }

    fn staff_factors(&self) -> staff::Factors<'_> {
        staff::Factors {
            pool: &self.pool,
            hasher: &self.hasher,
            seal: &self.seal,
            production: self.production,
            public_url: &self.public_url,
            staff_email_domain: &self.staff_email_domain,
        }
    }
}

impl From<db::users::FoundPlayer> for FoundPlayer {
    fn from(row: db::users::FoundPlayer) -> Self {
        Self {
            id: row.id.to_string(),
            username: row.username,
            email: row.email,
            phone_number: row.phone_number,
            created_at: Some(kid_platform::grpc::timestamp(row.created_at)),
            closed_at: row.closed_at.map(kid_platform::grpc::timestamp),
            locked_at: row.locked_at.map(kid_platform::grpc::timestamp),
            locked_reason: row.locked_reason.unwrap_or_default(),
        }
    }
}

impl From<db::tickets::TicketRow> for TicketSummary {
    fn from(row: db::tickets::TicketRow) -> Self {
        Self {
            id: row.id.to_string(),
            user_id: row.user_id.to_string(),
            username: row.username,
            category: row.category,
            subject: row.subject,
            transaction_id: row.transaction_id.map(|id| id.to_string()).unwrap_or_default(),
            status: row.status,
            created_at: Some(kid_platform::grpc::timestamp(row.created_at)),
            updated_at: Some(kid_platform::grpc::timestamp(row.updated_at)),
        }
    }
}

impl From<tickets::Ticket> for TicketResponse {
    fn from(ticket: tickets::Ticket) -> Self {
        Self {
            ticket: Some(ticket.ticket.into()),
            messages: ticket
                .messages
                .into_iter()
                .map(|message| TicketMessage {
                    id: message.id.to_string(),
                    staff_username: message.staff_username.unwrap_or_default(),
                    body: message.body,
                    attachment_id: message.attachment_id.map(|id| id.to_string()).unwrap_or_default(),
                    created_at: Some(kid_platform::grpc::timestamp(message.created_at)),
                })
                .collect(),
        }
    }
}

/// A player's id when the request names one; `None` (staff) when it is empty.
fn player_or_staff<T>(request: &Request<T>, user_id: &str, method: &str) -> Result<Option<Uuid>, Status> {
    if user_id.is_empty() {
        auth::staff_actor(request, method, &StaffRole::ALL)?;
        return Ok(None);
    }
    Ok(Some(parse_user_id(user_id)?))
}

fn parse_id(value: &str, what: &'static str) -> Result<Uuid, Status> {
    Uuid::parse_str(value).map_err(|_| Status::invalid_argument(format!("{what} is not a UUID")))
}

impl From<staff::Staff> for StaffMember {
    fn from(staff: staff::Staff) -> Self {
        Self {
            id: staff.row.id.to_string(),
            username: staff.row.username,
            role: staff.role.as_str().to_owned(),
            created_at: Some(kid_platform::grpc::timestamp(staff.row.created_at)),
            signed_in_at: staff.row.signed_in_at.map(kid_platform::grpc::timestamp),
            disabled: staff.row.disabled_at.is_some(),
            email: staff.row.email.unwrap_or_default(),
            enrolment_pending: staff.row.enrolment_pending,
        }
    }
}

/// The attempt a request's context describes (all empty when the caller sent none).
fn attempt_of(context: Option<&SignInContext>) -> Attempt<'_> {
    context.map_or_else(Attempt::default, |context| Attempt {
        ip: &context.ip,
        user_agent: &context.user_agent,
        device_id: &context.device_id,
        session_handle: &context.session_handle,
    })
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

impl From<SignInRow> for SignIn {
    fn from(row: SignInRow) -> Self {
        Self {
            id: row.id.to_string(),
            occurred_at: Some(kid_platform::grpc::timestamp(row.occurred_at)),
            device: device::describe(&row.user_agent),
            ip: row.ip,
            user_agent: row.user_agent,
            method: row.method,
            failure: row.failure.unwrap_or_default(),
        }
    }
}

impl From<PasskeyRow> for Passkey {
    fn from(row: PasskeyRow) -> Self {
        Self {
            id: row.id.to_string(),
            name: row.name,
            created_at: Some(kid_platform::grpc::timestamp(row.created_at)),
            last_used_at: row.last_used_at.map(kid_platform::grpc::timestamp),
        }
    }
}

#[tonic::async_trait]
impl IdentityService for Identity {
    async fn register(
        &self,
        request: Request<RegisterRequest>,
    ) -> Result<Response<RegisterResponse>, Status> {
        let request = request.get_ref();
        let form = Registration {
            username: &request.username,
            email: &request.email,
            password: &request.password,
            password_confirm: &request.password_confirm,
            dob: &request.dob,
            receive_newsletter: request.receive_newsletter,
        };
        let user = registration::register(&self.pool, &self.hasher, &form).await?;
        // The sign-up signs the new player in: their first device is known from then on.
        let attempt = attempt_of(request.context.as_ref());
        sign_ins::record_sign_in(&self.pool, &self.public_url, user.id, &attempt, Method::Password).await?;
        Ok(Response::new(RegisterResponse {
            user: Some(user.into()),
        }))
    }

    async fn authenticate(
        &self,
        request: Request<AuthenticateRequest>,
    ) -> Result<Response<AuthenticateResponse>, Status> {
        let request = request.get_ref();
        let user = registration::authenticate(
            &self.pool,
            &self.hasher,
            &self.public_url,
            &request.username,
            &request.password,
            &attempt_of(request.context.as_ref()),
        )
        .await?;
        Ok(Response::new(AuthenticateResponse {
            user: Some(user.into()),
        }))
    }

    async fn get_user(&self, request: Request<GetUserRequest>) -> Result<Response<GetUserResponse>, Status> {
        let id = parse_user_id(&request.get_ref().user_id)?;
        let mut conn = self.pool.acquire().await.map_err(Error::from)?;
        let user = db::users::find_user(&mut conn, id)
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

    async fn start_totp(
        &self,
        request: Request<StartTotpRequest>,
    ) -> Result<Response<StartTotpResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let enrolment =
            two_factor::start(&self.pool, &self.seal, &self.hasher, id, &request.password).await?;
        Ok(Response::new(StartTotpResponse {
            secret: enrolment.secret,
            otpauth_url: enrolment.otpauth_url,
        }))
    }

    async fn confirm_totp(
        &self,
        request: Request<ConfirmTotpRequest>,
    ) -> Result<Response<ConfirmTotpResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let recovery_codes = two_factor::confirm(&self.pool, &self.seal, id, &request.code).await?;
        Ok(Response::new(ConfirmTotpResponse { recovery_codes }))
    }

    async fn disable_totp(
        &self,
        request: Request<DisableTotpRequest>,
    ) -> Result<Response<DisableTotpResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        two_factor::disable(
            &self.pool,
            &self.seal,
            &self.hasher,
            id,
            &request.password,
            &request.code,
        )
        .await?;
        Ok(Response::new(DisableTotpResponse {}))
    }

    async fn verify_second_factor(
        &self,
        request: Request<VerifySecondFactorRequest>,
    ) -> Result<Response<VerifySecondFactorResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let verified = two_factor::verify(
            &self.pool,
            &self.seal,
            &self.public_url,
            id,
            &request.code,
            &attempt_of(request.context.as_ref()),
        )
        .await?;
        Ok(Response::new(VerifySecondFactorResponse {
            user: Some(verified.user.into()),
            recovery_code_used: verified.recovery_code_used,
            recovery_codes_left: u32::try_from(verified.recovery_codes_left).unwrap_or_default(),
        }))
    }

    async fn list_sign_ins(
        &self,
        request: Request<ListSignInsRequest>,
    ) -> Result<Response<ListSignInsResponse>, Status> {
        let id = parse_user_id(&request.get_ref().user_id)?;
        let rows = sign_ins::history(&self.pool, id).await?;
        let sign_ins = rows.into_iter().map(SignIn::from).collect();
        Ok(Response::new(ListSignInsResponse { sign_ins }))
    }

    async fn use_end_session_link(
        &self,
        request: Request<UseEndSessionLinkRequest>,
    ) -> Result<Response<UseEndSessionLinkResponse>, Status> {
        let (user_id, session_handle) = sign_ins::use_end_link(&self.pool, &request.get_ref().token).await?;
        Ok(Response::new(UseEndSessionLinkResponse {
            user_id: user_id.to_string(),
            session_handle,
        }))
    }

    async fn start_passkey_registration(
        &self,
        request: Request<StartPasskeyRegistrationRequest>,
    ) -> Result<Response<StartPasskeyRegistrationResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let ceremony =
            passkeys::start_registration(&self.pool, &self.webauthn, &self.hasher, id, &request.password)
                .await?;
        Ok(Response::new(StartPasskeyRegistrationResponse {
            ceremony_id: ceremony.id.to_string(),
            options_json: ceremony.options_json,
        }))
    }

    async fn finish_passkey_registration(
        &self,
        request: Request<FinishPasskeyRegistrationRequest>,
    ) -> Result<Response<FinishPasskeyRegistrationResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let row = passkeys::finish_registration(
            &self.pool,
            &self.webauthn,
            id,
            &request.ceremony_id,
            &request.credential_json,
            &request.name,
            &request.user_agent,
        )
        .await?;
        Ok(Response::new(FinishPasskeyRegistrationResponse {
            passkey: Some(row.into()),
        }))
    }

    async fn list_passkeys(
        &self,
        request: Request<ListPasskeysRequest>,
    ) -> Result<Response<ListPasskeysResponse>, Status> {
        let id = parse_user_id(&request.get_ref().user_id)?;
        let rows = passkeys::list(&self.pool, id).await?;
        Ok(Response::new(ListPasskeysResponse {
            passkeys: rows.into_iter().map(Passkey::from).collect(),
        }))
    }

    async fn remove_passkey(
        &self,
        request: Request<RemovePasskeyRequest>,
    ) -> Result<Response<RemovePasskeyResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        passkeys::remove(&self.pool, id, &request.passkey_id).await?;
        Ok(Response::new(RemovePasskeyResponse {}))
    }

    async fn start_passkey_sign_in(
        &self,
        _request: Request<StartPasskeySignInRequest>,
    ) -> Result<Response<StartPasskeySignInResponse>, Status> {
        let ceremony = passkeys::start_sign_in(&self.pool, &self.webauthn).await?;
        Ok(Response::new(StartPasskeySignInResponse {
            ceremony_id: ceremony.id.to_string(),
            options_json: ceremony.options_json,
        }))
    }

    async fn finish_passkey_sign_in(
        &self,
        request: Request<FinishPasskeySignInRequest>,
    ) -> Result<Response<FinishPasskeySignInResponse>, Status> {
        let request = request.get_ref();
        let user = passkeys::finish_sign_in(
            &self.pool,
            &self.webauthn,
            &self.public_url,
            &request.ceremony_id,
            &request.credential_json,
            &attempt_of(request.context.as_ref()),
        )
        .await?;
        Ok(Response::new(FinishPasskeySignInResponse {
            user: Some(user.into()),
        }))
    }

    async fn export_account(
        &self,
        request: Request<ExportAccountRequest>,
    ) -> Result<Response<ExportAccountResponse>, Status> {
        let id = parse_user_id(&request.get_ref().user_id)?;
        let data = export::export(&self.pool, id).await?;
        Ok(Response::new(ExportAccountResponse {
            user: Some(data.user.into()),
            receive_newsletter: data.receive_newsletter,
            sign_ins: data.sign_ins.into_iter().map(SignIn::from).collect(),
            passkeys: data.passkeys.into_iter().map(Passkey::from).collect(),
            mails: data
                .mails
                .into_iter()
                .map(|mail| SentMail {
                    to: mail.to_address,
                    subject: mail.subject,
                    created_at: Some(kid_platform::grpc::timestamp(mail.created_at)),
                    sent_at: mail.sent_at.map(kid_platform::grpc::timestamp),
                })
                .collect(),
            locked_at: data.locked_at.map(kid_platform::grpc::timestamp),
            locked_reason: data.locked_reason.unwrap_or_default(),
            tickets: data.tickets.into_iter().map(TicketResponse::from).collect(),
        }))
    }

    async fn close_account(
        &self,
        request: Request<CloseAccountRequest>,
    ) -> Result<Response<CloseAccountResponse>, Status> {
        let request = request.get_ref();
        let id = parse_user_id(&request.user_id)?;
        let erase_after = closure::close(&self.pool, &self.hasher, id, &request.password).await?;
        Ok(Response::new(CloseAccountResponse {
            erase_after: Some(kid_platform::grpc::timestamp(erase_after)),
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

    async fn staff_sign_in(
        &self,
        request: Request<StaffSignInRequest>,
    ) -> Result<Response<StaffSignInResponse>, Status> {
        auth::authorize(&request, "StaffSignIn", &[auth::GATEWAY])?;
        let request = request.get_ref();
        let staff = self
            .staff_factors()
            .sign_in(&staff::SignIn {
                username: &request.username,
                password: &request.password,
                code: &request.code,
                ip: &request.ip,
            })
            .await?;
        Ok(Response::new(StaffSignInResponse {
            staff: Some(staff.into()),
        }))
    }

    async fn staff_reauthenticate(
        &self,
        request: Request<StaffReauthenticateRequest>,
    ) -> Result<Response<StaffReauthenticateResponse>, Status> {
        let actor = auth::staff_actor(&request, "StaffReauthenticate", &StaffRole::ALL)?;
        let request = request.get_ref();
        let staff = self
            .staff_factors()
            .reauthenticate(actor.id, &request.secret, &actor.ip)
            .await?;
        Ok(Response::new(StaffReauthenticateResponse {
            staff: Some(staff.into()),
        }))
    }

    async fn get_staff(
        &self,
        request: Request<GetStaffRequest>,
    ) -> Result<Response<GetStaffResponse>, Status> {
        auth::authorize(&request, "GetStaff", &[auth::GATEWAY])?;
        let id = parse_user_id(&request.get_ref().staff_id)?;
        let staff = self.staff_factors().find(id).await?;
        Ok(Response::new(GetStaffResponse {
            staff: Some(staff.into()),
        }))
    }

    async fn list_staff(
        &self,
        request: Request<ListStaffRequest>,
    ) -> Result<Response<ListStaffResponse>, Status> {
        auth::staff_actor(&request, "ListStaff", &[StaffRole::Admin])?;
        let staff = self.staff_factors().list().await?;
        Ok(Response::new(ListStaffResponse {
            staff: staff.into_iter().map(StaffMember::from).collect(),
        }))
    }

    async fn create_staff(
        &self,
        request: Request<CreateStaffRequest>,
    ) -> Result<Response<CreateStaffResponse>, Status> {
        let admin = auth::staff_reauthenticated(&request, "CreateStaff", &[StaffRole::Admin])?;
        let request = request.get_ref();
        let staff = self
            .staff_factors()
            .create(&admin, &request.username, &request.role, &request.email)
            .await?;
        Ok(Response::new(CreateStaffResponse {
            staff: Some(staff.into()),
        }))
    }

    async fn update_staff(
        &self,
        request: Request<UpdateStaffRequest>,
    ) -> Result<Response<UpdateStaffResponse>, Status> {
        let admin = auth::staff_reauthenticated(&request, "UpdateStaff", &[StaffRole::Admin])?;
        let request = request.get_ref();
        let id = parse_user_id(&request.staff_id)?;
        let staff = self
            .staff_factors()
            .update(&admin, id, &request.role, request.disabled)
            .await?;
        Ok(Response::new(UpdateStaffResponse {
            staff: Some(staff.into()),
        }))
    }

    async fn reset_staff_credentials(
        &self,
        request: Request<ResetStaffCredentialsRequest>,
    ) -> Result<Response<ResetStaffCredentialsResponse>, Status> {
        let admin = auth::staff_reauthenticated(&request, "ResetStaffCredentials", &[StaffRole::Admin])?;
        let id = parse_user_id(&request.get_ref().staff_id)?;
        let staff = self.staff_factors().reset(&admin, id).await?;
        Ok(Response::new(ResetStaffCredentialsResponse {
            staff: Some(staff.into()),
        }))
    }

    async fn get_staff_enrolment(
        &self,
        request: Request<GetStaffEnrolmentRequest>,
    ) -> Result<Response<GetStaffEnrolmentResponse>, Status> {
        let enrolment = self.staff_factors().enrolment(&request.get_ref().token).await?;
        Ok(Response::new(GetStaffEnrolmentResponse {
            username: enrolment.username,
            totp_secret: enrolment.totp_secret,
            otpauth_url: enrolment.otpauth_url,
            expires_at: Some(kid_platform::grpc::timestamp(enrolment.expires_at)),
        }))
    }

    async fn complete_staff_enrolment(
        &self,
        request: Request<CompleteStaffEnrolmentRequest>,
    ) -> Result<Response<CompleteStaffEnrolmentResponse>, Status> {
        let request = request.get_ref();
        let staff = self
            .staff_factors()
            .enrol(&staff::Enrol {
                token: &request.token,
                password: &request.password,
                password_confirm: &request.password_confirm,
                code: &request.code,
                ip: &request.ip,
            })
            .await?;
        Ok(Response::new(CompleteStaffEnrolmentResponse {
            staff: Some(staff.into()),
        }))
    }

    async fn find_players(
        &self,
        request: Request<FindPlayersRequest>,
    ) -> Result<Response<FindPlayersResponse>, Status> {
        auth::staff_actor(&request, "FindPlayers", &StaffRole::ALL)?;
        let request = request.get_ref();
        let players =
            console::find_players(&self.pool, &request.query, &request.exact, request.limit).await?;
        Ok(Response::new(FindPlayersResponse {
            players: players.into_iter().map(FoundPlayer::from).collect(),
        }))
    }

    async fn set_account_lock(
        &self,
        request: Request<SetAccountLockRequest>,
    ) -> Result<Response<SetAccountLockResponse>, Status> {
        let staff = auth::staff_actor(&request, "SetAccountLock", &[StaffRole::Support])?;
        let request = request.get_ref();
        let user_id = parse_user_id(&request.user_id)?;
        let player = console::set_lock(&self.pool, &staff, user_id, &request.reason).await?;
        Ok(Response::new(SetAccountLockResponse {
            player: Some(player.into()),
        }))
    }

    async fn open_ticket(
        &self,
        request: Request<OpenTicketRequest>,
    ) -> Result<Response<TicketResponse>, Status> {
        let request = request.into_inner();
        let transaction_id = match request.transaction_id.as_str() {
            "" => None,
            id => Some(parse_id(id, "transaction_id")?),
        };
        let opening = tickets::Opening {
            user_id: parse_user_id(&request.user_id)?,
            category: &request.category,
            subject: &request.subject,
            body: &request.body,
            transaction_id,
            upload: request.attachment.as_ref().map(|attachment| tickets::Upload {
                bytes: &attachment.content,
            }),
        };
        let ticket = tickets::open(&self.pool, &self.attachments, &opening).await?;
        Ok(Response::new(ticket.into()))
    }

    async fn list_tickets(
        &self,
        request: Request<ListTicketsRequest>,
    ) -> Result<Response<ListTicketsResponse>, Status> {
        let user_id = player_or_staff(&request, &request.get_ref().user_id, "ListTickets")?;
        let status = Some(request.get_ref().status.as_str()).filter(|status| !status.is_empty());
        let rows = tickets::list(&self.pool, user_id, status).await?;
        Ok(Response::new(ListTicketsResponse {
            tickets: rows.into_iter().map(TicketSummary::from).collect(),
        }))
    }

    async fn get_ticket(
        &self,
        request: Request<GetTicketRequest>,
    ) -> Result<Response<TicketResponse>, Status> {
        let user_id = player_or_staff(&request, &request.get_ref().user_id, "GetTicket")?;
        let ticket_id = parse_id(&request.get_ref().ticket_id, "ticket_id")?;
        let ticket = tickets::find(&self.pool, ticket_id, user_id).await?;
        Ok(Response::new(ticket.into()))
    }

    async fn add_ticket_message(
        &self,
        request: Request<AddTicketMessageRequest>,
    ) -> Result<Response<TicketResponse>, Status> {
        let request = request.into_inner();
        let upload = request.attachment.as_ref().map(|attachment| tickets::Upload {
            bytes: &attachment.content,
        });
        let ticket = tickets::add_message(
            &self.pool,
            &self.attachments,
            parse_user_id(&request.user_id)?,
            parse_id(&request.ticket_id, "ticket_id")?,
            &request.body,
            upload,
        )
        .await?;
        Ok(Response::new(ticket.into()))
    }

    async fn get_attachment(
        &self,
        request: Request<GetAttachmentRequest>,
    ) -> Result<Response<GetAttachmentResponse>, Status> {
        let user_id = player_or_staff(&request, &request.get_ref().user_id, "GetAttachment")?;
        let id = parse_id(&request.get_ref().attachment_id, "attachment_id")?;
        let (row, content) = tickets::attachment(&self.pool, &self.attachments, id, user_id).await?;
        Ok(Response::new(GetAttachmentResponse {
            content_type: row.content_type,
            content,
        }))
    }

    async fn reply_ticket(
        &self,
        request: Request<ReplyTicketRequest>,
    ) -> Result<Response<TicketResponse>, Status> {
        let staff = auth::staff_actor(&request, "ReplyTicket", &[StaffRole::Support])?;
        let request = request.get_ref();
        let ticket_id = parse_id(&request.ticket_id, "ticket_id")?;
        let ticket = tickets::reply(&self.pool, &staff, ticket_id, &request.body, request.close).await?;
        Ok(Response::new(ticket.into()))
    }
}
