//! The gateway's integration tests, in one binary: each file a module, so the dependency tree
//! is linked once for all of them instead of once per file (nextest still runs every test in its
//! own process).

mod accounts;
mod client_address;
mod console;
mod email_change;
mod email_verification;
mod errors;
mod history;
mod openapi;
mod passkeys;
mod passwords;
mod personal_data;
mod portal;
mod profile;
mod recaptcha;
mod recovery;
mod rum;
mod secrets_at_rest;
mod sessions;
mod sign_ins;
mod staff;
mod support;
mod transactions;
mod trust_boundary;
mod two_factor;
