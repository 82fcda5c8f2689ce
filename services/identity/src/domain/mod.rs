//! Parsed values: once a `Username` or `Password` exists, it obeys the spec's rules. Each
//! parser's error is the spec's Vietnamese message for the field.

pub mod common_passwords;
pub mod device;
mod dob;
mod email;
pub mod hasher;
pub mod password;
pub mod profile;
mod username;

pub use dob::Dob;
pub use email::Email;
pub use hasher::PasswordHasher;
pub use password::{Password, Strength};
pub use profile::ProfileChange;
pub use username::Username;

pub use kid_platform::validation::FieldErrors;
