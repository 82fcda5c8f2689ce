//! Captcha checks for the spec's captcha actions. The real verifier asks reCAPTCHA v3's
//! `siteverify` and checks the action and score; development uses a documented token.

use std::{future::Future, pin::Pin, sync::Arc};

use kid_platform::config::CaptchaSettings;
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

/// The token the development verifier accepts.
pub const DEV_TOKEN: &str = "dev-captcha";

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CaptchaError {
    #[error("captcha token missing or refused")]
    Refused,
    #[error("captcha answered for action {0:?}")]
    WrongAction(String),
    #[error("captcha score {0} below the threshold")]
    LowScore(f64),
    #[error("captcha service unreachable: {0}")]
    Unreachable(String),
}

pub type Verdict<'a> = Pin<Box<dyn Future<Output = Result<(), CaptchaError>> + Send + 'a>>;

pub trait CaptchaVerifier: Send + Sync {
    fn verify<'a>(&'a self, token: &'a str, action: &'a str, remote_ip: &'a str) -> Verdict<'a>;
}

/// Accepts exactly [`DEV_TOKEN`].
pub struct DevelopmentCaptcha;

impl CaptchaVerifier for DevelopmentCaptcha {
    fn verify<'a>(&'a self, token: &'a str, _action: &'a str, _remote_ip: &'a str) -> Verdict<'a> {
        Box::pin(async move {
            if token == DEV_TOKEN {
                Ok(())
            } else {
                Err(CaptchaError::Refused)
            }
        })
    }
}

pub struct Recaptcha {
    client: reqwest::Client,
    secret: SecretString,
    min_score: f64,
    verify_url: String,
}

#[derive(Debug, Deserialize)]
struct SiteVerify {
    success: bool,
    #[serde(default)]
    score: f64,
    #[serde(default)]
    action: String,
}

impl CaptchaVerifier for Recaptcha {
    fn verify<'a>(&'a self, token: &'a str, action: &'a str, remote_ip: &'a str) -> Verdict<'a> {
        Box::pin(async move {
            if token.is_empty() {
                return Err(CaptchaError::Refused);
            }
            let form = [
                ("secret", self.secret.expose_secret()),
                ("response", token),
                ("remoteip", remote_ip),
            ];
            let answer: SiteVerify = self
                .client
                .post(&self.verify_url)
                .form(&form)
                .send()
                .await
                .and_then(reqwest::Response::error_for_status)
                .map_err(|error| CaptchaError::Unreachable(error.to_string()))?
                .json()
                .await
                .map_err(|error| CaptchaError::Unreachable(error.to_string()))?;
            if !answer.success {
                Err(CaptchaError::Refused)
            } else if answer.action != action {
                Err(CaptchaError::WrongAction(answer.action))
            } else if answer.score < self.min_score {
                Err(CaptchaError::LowScore(answer.score))
            } else {
                Ok(())
            }
        })
    }
}

/// The verifier the settings ask for: reCAPTCHA when a secret is configured.
pub fn from_settings(settings: &CaptchaSettings) -> anyhow::Result<Arc<dyn CaptchaVerifier>> {
    if settings.secret.expose_secret().is_empty() {
        return Ok(Arc::new(DevelopmentCaptcha));
    }
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(5))
        .build()?;
    Ok(Arc::new(Recaptcha {
        client,
        secret: settings.secret.clone(),
        min_score: settings.min_score,
        verify_url: settings.verify_url.clone(),
    }))
}
