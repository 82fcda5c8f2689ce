//! What identity sends out: mail, written in the transaction of what it tells and delivered by
//! the courier after. Identity consumes no events.

pub mod mail;
pub mod mailbox;
