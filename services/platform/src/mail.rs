//! A message to one person, as a service writes it and its courier delivers it (over SMTP, or
//! into the development mailbox, which keeps it as JSON).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A message to one person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mail {
    pub id: Uuid,
    pub to: String,
    pub subject: String,
    pub text: String,
    /// The link or the code the message carries, if any.
    pub link: Option<String>,
    pub code: Option<String>,
}

impl Mail {
    /// A message with a new id, carrying no link or code.
    pub fn new(to: impl Into<String>, subject: impl Into<String>, text: String) -> Self {
        Self {
            id: Uuid::now_v7(),
            to: to.into(),
            subject: subject.into(),
            text,
            link: None,
            code: None,
        }
    }

    pub fn with_link(mut self, link: String) -> Self {
        self.link = Some(link);
        self
    }

    pub fn with_code(mut self, code: String) -> Self {
        self.code = Some(code);
        self
    }
}
