//! The identity service: players' accounts, credentials, email tokens and security codes.

pub mod app;
pub mod db;
pub mod domain;
pub mod events;
pub mod grpc;

use std::sync::Arc;

use events::mail;

use kid_contracts::identity::v1::identity_service_server::{IdentityServiceServer, SERVICE_NAME};
use kid_platform::{
    auth,
    service::{ServiceHost, ServiceSpec},
};
use sqlx::migrate::Migrator;
use tonic::service::Routes;

static MIGRATOR: Migrator = sqlx::migrate!("../../migrations/identity");

/// The identity service as production runs it: mail goes out through SMTP only.
pub static SERVICE: ServiceSpec = spec(wire);

/// The identity service with `wire`: production's, or the development portal's
/// ([`events::mailbox::SERVICE`], the same service with the development mailbox).
const fn spec(wire: fn(&mut ServiceHost) -> anyhow::Result<Routes>) -> ServiceSpec {
    ServiceSpec {
        schema: "identity",
        grpc_name: SERVICE_NAME,
        migrator: &MIGRATOR,
        // It publishes account erasures; recharge consumes them.
        queues: |settings| vec![kid_platform::topology::recharge_accounts(settings)],
        wire,
        // Links in mail point at the portal's public address.
        needs: &[
            "identity.attachment_dir",
            "mail.smtp_url",
            "mail.from",
            "gateway.public_url",
            "identity.totp_key",
            "identity.staff_email_domain",
        ],
        callers: &[auth::GATEWAY, auth::OPERATOR],
        gauges: &[],
    }
}

fn wire(host: &mut ServiceHost) -> anyhow::Result<Routes> {
    let sender = mail::smtp_sender(&host.settings.mail)?;
    staff_email_domain(&host.settings)?;
    wire_with(host, sender)
}

/// Everything identity serves and runs, its mail delivered by `sender`.
fn wire_with(host: &mut ServiceHost, sender: Arc<dyn mail::MailSender>) -> anyhow::Result<Routes> {
    let courier = mail::Courier::new(host.pool.clone(), sender);
    host.spawn(courier.run(host.shutdown_token()));
    // One store of ticket images: the service writes and reads them, the sweeper removes an
    // erased account's.
    let attachments = app::tickets::AttachmentStore::new(&host.settings.identity.attachment_dir);
    host.spawn(app::closure::run_sweeper(
        host.pool.clone(),
        attachments.clone(),
        host.settings.identity.erase_sweep_interval,
        host.shutdown_token(),
    ));
    let service = grpc::Identity::new(
        host.pool.clone(),
        domain::PasswordHasher::new()?,
        host.settings.gateway.public_url.clone(),
        app::two_factor::SecretSeal::new(&host.settings.identity.totp_key),
        app::passkeys::relying_party(&host.settings.gateway.passkey_origin())?,
        !host.settings.is_development(),
    )
    .with_attachments(attachments)
    .with_staff_email_domain(&host.settings.identity.staff_email_domain);
    // A ticket's image (5 MB at most) comes in one message.
    let server = IdentityServiceServer::new(service)
        .max_decoding_message_size(kid_contracts::MAX_IMAGE_MESSAGE_BYTES)
        .max_encoding_message_size(kid_contracts::MAX_IMAGE_MESSAGE_BYTES);
    Ok(Routes::new(tonic::service::interceptor::InterceptedService::new(
        server,
        host.require_jwt(SERVICE.callers),
    )))
}

/// Development data: the console's staff (`app::staff::DEVELOPMENT_STAFF`), created once.
pub async fn seed_staff(settings: &kid_platform::Settings) -> anyhow::Result<()> {
    anyhow::ensure!(settings.is_development(), "production has no seeded staff");
    let pool = kid_platform::db::connect(&settings.database, "identity").await?;
    app::staff::seed_development(
        &pool,
        &domain::PasswordHasher::new()?,
        &app::two_factor::SecretSeal::new(&settings.identity.totp_key),
    )
    .await?;
    Ok(())
}

/// A new admin of the support console, by the operator at the identity pod (the way in where
/// no staff exists yet); recorded in the audit log as done by `kid-identity create-admin`. The
/// admin enrols through the link mailed to `email`, as every member does: the operator sees no
/// credential either.
pub async fn create_admin(username: &str, email: &str) -> anyhow::Result<app::staff::Staff> {
    let settings = SERVICE.load_settings()?;
    if !settings.is_development() {
        staff_email_domain(&settings)?;
    }
    let pool = kid_platform::db::connect(&settings.database, "identity").await?;
    let hasher = domain::PasswordHasher::new()?;
    let seal = app::two_factor::SecretSeal::new(&settings.identity.totp_key);
    let factors = app::staff::Factors {
        pool: &pool,
        hasher: &hasher,
        seal: &seal,
        production: !settings.is_development(),
        public_url: &settings.gateway.public_url,
        staff_email_domain: &settings.identity.staff_email_domain,
    };
    let operator = kid_platform::auth::StaffActor {
        id: uuid::Uuid::nil(),
        username: "kid-identity create-admin".into(),
        role: kid_platform::auth::StaffRole::Admin,
        reauthenticated_at: 0,
        ip: "local".into(),
    };
    factors
        .create(&operator, username, "admin", email)
        .await
        .map_err(|error| anyhow::anyhow!("{error}: {error:?}"))
}

/// The staff mail domain production must have: without one an admin could mail a new member's
/// enrolment link to any mailbox of theirs.
fn staff_email_domain(settings: &kid_platform::Settings) -> anyhow::Result<&str> {
    let domain = settings.identity.staff_email_domain.trim();
    anyhow::ensure!(
        !domain.is_empty(),
        "identity.staff_email_domain is not set: production keeps staff addresses in one mail domain"
    );
    Ok(domain)
}

/// Development data: the `demo` player (password `Demo@123456`, email verified), created once.
/// Returns the player's id.
pub async fn seed_demo(settings: &kid_platform::Settings) -> anyhow::Result<uuid::Uuid> {
    let pool = kid_platform::db::connect(&settings.database, "identity").await?;
    let mut conn = pool.acquire().await?;
    if let Some(demo) = db::users::sign_in_account(&mut conn, "demo").await? {
        return Ok(demo.id);
    }
    let password = domain::Password::parse("Demo@123456", domain::Strength::Medium)
        .map_err(|message| anyhow::anyhow!(message))?;
    let password_hash = domain::PasswordHasher::new()?.hash(&password).await?;
    let user = db::NewUser {
        id: uuid::Uuid::now_v7(),
        username: "demo",
        email: "demo@kid.example",
        password_hash: &password_hash,
        dob: time::macros::date!(2000 - 01 - 01),
        receive_newsletter: false,
    };
    let id = match db::users::insert_user(&mut conn, &user).await {
        Ok(row) => row.id,
        Err(db::InsertError::Taken(_)) => {
            db::users::sign_in_account(&mut conn, "demo")
                .await?
                .ok_or_else(|| anyhow::anyhow!("the demo player was not saved"))?
                .id
        }
        Err(db::InsertError::Database(error)) => return Err(error.into()),
    };
    db::users::mark_verified(&mut conn, id).await?;
    tracing::info!("demo player ready");
    Ok(id)
}
