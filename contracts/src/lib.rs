//! What more than one process shares, in one place: the gRPC contracts (generated from
//! `kid/<service>/v1`, one module per versioned package), the events between services
//! (`topics`) and with game teams (`game`), the money types and the idempotency-key rule
//! (`money`), the length limits of what people type (`limits`), the error reasons on statuses (`reasons`) and every Vietnamese text a player can be
//! shown (`messages`).

/// The largest gRPC message identity takes or gives: a support ticket's image (5 MB at most)
/// and its envelope.
pub const MAX_IMAGE_MESSAGE_BYTES: usize = 6 * 1024 * 1024;

pub mod game;
pub mod limits;
pub mod messages;
pub mod money;
pub mod reasons;
pub mod topics;

/// `kid.identity.v1`: accounts, credentials, email tokens, security codes.
pub mod identity {
    pub mod v1 {
        tonic::include_proto!("kid.identity.v1");
    }
}

/// `kid.wallet.v1`: the KP ledger.
pub mod wallet {
    pub mod v1 {
        tonic::include_proto!("kid.wallet.v1");
    }
}

/// `kid.payment.v1`: payment methods, card orders, webhooks.
pub mod payment {
    pub mod v1 {
        tonic::include_proto!("kid.payment.v1");
    }
}

/// `kid.staff.v1`: the staff audit log every service keeps.
pub mod staff {
    pub mod v1 {
        tonic::include_proto!("kid.staff.v1");
    }
}

/// `kid.recharge.v1`: game catalogue and coin recharge orders.
pub mod recharge {
    pub mod v1 {
        tonic::include_proto!("kid.recharge.v1");
    }
}
