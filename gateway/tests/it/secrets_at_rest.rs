//! Where a stolen log, trace or database dump could hold a reset link or a mailed code: the
//! gateway's spans keep the path without the token, and a delivered mail keeps neither its link
//! nor its code. Its own test binary, because it installs the process's tracing subscriber.

use std::{
    io::Write,
    sync::{Arc, Mutex},
};

use kid_testing::portal::{
    ask_password_reset, client, database, eventually, get, mail_for, register, reset_password, reset_token,
    start,
};
use reqwest::StatusCode;
use tracing_subscriber::fmt::{MakeWriter, format::FmtSpan};

/// Everything the process logs, spans included.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log").extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Captured {
    type Writer = Self;

    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("log")).into_owned()
    }
}

#[tokio::test]
async fn a_reset_token_reaches_no_span_log_line_or_stored_mail() {
    let captured = Captured::default();
    tracing_subscriber::fmt()
        .with_writer(captured.clone())
        .with_max_level(tracing::Level::DEBUG)
        .with_span_events(FmtSpan::NEW | FmtSpan::CLOSE)
        .with_ansi(false)
        .init();
    let portal = start(|_| {}).await;
    register(&portal, "leaky_logs").await;
    let asked = ask_password_reset(&portal, "leaky_logs").await;
    assert_eq!(asked.status(), StatusCode::OK);
    let mail = &mail_for(&portal, "leaky_logs@example.com", 1).await[0];
    let token = reset_token(mail);
    assert!(token.len() >= 20, "{mail}");

    // The player opens the link (the SPA page), the page checks it, the form resets.
    let page = get(&client(), &portal, &format!("/recovery/forgot-password/{token}")).await;
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(page.headers()["referrer-policy"], "no-referrer");
    let checked = get(&client(), &portal, &format!("/api/auth/reset-password/{token}")).await;
    assert_eq!(checked.status(), StatusCode::OK);
    let reset = reset_password(&portal, &token, "Brand#New2026", "Brand#New2026").await;
    assert!(reset.status().is_success(), "{}", reset.status());

    let logged = captured.text();
    assert!(
        logged.contains("/recovery/forgot-password/{token}")
            && logged.contains("/api/auth/reset-password/{token}"),
        "the requests' spans were captured"
    );
    assert!(
        !logged.contains(&token),
        "a span or log line holds the reset token"
    );

    // The courier delivered every mail (verification, reset, the password-changed notice) and
    // kept no secret of them.
    let identity = database(&portal, "identity").await;
    type Kept = (String, String, Option<String>, Option<String>, bool);
    let kept: Vec<Kept> = eventually("every mail delivered", || async {
        let kept: Vec<Kept> = sqlx::query_as(
            "select subject, body_text, link, code, sent_at is not null from mail_message order by created_at",
        )
        .fetch_all(&identity)
        .await
        .expect("mail log");
        (kept.len() >= 2 && kept.iter().all(|mail| mail.4)).then_some(kept)
    })
    .await;
    for (subject, body, link, code, _) in kept {
        assert_eq!((link, code), (None, None), "{subject}");
        assert!(!body.contains(&token), "{subject}: {body}");
    }
}
