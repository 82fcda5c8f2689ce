//! Generated gRPC types and clients/servers, one module per versioned package.

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

/// `kid.recharge.v1`: game catalogue and coin recharge orders.
pub mod recharge {
    pub mod v1 {
        tonic::include_proto!("kid.recharge.v1");
    }
}
