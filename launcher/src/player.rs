//! What a player's browser sends that every driver of a running portal needs too: the smoke
//! journey, the benchmarks and the tests register players the same way.

use serde_json::{Value, json};

/// The captcha token the development portal accepts while no reCAPTCHA secret is set.
pub const DEV_CAPTCHA: &str = "dev-captcha";

/// The body of `POST /api/auth/register` for `username`, at `<username>@<mail_domain>`, as the
/// SPA's four-step form sends it (born 2000-01-01, no newsletter, the development captcha).
pub fn registration(username: &str, mail_domain: &str, password: &str) -> Value {
    json!({
        "email": format!("{username}@{mail_domain}"),
        "receiveNewsletter": false,
        "dob": "2000-01-01",
        "username": username,
        "password": password,
        "passwordConfirm": password,
        "gReCaptchaToken": DEV_CAPTCHA,
    })
}
