//! Identity's use cases: registration and sign-in, the account's profile, password and
//! address, email verification, recovery and security codes. Each one's writes and the mail it
//! sends share one transaction; hashing a password (slow by design) happens outside any.

pub mod account;
pub mod closure;
pub mod console;
pub mod error;
pub mod export;
pub mod passkeys;
pub mod recovery;
pub mod registration;
pub mod security_code;
pub mod sign_ins;
pub mod staff;
pub mod tickets;
pub mod two_factor;
pub mod verification;

pub use error::Error;
