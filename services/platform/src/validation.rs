//! Per-field validation messages, and the gRPC status that carries them: INVALID_ARGUMENT with
//! `google.rpc.BadRequest` field violations, which the gateway answers as a 422.

use std::collections::BTreeMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

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

    /// Ok when nothing was recorded.
    pub fn check(self) -> Result<(), Self> {
        if self.is_empty() { Ok(()) } else { Err(self) }
    }

    pub fn one(field: &'static str, message: impl Into<String>) -> Self {
        let mut errors = Self::default();
        errors.add(field, message);
        errors
    }

    pub fn into_status(self) -> Status {
        let mut details = ErrorDetails::new();
        for (field, message) in self.iter() {
            details.add_bad_request_violation(field, message.clone());
        }
        Status::with_error_details(Code::InvalidArgument, "invalid fields", details)
    }
}

impl From<FieldErrors> for Status {
    fn from(errors: FieldErrors) -> Self {
        errors.into_status()
    }
}
