//! The wallet's integration tests, in one binary: each file a module, so the dependency tree is
//! linked once for all of them instead of once per file (nextest still runs every test in its
//! own process).

mod common;
mod database_role;
mod ledger;
mod partner;
mod production_keys;
mod properties;
