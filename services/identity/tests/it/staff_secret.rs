//! Production refuses the development staff's shared authenticator secret: a console member
//! seeded with it (a development database restored into production, say) cannot sign in there,
//! even with the right password and code.

use kid_identity::{
    app::{
        Error,
        staff::{DEVELOPMENT_PASSWORD, DEVELOPMENT_TOTP_SECRET, Factors, SignIn, seed_development},
        two_factor::SecretSeal,
    },
    domain::PasswordHasher,
};
use kid_platform::db;
use tokio_util::sync::CancellationToken;

fn code(steps: u64) -> String {
    let secret = totp_rs::Secret::try_from_base32(DEVELOPMENT_TOTP_SECRET)
        .expect("base32")
        .as_bytes()
        .to_vec();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    totp_rs::Builder::new()
        .with_secret(secret)
        .build_noncompliant()
        .generate(now + steps * 30)
        .to_string()
}

#[tokio::test]
async fn production_refuses_the_development_secret_that_development_accepts() {
    let mut settings = kid_testing::isolated_settings().await.expect("settings");
    settings.mail.smtp_url = "smtp://127.0.0.1:2525".to_owned().into();
    let shutdown = CancellationToken::new();
    kid_testing::serve(&kid_identity::events::mailbox::SERVICE, &settings, &shutdown).await;
    let pool = db::connect(&settings.database, "identity").await.expect("pool");
    let hasher = PasswordHasher::new().expect("hasher");
    let seal = SecretSeal::new(&settings.identity.totp_key);
    seed_development(&pool, &hasher, &seal).await.expect("seeded");
    let factors = |production| Factors {
        pool: &pool,
        hasher: &hasher,
        seal: &seal,
        production,
        public_url: &settings.gateway.public_url,
        staff_email_domain: &settings.identity.staff_email_domain,
    };
    let attempt = |code: String| async move {
        let attempt = SignIn {
            username: "staff-admin",
            password: DEVELOPMENT_PASSWORD,
            code: &code,
            ip: "127.0.0.1",
        };
        (
            factors(true).sign_in(&attempt).await,
            factors(false).sign_in(&attempt).await,
        )
    };
    let (in_production, in_development) = attempt(code(0)).await;
    match in_production {
        Err(Error::Validation(errors)) => {
            let (field, message) = errors.iter().next().expect("one error");
            assert_eq!(field, "code");
            assert!(message.contains("mã bí mật mẫu"), "{message}");
        }
        other => panic!(
            "production signed the development secret in: {:?}",
            other.map(|staff| staff.row.username)
        ),
    }
    assert_eq!(
        in_development.expect("development signs in").row.username,
        "staff-admin"
    );
    shutdown.cancel();
}
