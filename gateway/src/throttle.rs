//! Throttling of password guesses in Redis: per normalised username, per client address, and
//! per player for the current password of change-password. Each attempt is counted *before*
//! its password is checked, so parallel guesses cannot slip past a limit between the check and
//! the count. Past a subject's free allowance within a 15-minute window, an attempt needs a
//! solved captcha: a guesser cannot lock the owner of a username (or the other players behind
//! a shared address) out, because a person passes the captcha and a script does not.
//! Subjects are kept as fixed-length hashes, never as the raw input.

use std::{sync::LazyLock, time::Duration};

use redis::{AsyncCommands, Script, aio::ConnectionManager};
use sha2::{Digest, Sha256};

use crate::error::ApiError;

const WINDOW: Duration = Duration::from_secs(15 * 60);

/// What is counted, and how many attempts each window allows without a captcha.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    name: &'static str,
    free: i64,
}

/// Sign-ins per normalised username.
pub const PER_USERNAME: Limit = Limit {
    name: "user",
    free: 5,
};
/// Sign-ins per client address: many players share one (net cafés, carrier NAT).
pub const PER_ADDRESS: Limit = Limit { name: "ip", free: 20 };
/// Giftcode redemptions refused for the code, per player: past it the player's guessing is
/// stopped (429) for the rest of the window, whatever the code.
pub const PER_GIFTCODE_PLAYER: Limit = Limit {
    name: "giftcode-player",
    free: 10,
};
/// Giftcode redemptions refused for the code, per client address (many players may share one;
/// a player already stopped counts no more here).
pub const PER_GIFTCODE_ADDRESS: Limit = Limit {
    name: "giftcode-ip",
    free: 50,
};
/// Second-factor codes (an authenticator's or a recovery code), per player: at sign-in, and
/// when turning two-factor on or off. No captcha lifts it (a code has a million values; a
/// guesser who got past the password must not get to try them).
pub const PER_SECOND_FACTOR: Limit = Limit {
    name: "second-factor",
    free: 5,
};
/// Web-vitals beacons (`POST /api/rum`) per client address: a player sends one or two per page,
/// and many players may share an address.
pub const PER_BEACON_ADDRESS: Limit = Limit {
    name: "rum-ip",
    free: 300,
};
/// Console sign-ins per staff username *and* client address: a guesser elsewhere cannot keep the
/// member out of the console. No captcha lifts it.
pub const PER_STAFF_USERNAME: Limit = Limit {
    name: "staff-user",
    free: 5,
};
/// Console re-authentications (password or app code), per staff member.
pub const PER_STAFF_REAUTH: Limit = Limit {
    name: "staff-reauth",
    free: 5,
};
/// Enrolment links that do not work and enrolments refused (an app code or a password), per
/// client address: no session is there to count by.
pub const PER_STAFF_ENROLMENT: Limit = Limit {
    name: "staff-enrol",
    free: 10,
};
/// Current-password checks of change-password, per player.
pub const PER_PASSWORD_CHECK: Limit = Limit {
    name: "password-check",
    free: 5,
};

/// Increments each key (starting its window on the first), and answers count and ms left of
/// each, in one round trip.
const COUNT: &str = r"
local out = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
  out[#out + 1] = n
  out[#out + 1] = redis.call('PTTL', key)
end
return out";

/// Takes an attempt back: decrements each key that still exists (one that expired meanwhile
/// must not come back without its window).
const RELEASE: &str = r"
for i, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then redis.call('DECR', key) end
end
return 0";

/// Loaded once per connection by hash (EVALSHA), not sent with every attempt.
static COUNT_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(COUNT));
static RELEASE_SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(RELEASE));

#[derive(Clone)]
pub struct AttemptThrottle {
    redis: ConnectionManager,
    prefix: String,
}

/// An attempt counted against its subjects, to be kept (a wrong password), released (not a
/// guess after all) or cleared (the right password).
#[derive(Debug)]
#[must_use = "an attempt is kept, released or cleared"]
pub struct Attempt {
    keys: Vec<(Limit, String)>,
    /// Seconds until the window of a subject past its allowance ends, if any is.
    pub over_limit: Option<u64>,
    /// This attempt is the first past a subject's allowance in its window: the moment to log.
    pub first_over: bool,
}

/// A fixed-length handle of what a player typed: keys never hold the raw input.
fn subject_hash(subject: &str) -> String {
    hex::encode(&Sha256::digest(subject.as_bytes())[..16])
}

impl AttemptThrottle {
    pub fn new(redis: ConnectionManager, key_prefix: &str) -> Self {
        Self {
            redis,
            prefix: format!("{key_prefix}:attempts"),
        }
    }

    fn key(&self, limit: Limit, subject: &str) -> String {
        format!("{}:{}:{}", self.prefix, limit.name, subject_hash(subject))
    }

    /// Counts one attempt against each subject before its secret is checked.
    pub async fn count(&self, subjects: &[(Limit, &str)]) -> redis::RedisResult<Attempt> {
        let keys: Vec<(Limit, String)> = subjects
            .iter()
            .map(|(limit, subject)| (*limit, self.key(*limit, subject)))
            .collect();
        let mut script = COUNT_SCRIPT.prepare_invoke();
        for (_, key) in &keys {
            script.key(key);
        }
        script.arg(WINDOW.as_millis() as u64);
        let counts: Vec<i64> = script.invoke_async(&mut self.redis.clone()).await?;
        let over_limit = keys
            .iter()
            .zip(counts.chunks(2))
            .filter(|((limit, _), pair)| pair[0] > limit.free)
            .map(|(_, pair)| (pair[1].max(1) as u64).div_ceil(1000))
            .max();
        let first_over = keys
            .iter()
            .zip(counts.chunks(2))
            .any(|((limit, _), pair)| pair[0] == limit.free + 1);
        Ok(Attempt {
            keys,
            over_limit,
            first_over,
        })
    }

    /// The attempt was not a guess (refused before the check, or the check could not run).
    pub async fn release(&self, attempt: Attempt) -> redis::RedisResult<()> {
        let mut script = RELEASE_SCRIPT.prepare_invoke();
        for (_, key) in &attempt.keys {
            script.key(key);
        }
        script
            .invoke_async::<i64>(&mut self.redis.clone())
            .await
            .map(drop)
    }

    /// The right password: the player's own count starts over. A shared address's count only
    /// takes this attempt back, so a guesser cannot reset it by signing in to their own account.
    pub async fn clear(&self, attempt: Attempt) -> redis::RedisResult<()> {
        let (address, own): (Vec<_>, Vec<_>) = attempt
            .keys
            .into_iter()
            .partition(|(limit, _)| *limit == PER_ADDRESS);
        if !own.is_empty() {
            let keys: Vec<String> = own.into_iter().map(|(_, key)| key).collect();
            let _: i64 = self.redis.clone().del(keys).await?;
        }
        self.release(Attempt {
            keys: address,
            over_limit: None,
            first_over: false,
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_are_kept_as_fixed_length_hashes() {
        let short = subject_hash("a");
        let long = subject_hash(&"x".repeat(1_000_000));
        assert_eq!(short.len(), 32);
        assert_eq!(long.len(), 32);
        assert_ne!(subject_hash("victim"), subject_hash("victim2"));
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
