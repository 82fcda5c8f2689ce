//! Sessions live in Redis under an opaque random id; the browser holds only that id, in an
//! HttpOnly cookie. Every session carries its own XSRF token.

use std::time::Duration;

use axum_extra::extract::cookie::{Cookie, SameSite};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use redis::{AsyncCommands, aio::ConnectionManager};
use serde::{Deserialize, Serialize};

pub const SESSION_COOKIE: &str = "kid_session";
pub const XSRF_COOKIE: &str = "XSRF-TOKEN";
pub const XSRF_HEADER: &str = "x-xsrf-token";

/// How long a session nobody uses survives.
const IDLE_TIMEOUT: Duration = Duration::from_secs(2 * 60 * 60);

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SessionData {
    pub xsrf_token: String,
    /// The signed-in player, if any.
    pub user_id: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub data: SessionData,
}

/// 256 random bits, URL-safe.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

#[derive(Clone)]
pub struct SessionStore {
    redis: ConnectionManager,
    prefix: String,
    secure_cookies: bool,
}

impl SessionStore {
    pub fn new(redis: ConnectionManager, key_prefix: &str, secure_cookies: bool) -> Self {
        Self {
            redis,
            prefix: format!("{key_prefix}:session:"),
            secure_cookies,
        }
    }

    fn key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }

    /// The session named by the cookie, refreshing its idle timeout.
    pub async fn load(&self, id: &str) -> redis::RedisResult<Option<Session>> {
        if id.len() != 43
            || !id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Ok(None);
        }
        let mut redis = self.redis.clone();
        let key = self.key(id);
        let raw: Option<String> = redis
            .get_ex(&key, redis::Expiry::EX(IDLE_TIMEOUT.as_secs()))
            .await?;
        Ok(raw
            .and_then(|raw| serde_json::from_str(&raw).ok())
            .map(|data| Session {
                id: id.to_owned(),
                data,
            }))
    }

    /// A new anonymous session with a fresh XSRF token.
    pub async fn create(&self) -> redis::RedisResult<Session> {
        let session = Session {
            id: random_token(),
            data: SessionData {
                xsrf_token: random_token(),
                user_id: None,
            },
        };
        self.save(&session).await?;
        Ok(session)
    }

    pub async fn save(&self, session: &Session) -> redis::RedisResult<()> {
        let mut redis = self.redis.clone();
        let raw = serde_json::to_string(&session.data).unwrap_or_default();
        redis
            .set_ex(self.key(&session.id), raw, IDLE_TIMEOUT.as_secs())
            .await
    }

    pub fn session_cookie(&self, session: &Session) -> Cookie<'static> {
        Cookie::build((SESSION_COOKIE, session.id.clone()))
            .http_only(true)
            .secure(self.secure_cookies)
            .same_site(SameSite::Lax)
            .path("/")
            .build()
    }

    /// Readable by the SPA, which echoes it in `X-XSRF-TOKEN`.
    pub fn xsrf_cookie(&self, session: &Session) -> Cookie<'static> {
        Cookie::build((XSRF_COOKIE, session.data.xsrf_token.clone()))
            .http_only(false)
            .secure(self.secure_cookies)
            .same_site(SameSite::Lax)
            .path("/")
            .build()
    }
}

impl SessionStore {
    pub async fn ping(&self) -> redis::RedisResult<()> {
        let mut redis = self.redis.clone();
        redis::cmd("PING")
            .query_async::<String>(&mut redis)
            .await
            .map(drop)
    }
}
