//! Queues one service consumes and another publishes to. The publisher's outbox relay declares
//! them too, so an event published before the consumer's first start is kept, not dropped. The
//! routing keys and bodies are the contract (`kid_contracts::topics`); this is the plumbing.

use kid_contracts::topics::{
    ACCOUNT_ERASED, PAYMENT_REFUND, PAYMENT_SETTLED, TOPUP_CORRECTED, TOPUP_FAILED, TOPUP_OPENED,
    TOPUP_RECEIVED,
};

use crate::{Settings, amqp::QueueSpec};

/// The wallet's queue of the payment service's top-up events.
pub fn wallet_topups(settings: &Settings) -> QueueSpec {
    QueueSpec::new(
        format!("{}.wallet.topups", settings.amqp.exchange),
        &[TOPUP_OPENED, TOPUP_RECEIVED, TOPUP_FAILED, TOPUP_CORRECTED],
    )
}

/// The wallet's queue of the recharge service's payment outcomes. A durable queue, so an
/// outcome decided while the wallet is down waits for it.
pub fn wallet_recharges(settings: &Settings) -> QueueSpec {
    QueueSpec::new(
        format!("{}.wallet.recharges", settings.amqp.exchange),
        &[PAYMENT_SETTLED, PAYMENT_REFUND],
    )
}

/// The recharge service's queue of identity's account erasures: it forgets the erased player's
/// username on its orders and grants.
pub fn recharge_accounts(settings: &Settings) -> QueueSpec {
    QueueSpec::new(
        format!("{}.recharge.accounts", settings.amqp.exchange),
        &[ACCOUNT_ERASED],
    )
}
