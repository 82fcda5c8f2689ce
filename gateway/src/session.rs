//! Sessions live in Redis under an opaque random id; the browser holds only that id, in an
//! HttpOnly cookie. Every session carries its own XSRF token, and a sign-in always starts a
//! new session (new id, new token), so a planted id is worthless.

use std::time::Duration;

use axum_extra::extract::{
    CookieJar,
    cookie::{Cookie, SameSite},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use rand::RngCore;
use redis::{AsyncCommands, aio::ConnectionManager};
use serde::{Deserialize, Serialize};

pub const SESSION_COOKIE: &str = "kid_session";
pub const XSRF_COOKIE: &str = "XSRF-TOKEN";
/// The support console's own cookies: a staff session is not a player's, and a browser signed
/// in as both keeps them apart.
pub const STAFF_SESSION_COOKIE: &str = "kid_staff_session";
pub const STAFF_XSRF_COOKIE: &str = "STAFF-XSRF-TOKEN";
pub const XSRF_HEADER: &str = "x-xsrf-token";
/// A random id the browser keeps for 400 days (the longest a browser keeps a cookie), so a
/// sign-in from a device the player never used can be told apart (identity mails them).
pub const DEVICE_COOKIE: &str = "kid_device";
const DEVICE_COOKIE_DAYS: i64 = 400;

/// How long sessions last (the gateway's settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetimes {
    /// A browser-session sign-in nobody uses ends after this.
    pub idle: Duration,
    /// A browser-session sign-in ends this long after it started, however much it is used.
    pub absolute: Duration,
    /// A remember-me sign-in ends this long after it started.
    pub remember: Duration,
}

impl Lifetimes {
    pub fn from_settings(settings: &kid_platform::config::GatewaySettings) -> Self {
        Self {
            idle: Duration::from_secs(settings.session_idle_seconds),
            absolute: Duration::from_secs(settings.session_lifetime_seconds),
            remember: Duration::from_secs(settings.session_remember_seconds),
        }
    }

    /// A console session: the staff idle timeout, a working day at most, no remember-me.
    pub fn for_staff(settings: &kid_platform::config::GatewaySettings) -> Self {
        let absolute = Duration::from_secs(settings.staff_session_lifetime_seconds);
        Self {
            idle: Duration::from_secs(settings.staff_session_idle_seconds),
            absolute,
            remember: absolute,
        }
    }

    /// The longest any session lives: how long a player's index of sessions is kept.
    fn longest(&self) -> Duration {
        self.remember.max(self.absolute)
    }

    /// Seconds the session may still live at `now`: its absolute end, and for a
    /// browser-session sign-in the idle timeout from now, whichever is sooner. Zero: it ended.
    fn left(&self, data: &SessionData, now: i64) -> u64 {
        let absolute = if data.remember {
            self.remember
        } else {
            self.absolute
        };
        let end = data.created_at.saturating_add(absolute.as_secs() as i64);
        let left = end.saturating_sub(now).max(0) as u64;
        if data.remember {
            left
        } else {
            left.min(self.idle.as_secs())
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SessionData {
    pub xsrf_token: String,
    /// The signed-in player, if any.
    pub user_id: Option<String>,
    /// Remember-me: a persistent cookie and a fixed 30-day lifetime instead of the idle timeout.
    #[serde(default)]
    pub remember: bool,
    /// Where the sign-in came from, for the player's list of sessions.
    #[serde(default)]
    pub client: Client,
    /// Unix seconds.
    #[serde(default)]
    pub created_at: i64,
    /// Unix seconds, refreshed at most once a minute.
    #[serde(default)]
    pub last_seen_at: i64,
    /// A sign-in whose password was right and which waits for its second factor. The session
    /// is not signed in meanwhile (`user_id` is `None`).
    #[serde(default)]
    pub pending: Option<PendingSignIn>,
    /// A staff session: when the member last gave their password or app code (unix seconds).
    #[serde(default)]
    pub reauthenticated_at: i64,
    /// A staff session: the role the member signed in with. Once an admin changes it, the
    /// session ends: the member signs in again under the new role.
    #[serde(default)]
    pub staff_role: Option<String>,
}

impl SessionData {
    /// A session starting now: a new XSRF token, nothing pending, no staff role.
    fn fresh(user_id: Option<String>, remember: bool, client: Client) -> Self {
        let now = now();
        Self {
            xsrf_token: random_token(),
            user_id,
            remember,
            client,
            created_at: now,
            last_seen_at: now,
            pending: None,
            reauthenticated_at: now,
            staff_role: None,
        }
    }
}

/// The player a sign-in waiting for its second factor will sign in, and how.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct PendingSignIn {
    pub user_id: String,
    pub remember: bool,
}

/// The browser and address a session signed in from.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Client {
    pub user_agent: String,
    pub ip: String,
}

/// How often a session's last-seen time is written back.
const LAST_SEEN_RESOLUTION: i64 = 60;

fn now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// What the player may see of a session id: a one-way handle, so ids never leave the server.
pub fn handle(id: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(id.as_bytes())[..12])
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
    lifetimes: Lifetimes,
    /// The session cookie's and the XSRF cookie's names.
    cookies: (&'static str, &'static str),
}

