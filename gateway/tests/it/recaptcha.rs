//! The reCAPTCHA v3 adapter against a loopback stand-in for Google's `siteverify`, which
//! answers by the same form-in, JSON-out protocol.

use axum::{Form, Json, Router, routing::post};
use kid_gateway::captcha::{self, CaptchaError};
use kid_platform::config::CaptchaSettings;
use secrecy::SecretString;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
struct Verify {
    secret: String,
    response: String,
}

/// Tokens name their verdict: `good:<action>`, `bot:<action>`, anything else fails.
async fn siteverify(Form(form): Form<Verify>) -> Json<Value> {
    if form.secret != "test-secret" {
        return Json(json!({ "success": false, "error-codes": ["invalid-input-secret"] }));
    }
    Json(match form.response.split_once(':') {
        Some(("good", action)) => json!({ "success": true, "score": 0.9, "action": action }),
        Some(("bot", action)) => json!({ "success": true, "score": 0.1, "action": action }),
        _ => json!({ "success": false, "error-codes": ["invalid-input-response"] }),
    })
}

async fn verifier(secret: &str) -> std::sync::Arc<dyn captcha::CaptchaVerifier> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(
        async move { axum::serve(listener, Router::new().route("/siteverify", post(siteverify))).await },
    );
    let _ = rustls::crypto::ring::default_provider().install_default();
    captcha::from_settings(&CaptchaSettings {
        secret: SecretString::from(secret),
        min_score: 0.5,
        verify_url: format!("http://{address}/siteverify"),
    })
    .expect("verifier")
}

/// Each token's verdict for the registration form: only a human's, for that form, passes.
#[tokio::test]
async fn only_a_human_token_for_the_right_action_passes() {
    let verifier = verifier("test-secret").await;
    let cases = [
        ("good:registerFormSubmit", Ok(())),
        (
            "good:cardRechargeFormSubmit",
            Err(CaptchaError::WrongAction("cardRechargeFormSubmit".into())),
        ),
        ("bot:registerFormSubmit", Err(CaptchaError::LowScore(0.1))),
        ("garbage", Err(CaptchaError::Refused)),
        // The development token means nothing to Google.
        ("dev-captcha", Err(CaptchaError::Refused)),
    ];
    for (token, verdict) in cases {
        let answer = verifier.verify(token, "registerFormSubmit", "127.0.0.1").await;
        assert_eq!(answer, verdict, "{token}");
    }
}

#[tokio::test]
async fn a_human_token_checked_with_a_wrong_secret_is_refused() {
    let wrong_secret = verifier("other-secret").await;
    assert_eq!(
        wrong_secret
            .verify("good:registerFormSubmit", "registerFormSubmit", "127.0.0.1")
            .await,
        Err(CaptchaError::Refused)
    );
}

#[tokio::test]
async fn without_a_secret_only_the_development_token_passes() {
    let development = captcha::from_settings(&CaptchaSettings {
        secret: SecretString::from(""),
        min_score: 0.5,
        verify_url: String::new(),
    })
    .expect("verifier");
    let cases = [
        ("dev-captcha", Ok(())),
        ("good:registerFormSubmit", Err(CaptchaError::Refused)),
    ];
    for (token, verdict) in cases {
        let answer = development.verify(token, "registerFormSubmit", "").await;
        assert_eq!(answer, verdict, "{token}");
    }
}
