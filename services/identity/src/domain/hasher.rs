//! Password hashing with argon2id, bounded: a few hashes at a time per core, a short queue, and
//! "busy" past it, so a flood of sign-ins cannot take the service's memory or every core.

use std::sync::Arc;

use argon2::{
    ARGON2ID_IDENT, Algorithm, Argon2, Block, Params, PasswordHash, Version,
    password_hash::phc::{Output, ParamsString, Salt},
};
use rand::RngCore;
use tokio::sync::Semaphore;

use super::{Password, password::normalise};

/// How a password compared with a stored hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Wrong,
    Right,
    /// Right as typed but not once normalised: a hash made before passwords were
    /// NFKC-normalised, which the sign-in replaces ([`PasswordHasher::rehash`]).
    RightUnnormalised,
}

#[derive(Debug, thiserror::Error)]
pub enum HashError {
    #[error("password hashing failed: {0}")]
    Hash(String),
    /// Every core is hashing and the queue is full: answer "busy, retry" rather than queue
    /// without bound.
    #[error("password hashing is at capacity")]
    Busy,
}

impl From<argon2::Error> for HashError {
    fn from(error: argon2::Error) -> Self {
        Self::Hash(error.to_string())
    }
}

impl From<argon2::password_hash::Error> for HashError {
    fn from(error: argon2::password_hash::Error) -> Self {
        Self::Hash(error.to_string())
    }
}

impl From<argon2::password_hash::phc::Error> for HashError {
    fn from(error: argon2::password_hash::phc::Error) -> Self {
        Self::Hash(error.to_string())
    }
}

/// How many hashes may wait for a core, per core, before more are refused as busy.
const QUEUED_PER_CORE: usize = 4;

/// The hashing threads' niceness, on the cross-platform 0–99 scale where 50 is normal: below
/// normal, so that when sign-ins saturate the cores the scheduler still runs the requests that
/// do not hash (a player's `/api/me`) first, and hashing takes the rest.
const HASHING_PRIORITY: u8 = 20;

thread_local! {
    /// Each hashing thread's memory for argon2, allocated on its first hash and reused.
    static MEMORY: std::cell::RefCell<Vec<Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// argon2id with m=19456 KiB, t=2, p=1, on a pool of one thread per core at lower priority,
/// each with its own memory (allocated once, reused): a flood of sign-ins neither grows memory
/// past one buffer per core nor starves other requests. A few more wait; past that the hasher
/// answers [`HashError::Busy`].
#[derive(Clone)]
pub struct PasswordHasher {
    /// Running and waiting hashes together.
    admitted: Arc<Semaphore>,
    pool: Arc<rayon::ThreadPool>,
    /// Verified against when the username is unknown, so that answer takes as long as a
    /// wrong password.
    decoy: Arc<str>,
}

/// Stored hashes asking for more than this are refused rather than computed.
const MAX_M_COST: u32 = 64 * 1024;
const MAX_T_COST: u32 = 8;
const MAX_P_COST: u32 = 4;

const OUR_M_COST: u32 = 19_456;

fn params() -> Result<Params, HashError> {
    Ok(Params::new(OUR_M_COST, 2, 1, None)?)
}

/// A buffer for a hash with our parameters (a stored hash asking for more, within the caps,
/// grows it for that one check).
fn new_buffer() -> Vec<Block> {
    vec![Block::default(); OUR_M_COST as usize]
}

/// The argon2id hash of `password` under a new random salt, as a PHC string.
fn hash_in(memory: &mut [Block], password: &str) -> Result<String, HashError> {
    let params = params()?;
    let mut salt = [0u8; 16];
    rand::rng().fill_bytes(&mut salt);
    let mut out = [0u8; 32];
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone()).hash_password_into_with_memory(
        password.as_bytes(),
        &salt,
        &mut out,
        &mut memory[..params.block_count()],
    )?;
    let hash = PasswordHash {
        algorithm: ARGON2ID_IDENT,
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params)?,
        salt: Some(Salt::new(&salt)?),
        hash: Some(Output::new(&out)?),
    };
    Ok(hash.to_string())
}

