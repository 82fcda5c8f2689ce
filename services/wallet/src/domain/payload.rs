//! What a ledger transaction's JSON payload keeps, where a later operation reads it back.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a `credit.bonus` keeps: the rate it was granted at, which a later correction recalls
/// the bonus at.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BonusPayload {
    pub rate_bps: i32,
}

/// What a correction's `credit.recall` keeps: the top-up KP it took back and the bonus that
/// went with it (a correction recorded before bonuses were recalled has neither).
#[derive(Debug, Serialize, Deserialize)]
pub struct RecallPayload {
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kp: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<i64>,
}

impl RecallPayload {
    pub const CORRECTION: &str = "correction";

    pub fn of(payload: &Value) -> Option<Self> {
        serde_json::from_value(payload.clone()).ok()
    }

    pub fn is_correction(&self) -> bool {
        self.reason == Self::CORRECTION
    }

    /// The top-up KP recalled, without the bonus; an old correction's value is only that.
    pub fn top_up_kp(&self, real_value: i64) -> i64 {
        self.kp.unwrap_or(real_value)
    }
}

/// A payload struct as the JSON a transaction keeps.
pub fn payload_of(payload: &impl Serialize) -> Value {
    serde_json::to_value(payload).expect("a payload struct serializes")
}
