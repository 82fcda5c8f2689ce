//! The mail courier against the real database and the development mailbox: a message that
//! cannot be delivered stays queued with its error and is delivered, once, when the mailbox is
//! back.

use std::sync::Arc;

use kid_identity::events::{
    mail::{Courier, Mail, enqueue_to_address},
    mailbox::Mailbox,
};
use kid_platform::{
    Settings, db, mailbox,
    service::{Application, ServiceSpec},
};
use secrecy::ExposeSecret;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

#[tokio::test]
async fn mail_that_cannot_be_delivered_is_retried_until_it_is_delivered_once() {
    let settings = kid_testing::isolated_settings().await.expect("settings");
    let shutdown = CancellationToken::new();
    // Building the service migrates its schema; its own courier is not running.
    let _identity = Application::build(
        &kid_identity::events::mailbox::SERVICE,
        settings.clone(),
        shutdown.clone(),
    )
    .await
    .expect("identity");
    let pool = db::connect(&settings.database, "identity").await.expect("pool");
    let dir = std::env::temp_dir().join(format!("kid-mail-test-{}", Uuid::new_v4().simple()));
    // A file where the mailbox folder should be: every delivery fails, as with SMTP down.
    std::fs::write(&dir, b"not a folder").expect("blocker");
    let courier = Courier::new(pool.clone(), Arc::new(Mailbox::new(&dir)));

    let mail = Mail {
        id: Uuid::now_v7(),
        to: "player@example.com".into(),
        subject: "Chủ đề".into(),
        text: "Nội dung".into(),
        link: Some("https://portal.kid.example/x".into()),
        code: None,
    };
    let mut tx = pool.begin().await.expect("tx");
    enqueue_to_address(&mut tx, &mail).await.expect("enqueue");
    tx.commit().await.expect("commit");

    assert_eq!(courier.deliver_due().await.expect("deliver"), 0);
    let (attempts, error, sent): (i32, Option<String>, bool) =
        sqlx::query_as("select attempts, last_error, sent_at is not null from mail_message where id = $1")
            .bind(mail.id)
            .fetch_one(&pool)
            .await
            .expect("row");
    assert_eq!((attempts, sent), (1, false));
    assert!(error.is_some_and(|error| error.contains("mailbox")));
    assert_eq!(
        courier.deliver_due().await.expect("deliver"),
        0,
        "not due again yet"
    );

    std::fs::remove_file(&dir).expect("unblock");
    sqlx::query("update mail_message set next_attempt_at = now()")
        .execute(&pool)
        .await
        .expect("due");
    assert_eq!(courier.deliver_due().await.expect("deliver"), 1);
    assert_eq!(courier.deliver_due().await.expect("deliver"), 0, "delivered once");
    let inbox = mailbox::read(&dir, "PLAYER@example.com").expect("read");
    assert_eq!(inbox.len(), 1);
    assert_eq!(inbox[0].mail, mail);
    let _ = std::fs::remove_dir_all(&dir);
    shutdown.cancel();
}

/// Why `service`, built (migrated) with `settings`, refuses to start.
async fn why_it_refuses_to_start(service: &'static ServiceSpec, settings: &Settings) -> String {
    let shutdown = CancellationToken::new();
    let error = Application::build(service, settings.clone(), shutdown.clone())
        .await
        .expect("the service builds (migrates)")
        .run_until_stopped()
        .await
        .expect_err("the service refuses to start");
    shutdown.cancel();
    format!("{error:#}")
}

/// `service`, built with `settings`, wires everything and serves until stopped (here at once:
/// wiring comes first).
async fn starts_and_stops(service: &'static ServiceSpec, settings: Settings) {
    let stop = CancellationToken::new();
    let built = Application::build(service, settings, stop.clone())
        .await
        .expect("the service builds");
    stop.cancel();
    built
        .run_until_stopped()
        .await
        .expect("the service starts and stops");
}

/// Production's identity keeps staff addresses in one mail domain (an admin could otherwise
/// mail a new finance member's enrolment link to a mailbox of their own): without
/// `identity.staff_email_domain` it refuses to start, though it has its SMTP server.
#[tokio::test]
async fn a_production_identity_without_a_staff_mail_domain_refuses_to_start() {
    let mut settings = kid_testing::isolated_settings().await.expect("settings");
    settings.mail.smtp_url = "smtp://127.0.0.1:2525".to_owned().into();
    assert!(
        settings.identity.staff_email_domain.is_empty(),
        "the defaults have none"
    );
    let error = why_it_refuses_to_start(&kid_identity::SERVICE, &settings).await;
    assert!(
        error.contains("identity.staff_email_domain is not set"),
        "{error}"
    );
    "kid.example.vn".clone_into(&mut settings.identity.staff_email_domain);
    starts_and_stops(&kid_identity::SERVICE, settings).await;
}

/// The mailbox is the development portal's alone: production's identity, given no SMTP URL
/// (a Secret left out, say), refuses to start instead of writing reset links to files.
#[tokio::test]
async fn a_production_identity_without_smtp_refuses_to_start_rather_than_keep_mail_in_files() {
    let settings = kid_testing::isolated_settings().await.expect("settings");
    assert!(
        settings.mail.smtp_url.expose_secret().is_empty(),
        "the tests' settings have no SMTP"
    );
    // The service wires its mail sender when it starts serving.
    let error = why_it_refuses_to_start(&kid_identity::SERVICE, &settings).await;
    assert!(error.contains("mail.smtp_url is not set"), "{error}");
    // The development portal's identity, with the same settings, wires the mailbox.
    starts_and_stops(&kid_identity::events::mailbox::SERVICE, settings).await;
}
