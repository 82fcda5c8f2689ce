//! The identity schema's queries, each checked against the migrations at build time
//! (`sqlx::query!`, cache in `.sqlx`). No rules here: the use cases in `app` decide.

pub mod codes;
pub mod mail;
pub mod passkeys;
pub mod sign_ins;
pub mod staff;
pub mod tickets;
pub mod tokens;
pub mod two_factor;
pub mod users;

pub use users::{InsertError, NewUser, Taken, UserRow};
