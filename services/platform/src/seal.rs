//! Secrets at rest: AES-256-GCM under the SHA-256 of a configured key, a random 96-bit nonce
//! before the ciphertext, and what the secret belongs to (a row's id) as associated data, so a
//! sealed value copied to another row does not open. Identity seals TOTP secrets with it, payment
//! the PIN of a card it may have to ask the aggregator about again.

use aes_gcm::{
    Aes256Gcm, KeyInit, Nonce,
    aead::{Aead, Payload},
};
use sha2::{Digest, Sha256};

const NONCE_BYTES: usize = 12;

/// Seals and opens under one key.
#[derive(Clone)]
pub struct Seal {
    cipher: Aes256Gcm,
}

/// A sealed value that does not open: another key, another owner, or changed bytes.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("a sealed value does not open under this key for this owner")]
pub struct Unopened;

impl Seal {
    /// A seal under `key`: any bytes, a high-entropy secret from the settings.
    pub fn new(key: &[u8]) -> Self {
        let key = Sha256::digest(key);
        Self {
            cipher: Aes256Gcm::new(&key),
        }
    }

    /// `secret`, sealed for `owner`.
    pub fn seal(&self, owner: &[u8], secret: &[u8]) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_BYTES];
        rand::Rng::fill(&mut rand::rng(), &mut nonce);
        let payload = Payload {
            msg: secret,
            aad: owner,
        };
        let sealed = self
            .cipher
            .encrypt(&Nonce::from(nonce), payload)
            .expect("AES-GCM seals any message under 64 GiB");
        [nonce.as_slice(), &sealed].concat()
    }

    /// What `seal(owner, …)` sealed into `sealed`.
    pub fn open(&self, owner: &[u8], sealed: &[u8]) -> Result<Vec<u8>, Unopened> {
        let (nonce, sealed) = sealed.split_first_chunk::<NONCE_BYTES>().ok_or(Unopened)?;
        let payload = Payload {
            msg: sealed,
            aad: owner,
        };
        self.cipher
            .decrypt(&Nonce::from(*nonce), payload)
            .map_err(|_| Unopened)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_value_opens_only_under_its_key_for_its_owner() {
        let seal = Seal::new(b"key");
        let sealed = seal.seal(b"row-1", b"123456789012345");
        assert!(!sealed.windows(15).any(|window| window == b"123456789012345"));
        assert_eq!(
            seal.open(b"row-1", &sealed).as_deref(),
            Ok(&b"123456789012345"[..])
        );
        assert_eq!(seal.open(b"row-2", &sealed), Err(Unopened));
        assert_eq!(Seal::new(b"other").open(b"row-1", &sealed), Err(Unopened));
        let mut changed = sealed.clone();
        *changed.last_mut().expect("bytes") ^= 1;
        assert_eq!(seal.open(b"row-1", &changed), Err(Unopened));
        assert_eq!(seal.open(b"row-1", b"short"), Err(Unopened));
        assert_ne!(
            seal.seal(b"row-1", b"x"),
            seal.seal(b"row-1", b"x"),
            "a new nonce each time"
        );
    }
}