impl SessionStore {
    pub fn new(
        redis: ConnectionManager,
        key_prefix: &str,
        secure_cookies: bool,
        lifetimes: Lifetimes,
    ) -> Self {
        Self {
            redis,
            prefix: format!("{key_prefix}:session:"),
            secure_cookies,
            lifetimes,
            cookies: (SESSION_COOKIE, XSRF_COOKIE),
        }
    }

    /// The support console's sessions: their own keys and cookies, and no remember-me.
    pub fn for_staff(
        redis: ConnectionManager,
        key_prefix: &str,
        secure_cookies: bool,
        lifetimes: Lifetimes,
    ) -> Self {
        Self {
            redis,
            prefix: format!("{key_prefix}:staff-session:"),
            secure_cookies,
            lifetimes,
            cookies: (STAFF_SESSION_COOKIE, STAFF_XSRF_COOKIE),
        }
    }

    /// How long a session may go unused.
    pub fn idle_seconds(&self) -> u64 {
        self.lifetimes.idle.as_secs()
    }

    /// The name of the cookie holding this store's XSRF token.
    pub fn xsrf_cookie(&self) -> &'static str {
        self.cookies.1
    }

    /// Writes a signed-in session's data back, keeping its time to live.
    pub async fn save(&self, session: &Session) -> redis::RedisResult<()> {
        let mut redis = self.redis.clone();
        let raw = serde_json::to_string(&session.data).unwrap_or_default();
        let _: Option<String> = redis::cmd("SET")
            .arg(self.key(&session.id))
            .arg(raw)
            .arg("KEEPTTL")
            .arg("XX")
            .query_async(&mut redis)
            .await?;
        Ok(())
    }

    /// Clears this store's cookies (signing out).
    pub fn clear_cookies(&self, jar: CookieJar) -> CookieJar {
        jar.remove(Cookie::build(self.cookies.0).path("/"))
            .remove(Cookie::build(self.cookies.1).path("/"))
    }

    fn key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }

    /// The ids of a player's sessions (some may have expired since).
    fn index_key(&self, user_id: &str) -> String {
        format!("{}user:{user_id}", self.prefix)
    }

    /// The session named by `id`; a browser-session sign-in's idle timeout restarts, up to its
    /// absolute end. A session past its absolute end is deleted.
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
        let raw: Option<String> = redis.get(&key).await?;
        let Some(mut data) = raw.and_then(|raw| serde_json::from_str::<SessionData>(&raw).ok()) else {
            return Ok(None);
        };
        let left = self.lifetimes.left(&data, now());
        if left == 0 {
            self.destroy(id).await?;
            return Ok(None);
        }
        if data.user_id.is_some() && now() - data.last_seen_at >= LAST_SEEN_RESOLUTION {
            data.last_seen_at = now();
            let raw = serde_json::to_string(&data).unwrap_or_default();
            let _: Option<String> = redis::cmd("SET")
                .arg(&key)
                .arg(raw)
                .arg("KEEPTTL")
                .arg("XX")
                .query_async(&mut redis)
                .await?;
        }
        if !data.remember {
            let _: bool = redis.expire(&key, left as i64).await?;
        }
        Ok(Some(Session {
            id: id.to_owned(),
            data,
        }))
    }

    /// The session named by the request's cookie, if it exists.
    pub async fn from_jar(&self, jar: &CookieJar) -> redis::RedisResult<Option<Session>> {
        match jar.get(self.cookies.0) {
            Some(cookie) => self.load(cookie.value()).await,
            None => Ok(None),
        }
    }

    /// Signs `user_id` in under `id` (a brand-new id from [`random_token`], whose handle the
    /// sign-in history already holds) and a new XSRF token; the previous session, if any, is
    /// deleted.
    pub async fn sign_in(
        &self,
        previous: Option<&Session>,
        id: String,
        user_id: &str,
        remember: bool,
        client: Client,
    ) -> redis::RedisResult<Session> {
        if let Some(previous) = previous {
            self.destroy(&previous.id).await?;
        }
        let data = SessionData::fresh(Some(user_id.to_owned()), remember, client);
        self.start(id, data).await
    }

    /// A staff member's sign-in, as [`Self::sign_in`] (never remembered), holding the role the
    /// console compares with the member's current one on every request.
    pub async fn sign_in_staff(
        &self,
        previous: Option<&Session>,
        id: String,
        member_id: &str,
        role: &str,
        client: Client,
    ) -> redis::RedisResult<Session> {
        if let Some(previous) = previous {
            self.destroy(&previous.id).await?;
        }
        let data = SessionData {
            staff_role: Some(role.to_owned()),
            ..SessionData::fresh(Some(member_id.to_owned()), false, client)
        };
        self.start(id, data).await
    }

    /// A sign-in whose password was right, waiting for `user_id`'s second factor, under a
    /// brand-new session id that is not signed in; the previous session, if any, is deleted.
    pub async fn await_second_factor(
        &self,
        previous: Option<&Session>,
        user_id: &str,
        remember: bool,
        client: Client,
    ) -> redis::RedisResult<Session> {
        if let Some(previous) = previous {
            self.destroy(&previous.id).await?;
        }
        let pending = PendingSignIn {
            user_id: user_id.to_owned(),
            remember,
        };
        // A browser session however the player asked to be remembered: it only waits for a code.
        let data = SessionData {
            pending: Some(pending),
            ..SessionData::fresh(None, false, client)
        };
        self.start(random_token(), data).await
    }

    async fn start(&self, id: String, data: SessionData) -> redis::RedisResult<Session> {
        let session = Session { id, data };
        let mut redis = self.redis.clone();
        let raw = serde_json::to_string(&session.data).unwrap_or_default();
        let lifetime = self.lifetimes.left(&session.data, session.data.created_at).max(1);
        let () = redis.set_ex(self.key(&session.id), raw, lifetime).await?;
        if let Some(user_id) = &session.data.user_id {
            // Kept as long as the longest session can live from now, so every live session of
            // the player stays findable (a password change revokes them all).
            let index = self.index_key(user_id);
            let _: i64 = redis.sadd(&index, &session.id).await?;
            let _: bool = redis
                .expire(&index, self.lifetimes.longest().as_secs() as i64)
                .await?;
        }
        Ok(session)
    }

    pub async fn destroy(&self, id: &str) -> redis::RedisResult<()> {
        let mut redis = self.redis.clone();
        let key = self.key(id);
        let raw: Option<String> = redis.get(&key).await?;
        let _: i64 = redis.del(&key).await?;
        if let Some(user_id) = raw
            .and_then(|raw| serde_json::from_str::<SessionData>(&raw).ok())
            .and_then(|data| data.user_id)
        {
            let _: i64 = redis.srem(self.index_key(&user_id), id).await?;
        }
        Ok(())
    }

    /// Signs the player out everywhere: every session of theirs is deleted.
    pub async fn destroy_all_of(&self, user_id: &str) -> redis::RedisResult<()> {
        self.destroy_others_of(user_id, None).await
    }

    /// The player's live sessions, most recently used first (ids whose session expired are
    /// dropped from the index on the way).
    pub async fn list_of(&self, user_id: &str) -> redis::RedisResult<Vec<Session>> {
        let mut redis = self.redis.clone();
        let index = self.index_key(user_id);
        let ids: Vec<String> = redis.smembers(&index).await?;
        let mut sessions = Vec::new();
        for id in ids {
            let raw: Option<String> = redis.get(self.key(&id)).await?;
            match raw.and_then(|raw| serde_json::from_str::<SessionData>(&raw).ok()) {
                Some(data) => sessions.push(Session { id, data }),
                None => {
                    let _: i64 = redis.srem(&index, &id).await?;
                }
            }
        }
        sessions.sort_by_key(|session| std::cmp::Reverse(session.data.last_seen_at));
        Ok(sessions)
    }

    /// Deletes every session of the player but `keep`.
    pub async fn destroy_others_of(&self, user_id: &str, keep: Option<&str>) -> redis::RedisResult<()> {
        let mut redis = self.redis.clone();
        let index = self.index_key(user_id);
        let ids: Vec<String> = redis.smembers(&index).await?;
        let others: Vec<&String> = ids.iter().filter(|id| Some(id.as_str()) != keep).collect();
        if !others.is_empty() {
            let keys: Vec<String> = others.iter().map(|id| self.key(id)).collect();
            let _: i64 = redis.del(keys).await?;
            let _: i64 = redis.srem(&index, others).await?;
        }
        Ok(())
    }

    pub async fn ping(&self) -> redis::RedisResult<()> {
        let mut redis = self.redis.clone();
        redis::cmd("PING")
            .query_async::<String>(&mut redis)
            .await
            .map(drop)
    }

    fn cookie(
        &self,
        name: &'static str,
        value: String,
        http_only: bool,
        session: &Session,
    ) -> Cookie<'static> {
        let mut cookie = Cookie::build((name, value))
            .http_only(http_only)
            .secure(self.secure_cookies)
            .same_site(SameSite::Lax)
            .path("/")
            .build();
        if session.data.remember {
            cookie.set_max_age(time::Duration::seconds(self.lifetimes.remember.as_secs() as i64));
        }
        cookie
    }

    /// The browser's device id, and its cookie, made now when it had none.
    pub fn device(&self, jar: CookieJar) -> (CookieJar, String) {
        if let Some(device) = jar.get(DEVICE_COOKIE).map(|cookie| cookie.value().to_owned())
            && !device.is_empty()
            && device.len() <= 64
        {
            return (jar, device);
        }
        let device = random_token();
        let cookie = Cookie::build((DEVICE_COOKIE, device.clone()))
            .http_only(true)
            .secure(self.secure_cookies)
            .same_site(SameSite::Lax)
            .path("/")
            .max_age(time::Duration::days(DEVICE_COOKIE_DAYS))
            .build();
        (jar.add(cookie), device)
    }

    /// An anonymous caller's `XSRF-TOKEN` (see [`crate::csrf`]), for the browser session.
    pub fn set_anonymous_xsrf(&self, jar: CookieJar, token: String) -> CookieJar {
        jar.add(
            Cookie::build((self.cookies.1, token))
                .http_only(false)
                .secure(self.secure_cookies)
                .same_site(SameSite::Lax)
                .path("/")
                .build(),
        )
    }

    /// The HttpOnly session cookie and the `XSRF-TOKEN` cookie the SPA reads and echoes.
    pub fn set_cookies(&self, jar: CookieJar, session: &Session) -> CookieJar {
        jar.add(self.cookie(self.cookies.0, session.id.clone(), true, session))
            .add(self.cookie(self.cookies.1, session.data.xsrf_token.clone(), false, session))
    }
}

