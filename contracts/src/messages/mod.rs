//! Every Vietnamese text a player can be shown by the services and the gateway, in one place:
//! validation messages, refusals and confirmations, grouped by the form or call that shows them.
//! The spec's texts are used verbatim (docs/spec, `../shared/spec/portal.md`). Mail bodies are
//! identity's, beside the mail they fill.

pub mod account;
pub mod card;
pub mod card_order;
pub mod catalogue;
pub mod coin;
pub mod dob;
pub mod email;
pub mod giftcode;
pub mod history;
pub mod http;
pub mod links;
pub mod order;
pub mod passkey;
pub mod password;
pub mod profile;
pub mod recovery;
pub mod registration;
pub mod security;
pub mod session;
pub mod sign_in;
pub mod staff;
pub mod support;
pub mod top_up;
pub mod two_factor;
pub mod username;
pub mod wallet;
