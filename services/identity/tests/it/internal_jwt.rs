//! Every RPC sits behind the internal JWT: a call without a token, or with one not signed by
//! our secret, is refused; a valid token is served.

use std::sync::Arc;

use kid_contracts::identity::v1::{
    GetUserRequest, GetUserResponse, identity_service_client::IdentityServiceClient,
};
use kid_platform::{
    auth::{AttachInternalJwt, InternalJwt},
    config::JwtSettings,
    db, grpc,
};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

struct Running {
    endpoint: String,
    jwt: JwtSettings,
    user_id: Uuid,
    shutdown: CancellationToken,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn start_identity() -> Running {
    let mut settings = kid_testing::isolated_settings().await.expect("settings");
    // No mail is sent here; an SMTP address lets a build without the development mailbox start.
    settings.mail.smtp_url = "smtp://127.0.0.1:2525".to_owned().into();
    let shutdown = CancellationToken::new();
    let endpoint = kid_testing::serve(&kid_identity::events::mailbox::SERVICE, &settings, &shutdown).await;

    let pool = db::connect(&settings.database, "identity").await.expect("pool");
    let user_id = Uuid::new_v4();
    sqlx::query(
        "insert into user_account (id, username, email, password_hash, dob) values ($1, 'jwt_probe', 'probe@example.com', 'x', '2000-02-29')",
    )
    .bind(user_id)
    .execute(&pool)
    .await
    .expect("seed user");
    Running {
        endpoint,
        jwt: settings.jwt,
        user_id,
        shutdown,
    }
}

fn request(user_id: Uuid) -> GetUserRequest {
    GetUserRequest {
        user_id: user_id.to_string(),
    }
}

/// Asks for the seeded user as `caller`, signing with `jwt`'s key for that caller.
async fn get_user_as(
    running: &Running,
    jwt: &JwtSettings,
    caller: &'static str,
) -> Result<tonic::Response<GetUserResponse>, tonic::Status> {
    let attach = AttachInternalJwt::new(Arc::new(InternalJwt::new(jwt).expect("keys")), caller);
    let channel = grpc::lazy_channel(&running.endpoint).expect("channel");
    IdentityServiceClient::with_interceptor(channel, attach)
        .get_user(request(running.user_id))
        .await
}

/// The code identity refuses the seeded user with, asked as `caller` signing with `jwt`.
async fn refusal(running: &Running, jwt: &JwtSettings, caller: &'static str) -> tonic::Code {
    get_user_as(running, jwt, caller)
        .await
        .expect_err("refused")
        .code()
}

#[tokio::test]
async fn a_call_without_a_token_is_unauthenticated() {
    let running = start_identity().await;
    let channel = grpc::lazy_channel(&running.endpoint).expect("channel");
    let status = IdentityServiceClient::new(channel)
        .get_user(request(running.user_id))
        .await
        .expect_err("refused");
    assert_eq!(status.code(), tonic::Code::Unauthenticated);
}

#[tokio::test]
async fn a_call_with_a_token_signed_by_another_key_is_unauthenticated() {
    let running = start_identity().await;
    let mut forged = running.jwt.clone();
    let (stranger, _) = kid_platform::auth::generate_key_pair();
    forged.signing_keys.insert("gateway".to_owned(), stranger);
    // Signing only: a forger holds no public key to pair it with.
    forged.public_keys.clear();
    assert_eq!(
        refusal(&running, &forged, "gateway").await,
        tonic::Code::Unauthenticated
    );
}

/// Identity serves the gateway (and operators): payment, holding a valid key of its own, has
/// no business reading accounts.
#[tokio::test]
async fn a_caller_identity_does_not_serve_is_denied() {
    let running = start_identity().await;
    assert_eq!(
        refusal(&running, &running.jwt, "payment").await,
        tonic::Code::PermissionDenied
    );
}

#[tokio::test]
async fn a_call_with_a_valid_token_is_served() {
    let running = start_identity().await;
    let user = get_user_as(&running, &running.jwt, "gateway")
        .await
        .expect("served")
        .into_inner()
        .user
        .expect("user");
    assert_eq!(user.username, "jwt_probe");
    assert_eq!(user.dob, "2000-02-29");
    assert_eq!(user.id, running.user_id.to_string());
}
