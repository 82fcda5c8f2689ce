//! Sign-in throttling in Redis, per normalised username and per client IP. Failures within a
//! 15-minute window past a free allowance impose a wait that doubles with each further failure
//! and never exceeds 15 minutes, so nobody can lock a player out for long.

use std::time::Duration;

use redis::{AsyncCommands, aio::ConnectionManager};

use crate::error::ApiError;

const WINDOW: Duration = Duration::from_secs(15 * 60);
const MAX_WAIT: Duration = Duration::from_secs(15 * 60);
const FREE_FAILURES_PER_ACCOUNT: u32 = 5;
const FREE_FAILURES_PER_IP: u32 = 20;

#[derive(Clone)]
pub struct LoginThrottle {
    redis: ConnectionManager,
    prefix: String,
}

/// The wait after the `failures`-th failure: none within the allowance, then 1 s, 2 s, 4 s…
fn wait_after(failures: u32, free: u32) -> Option<Duration> {
    let over = failures.checked_sub(free)?;
    Some(Duration::from_secs(1u64 << over.min(20)).min(MAX_WAIT))
}

impl LoginThrottle {
    pub fn new(redis: ConnectionManager, key_prefix: &str) -> Self {
        Self {
            redis,
            prefix: format!("{key_prefix}:login"),
        }
    }

    fn keys(&self, username: &str, ip: &str) -> [(String, String, u32); 2] {
        [
            (
                format!("{}:fail:user:{username}", self.prefix),
                format!("{}:wait:user:{username}", self.prefix),
                FREE_FAILURES_PER_ACCOUNT,
            ),
            (
                format!("{}:fail:ip:{ip}", self.prefix),
                format!("{}:wait:ip:{ip}", self.prefix),
                FREE_FAILURES_PER_IP,
            ),
        ]
    }

    /// Seconds to wait before another attempt is allowed, if any.
    pub async fn retry_after(&self, username: &str, ip: &str) -> redis::RedisResult<Option<u64>> {
        let mut redis = self.redis.clone();
        let mut longest = None;
        for (_, wait_key, _) in self.keys(username, ip) {
            let ttl: i64 = redis.pttl(&wait_key).await?;
            if ttl > 0 {
                let seconds = (ttl as u64).div_ceil(1000);
                longest = Some(longest.map_or(seconds, |current: u64| current.max(seconds)));
            }
        }
        Ok(longest)
    }

    pub async fn record_failure(&self, username: &str, ip: &str) -> redis::RedisResult<()> {
        let mut redis = self.redis.clone();
        for (fail_key, wait_key, free) in self.keys(username, ip) {
            let failures: u32 = redis.incr(&fail_key, 1).await?;
            if failures == 1 {
                let _: bool = redis.expire(&fail_key, WINDOW.as_secs() as i64).await?;
            }
            if let Some(wait) = wait_after(failures, free) {
                let () = redis.pset_ex(&wait_key, 1, wait.as_millis() as u64).await?;
            }
        }
        Ok(())
    }

    /// A successful sign-in clears the account's failures; the IP's stay counted.
    pub async fn record_success(&self, username: &str, ip: &str) -> redis::RedisResult<()> {
        let mut redis = self.redis.clone();
        let [(fail_key, wait_key, _), _] = self.keys(username, ip);
        let _: i64 = redis.del(&[fail_key, wait_key]).await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_starts_after_the_allowance_doubles_and_is_capped() {
        assert_eq!(wait_after(5, 5), Some(Duration::from_secs(1)));
        assert_eq!(wait_after(4, 5), None);
        assert_eq!(wait_after(6, 5), Some(Duration::from_secs(2)));
        assert_eq!(wait_after(9, 5), Some(Duration::from_secs(16)));
        assert_eq!(wait_after(40, 5), Some(MAX_WAIT));
    }
}

/// One action per key per period (e.g. one verification email a minute), in Redis.
#[derive(Clone)]
pub struct Cooldowns {
    redis: ConnectionManager,
    prefix: String,
}

impl Cooldowns {
    pub fn new(redis: ConnectionManager, key_prefix: &str) -> Self {
        Self {
            redis,
            prefix: format!("{key_prefix}:cooldown"),
        }
    }

    /// Starts the cooldown of `action` for `subject`, or returns the seconds left of the
    /// running one.
    pub async fn start(
        &self,
        action: &str,
        subject: &str,
        period: Duration,
    ) -> redis::RedisResult<Option<u64>> {
        let key = format!("{}:{action}:{subject}", self.prefix);
        let mut redis = self.redis.clone();
        let started: bool = redis::cmd("SET")
            .arg(&key)
            .arg(1)
            .arg("NX")
            .arg("PX")
            .arg(period.as_millis() as u64)
            .query_async::<Option<String>>(&mut redis)
            .await?
            .is_some();
        if started {
            return Ok(None);
        }
        let ttl: i64 = redis.pttl(&key).await?;
        Ok(Some((ttl.max(1) as u64).div_ceil(1000)))
    }

    /// [`Self::start`] for a request the player makes: a running cooldown answers 429 with
    /// Retry-After.
    pub async fn require(&self, action: &str, subject: &str, period: Duration) -> Result<(), ApiError> {
        match self.start(action, subject, period).await? {
            Some(retry_after_seconds) => Err(ApiError::TooManyRequests { retry_after_seconds }),
            None => Ok(()),
        }
    }
}
