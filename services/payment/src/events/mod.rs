//! What payment publishes to the wallet (`topup.*`, bodies in `kid_contracts::topics`): every
//! top-up is keyed so the wallet credits it once, whatever is redelivered.

use uuid::Uuid;

/// The idempotency key the wallet knows a card order by.
pub fn card_topup_key(order_id: Uuid) -> String {
    format!("card:{order_id}")
}

/// The key of one correction of a card order: one per callback that lowered it.
pub fn card_correction_key(order_id: Uuid, callback_id: i64) -> String {
    format!("card-correction:{order_id}:{callback_id}")
}

/// The idempotency key the wallet credits a bank-feed transfer with.
pub fn bank_feed_topup_key(provider_id: &str) -> String {
    format!("bank-feed:{provider_id}")
}

/// Counts a top-up the wallet must now credit (`payment_topups_received_total{type}`): the
/// top-up SLO's events. Called once its event is in the outbox.
pub fn topup_received(topup_type: &str) {
    metrics::counter!("payment_topups_received_total", "type" => topup_type.to_owned()).increment(1);
}