/// The signed-in player of a request; a request without one is answered 401.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub user_id: String,
    pub session_id: String,
}

/// Any router state that holds the session store (the gateway's `AppState`) can ask for it.
impl<S> axum::extract::FromRequestParts<S> for SignedIn
where
    S: Send + Sync,
    SessionStore: axum::extract::FromRef<S>,
{
    type Rejection = crate::error::ApiError;

    async fn from_request_parts(
        parts: &mut http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        let jar = CookieJar::from_headers(&parts.headers);
        <SessionStore as axum::extract::FromRef<S>>::from_ref(state)
            .from_jar(&jar)
            .await?
            .and_then(|session| {
                let user_id = session.data.user_id?;
                Some(Self {
                    user_id,
                    session_id: session.id,
                })
            })
            .ok_or(crate::error::ApiError::Unauthenticated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lifetimes() -> Lifetimes {
        Lifetimes {
            idle: Duration::from_secs(100),
            absolute: Duration::from_secs(1_000),
            remember: Duration::from_secs(10_000),
        }
    }

    fn session(remember: bool) -> SessionData {
        SessionData {
            xsrf_token: String::new(),
            user_id: Some("u".into()),
            remember,
            client: Client::default(),
            created_at: 50_000,
            last_seen_at: 50_000,
            pending: None,
            reauthenticated_at: 0,
            staff_role: None,
        }
    }

    /// The seconds a session (a browser's, or a remembered one) has left at each `(now, left)`.
    fn assert_left(remember: bool, cases: &[(i64, u64)]) {
        for &(now, left) in cases {
            assert_eq!(lifetimes().left(&session(remember), now), left, "at {now}");
        }
    }

    #[test]
    fn a_browser_session_lives_the_idle_timeout_until_its_absolute_end() {
        assert_left(false, &[(50_000, 100), (50_950, 50), (51_000, 0), (60_000, 0)]);
    }

    #[test]
    fn a_remember_me_session_ignores_idleness_but_not_its_end() {
        assert_left(true, &[(50_000, 10_000), (59_999, 1), (60_000, 0)]);
        assert_eq!(lifetimes().longest(), Duration::from_secs(10_000));
    }
}
