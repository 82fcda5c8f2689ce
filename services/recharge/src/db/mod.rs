//! The recharge schema's queries, each checked against the migrations at build time
//! (`sqlx::query!`, cache in `.sqlx`). No rules here: the use cases in `app` decide.

pub mod catalogue;
pub mod giftcodes;
pub mod orders;