/// Whether `password` matches the PHC string `stored`, computed in `memory`.
fn verify_in(memory: &mut Vec<Block>, password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else {
        return false;
    };
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    if params.m_cost() > MAX_M_COST || params.t_cost() > MAX_T_COST || params.p_cost() > MAX_P_COST {
        tracing::warn!("stored password hash exceeds the parameter caps");
        return false;
    }
    let (Ok(algorithm), Some(salt), Some(expected)) = (
        Algorithm::try_from(parsed.algorithm.as_str()),
        parsed.salt,
        parsed.hash,
    ) else {
        return false;
    };
    let Ok(version) = parsed.version.map_or(Ok(Version::default()), Version::try_from) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    let blocks = params.block_count();
    if blocks > memory.len() {
        memory.resize(blocks, Block::default());
    }
    let computed = Argon2::new(algorithm, version, params).hash_password_into_with_memory(
        password.as_bytes(),
        &salt,
        &mut out,
        &mut memory[..blocks],
    );
    if memory.len() > OUR_M_COST as usize {
        memory.truncate(OUR_M_COST as usize);
        memory.shrink_to_fit();
    }
    // Output's equality is constant-time.
    computed.is_ok() && Output::new(&out).is_ok_and(|computed| computed == expected)
}

impl PasswordHasher {
    pub fn new() -> Result<Self, HashError> {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let decoy = hash_in(&mut new_buffer(), "decoy password that no account has")?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(cores)
            .thread_name(|n| format!("argon2-{n}"))
            // A panicking hash fails its own call (its answer is dropped), not the process.
            .panic_handler(|_| tracing::error!("password hashing panicked"))
            .start_handler(|_| {
                let priority = thread_priority::ThreadPriorityValue::try_from(HASHING_PRIORITY)
                    .map(thread_priority::ThreadPriority::Crossplatform);
                if let Err(error) = priority.map(thread_priority::set_current_thread_priority) {
                    tracing::warn!(?error, "hashing thread keeps the normal priority");
                }
            })
            .build()
            .map_err(|error| HashError::Hash(error.to_string()))?;
        Ok(Self {
            admitted: Arc::new(Semaphore::new(cores * (1 + QUEUED_PER_CORE))),
            pool: Arc::new(pool),
            decoy: decoy.into(),
        })
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
    ) -> Result<T, HashError> {
        let _admitted = self.admitted.try_acquire().map_err(|_| HashError::Busy)?;
        let (answer, result) = tokio::sync::oneshot::channel();
        self.pool.spawn(move || {
            let outcome = MEMORY.with_borrow_mut(|memory| {
                if memory.is_empty() {
                    *memory = new_buffer();
                }
                work(memory)
            });
            let _ = answer.send(outcome);
        });
        result
            .await
            .map_err(|_| HashError::Hash("the hashing thread dropped the work".into()))
    }

    pub async fn hash(&self, password: &Password) -> Result<String, HashError> {
        let password = password.expose().to_owned();
        self.run(move |memory| hash_in(memory, &password)).await?
    }

    /// A new hash of a password that already verified, normalised as new ones are (its owner
    /// chose it under older rules, which it need not meet).
    pub async fn rehash(&self, verified: &str) -> Result<String, HashError> {
        let password = normalise(verified);
        self.run(move |memory| hash_in(memory, &password)).await?
    }

    /// How `password` compares with `stored`: normalised first, as every hash is made now,
    /// then as typed when that differs (hashes from before normalisation). With no stored
    /// hash, a decoy is checked so the time taken does not reveal that the account does not
    /// exist.
    pub async fn check(&self, password: &str, stored: Option<&str>) -> Result<Verdict, HashError> {
        let normalised = normalise(password);
        let as_typed = (normalised != password).then(|| password.to_owned());
        let known = stored.is_some();
        let stored = stored.map_or_else(|| self.decoy.to_string(), str::to_owned);
        let verdict = self
            .run(move |memory| {
                if verify_in(memory, &normalised, &stored) {
                    Verdict::Right
                } else if as_typed.is_some_and(|raw| verify_in(memory, &raw, &stored)) {
                    Verdict::RightUnnormalised
                } else {
                    Verdict::Wrong
                }
            })
            .await?;
        Ok(if known { verdict } else { Verdict::Wrong })
    }

