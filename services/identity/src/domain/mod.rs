//! Parsed values: once a `Username` or `Password` exists, it obeys the spec's rules. Each
//! parser's error is the spec's Vietnamese message for the field.

mod dob;
mod email;
pub mod password;
pub mod profile;
mod username;

pub use dob::Dob;
pub use email::Email;
pub use password::{Password, PasswordHasher, Strength};
pub use profile::ProfileChange;
pub use username::Username;

use std::collections::BTreeMap;

/// Per-field messages collected while parsing a request.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FieldErrors(BTreeMap<&'static str, Vec<String>>);

impl FieldErrors {
    pub fn add(&mut self, field: &'static str, message: impl Into<String>) {
        self.0.entry(field).or_default().push(message.into());
    }

    /// Keeps the parsed value, or records its message under `field`.
    pub fn take<T>(&mut self, field: &'static str, parsed: Result<T, String>) -> Option<T> {
        parsed.map_err(|message| self.add(field, message)).ok()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &String)> {
        self.0
            .iter()
            .flat_map(|(field, messages)| messages.iter().map(move |message| (*field, message)))
    }
}