    /// Whether `password` matches `stored` (see [`Self::check`]).
    pub async fn verify(&self, password: &str, stored: Option<&str>) -> Result<bool, HashError> {
        Ok(self.check(password, stored).await? != Verdict::Wrong)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Strength;

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let hasher = PasswordHasher::new().expect("hasher");
        let password = Password::parse("Demo@123456", Strength::Medium).expect("password");
        let stored = hasher.hash(&password).await.expect("hash");
        assert!(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(hasher.verify("Demo@123456", Some(&stored)).await.expect("verify"));
        assert!(
            !hasher
                .verify("Demo@1234567", Some(&stored))
                .await
                .expect("verify")
        );
        assert!(!hasher.verify("Demo@123456", None).await.expect("verify"));
    }

    #[tokio::test]
    async fn hashes_made_by_the_library_itself_still_verify() {
        use argon2::PasswordHasher as _;
        let hasher = PasswordHasher::new().expect("hasher");
        let stored = Argon2::new(Algorithm::Argon2id, Version::V0x13, params().expect("params"))
            .hash_password(b"Demo@123456")
            .expect("hash")
            .to_string();
        assert!(hasher.verify("Demo@123456", Some(&stored)).await.expect("verify"));
        assert!(!hasher.verify("Demo@12345", Some(&stored)).await.expect("verify"));
    }

    #[tokio::test]
    async fn past_the_queue_a_flood_is_answered_busy() {
        let hasher = PasswordHasher::new().expect("hasher");
        let capacity = hasher.admitted.available_permits();
        let outcomes =
            futures::future::join_all((0..capacity + 20).map(|_| hasher.verify("Demo@123456", None))).await;
        let busy = outcomes
            .iter()
            .filter(|outcome| matches!(outcome, Err(HashError::Busy)))
            .count();
        assert!(busy >= 20, "{busy} of {} refused", outcomes.len());
        assert_eq!(
            hasher.admitted.available_permits(),
            capacity,
            "every permit came back"
        );
        assert_eq!(
            hasher.pool.current_num_threads(),
            std::thread::available_parallelism().map_or(2, usize::from),
            "one hashing thread per core"
        );
    }

    #[tokio::test]
    async fn a_hash_with_excessive_parameters_is_refused() {
        let hasher = PasswordHasher::new().expect("hasher");
        let greedy = "$argon2id$v=19$m=4194304,t=2,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG";
        assert!(!hasher.verify("anything", Some(greedy)).await.expect("verify"));
    }

    #[tokio::test]
    async fn a_hash_made_before_normalising_still_verifies_and_is_told_apart() {
        let hasher = PasswordHasher::new().expect("hasher");
        let combining = "Ma\u{323}\u{302}t-kha\u{302}\u{309}u-2024";
        let precomposed = "M\u{1EAD}t-kh\u{1EA9}u-2024";
        let legacy = hash_in(&mut new_buffer(), combining).expect("hash");
        assert_eq!(
            hasher.check(combining, Some(&legacy)).await.expect("check"),
            Verdict::RightUnnormalised
        );
        // Typed the other way it never matched the old hash, and still does not.
        assert_eq!(
            hasher.check(precomposed, Some(&legacy)).await.expect("check"),
            Verdict::Wrong
        );
        let renewed = hasher.rehash(combining).await.expect("rehash");
        for typed in [combining, precomposed] {
            assert_eq!(
                hasher.check(typed, Some(&renewed)).await.expect("check"),
                Verdict::Right
            );
        }
    }
}
