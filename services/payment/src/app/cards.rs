//! Card orders: a card is checked, recorded as pending (its PIN only sealed, and erased when the
//! order settles) and sent to the aggregator; its answer, its signed callback or, when that is
//! lost, asking again settles it, and a later callback may correct
//! it. Every outcome reaches the wallet through the outbox, keyed by the order.

use kid_contracts::topics::{self, TopupCorrected, TopupFailed, TopupOpened, TopupReceived};
use std::{sync::Arc, time::Duration};

use kid_platform::{outbox, seal::Seal, validation::FieldErrors};
use sqlx::{PgConnection, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::{
    aggregator::{Aggregator, AggregatorError, CardRequest},
    db::{self, cards::NewOrder},
    domain::methods::CardProvider,
    domain::{
        CardStatus,
        card::{self, Outcome},
        charging::{Command, Report, Status},
    },
    events,
};
pub use kid_contracts::messages::card_order::{MSG_ALREADY_PENDING, MSG_REFUSED};

#[derive(Debug, thiserror::Error)]
pub enum CardError {
    #[error("invalid card")]
    Invalid(FieldErrors),
    #[error("the same card is already pending")]
    AlreadyPending,
    #[error("the aggregator refused the card: {0}")]
    Refused(String),
    #[error("malformed callback: {0}")]
    Malformed(String),
    #[error("no such card order")]
    UnknownOrder,
    #[error("the callback_sign does not sign this card")]
    Forged,
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] outbox::OutboxError),
}

/// A card as the player typed it. Not `Debug`: it holds the PIN.
#[derive(Clone)]
pub struct CardInput {
    pub user_id: Uuid,
    pub provider: String,
    pub value: i64,
    pub pin: String,
    pub serial: String,
}

/// The spec's card-form rules (section 5) against the provider's table row.
fn check(input: &CardInput, provider: Option<&CardProvider>) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::default();
    match provider {
        None if input.provider.trim().is_empty() => errors.add("provider", card::MSG_PROVIDER_REQUIRED),
        None => errors.add("provider", card::MSG_PROVIDER_UNKNOWN),
        Some(provider) if !provider.enabled => errors.add("provider", card::msg_unsupported(&provider.name)),
        Some(provider) => {
            // No value, or one this provider does not take: choose one of its face values.
            if !(card::MIN_VALUE..=card::MAX_VALUE).contains(&input.value)
                || !provider.payable_values.contains(&input.value)
            {
                errors.add("value", card::MSG_VALUE_REQUIRED);
            }
            let pin_length = usize::try_from(provider.pin_length).unwrap_or_default();
            let serial_length = usize::try_from(provider.serial_length).unwrap_or_default();
            if input.pin.is_empty() {
                errors.add("pin", card::MSG_PIN_REQUIRED);
            } else if input.pin.chars().count() != pin_length
                || !input.pin.chars().all(|c| c.is_ascii_alphanumeric())
            {
                errors.add("pin", card::msg_pin_length(pin_length));
            }
            if input.serial.is_empty() {
                errors.add("serial", card::MSG_SERIAL_REQUIRED);
            } else if input.serial.chars().count() != serial_length
                || !input.serial.chars().all(|c| c.is_ascii_alphanumeric())
            {
                errors.add("serial", card::msg_serial_length(serial_length));
            }
        }
    }
    errors.check()
}

/// Checks the card, records the pending order with its event for the wallet, and sends the card
/// to the aggregator; an answer that already settles the card is applied at once. Returns the
/// order id.
pub async fn submit(
    pool: &PgPool,
    aggregator: &dyn Aggregator,
    seal: &Seal,
    input: CardInput,
) -> Result<Uuid, CardError> {
    let input = CardInput {
        provider: input.provider.trim().to_ascii_lowercase(),
        pin: input.pin.trim().to_owned(),
        serial: input.serial.trim().to_owned(),
        ..input
    };
    let mut tx = pool.begin().await?;
    let provider = db::methods::card_provider(&mut tx, &input.provider).await?;
    check(&input, provider.as_ref()).map_err(CardError::Invalid)?;
    let order_id = Uuid::now_v7();
    let sealed_pin = seal.seal(order_id.as_bytes(), input.pin.as_bytes());
    let order = NewOrder {
        id: order_id,
        user_id: input.user_id,
        provider: &input.provider,
        declared_value: input.value,
        serial: &input.serial,
        sealed_pin: &sealed_pin,
    };
    if !db::cards::insert_pending(&mut tx, order).await? {
        return Err(CardError::AlreadyPending);
    }
    let opened = TopupOpened {
        idempotency_key: events::card_topup_key(order_id),
        user_id: input.user_id,
        topup_type: topics::CARD.to_owned(),
        source: input.provider.clone(),
        amount_vnd: input.value,
        card_serial: input.serial.clone(),
    };
    outbox::enqueue(&mut tx, topics::TOPUP_OPENED, &opened).await?;
    tx.commit().await?;

    let request = CardRequest {
        request_id: order_id,
        provider: input.provider.clone(),
        value: input.value,
        pin: input.pin,
        serial: input.serial,
    };
    let answer = match aggregator.send(&request, Command::Charging).await {
        Ok(answer) => answer,
        Err(AggregatorError::Unavailable(reason)) => {
            // It may have the card: the order stays pending and its callback settles it; an
            // order without one is what the 'card callbacks overdue' alert watches.
            tracing::error!(%order_id, %reason, "no clear answer from the aggregator; the order stays pending");
            return Ok(order_id);
        }
    };
    match answer.status() {
        Some(Status::NotTaken) => {
            let mut tx = pool.begin().await?;
            fail(&mut tx, order_id, input.user_id, "REFUSED").await?;
            tx.commit().await?;
            tracing::warn!(%order_id, reason = %answer.message, "the aggregator refused a card");
            Err(CardError::Refused(answer.message))
        }
        Some(Status::Settled(outcome)) => {
            settle(pool, order_id, outcome, &answer).await?;
            tracing::info!(%order_id, %answer, "the aggregator settled a card at once");
            Ok(order_id)
        }
        Some(Status::Pending) | None => {
            db::cards::set_aggregator_ref(&mut *pool.acquire().await?, order_id, &answer.trans_id).await?;
            tracing::info!(%order_id, provider = %input.provider, value = input.value, "card sent to the aggregator");
            Ok(order_id)
        }
    }
}

async fn fail(
    conn: &mut PgConnection,
    order_id: Uuid,
    user_id: Uuid,
    error_code: &str,
) -> Result<(), CardError> {
    db::cards::mark_failed(conn, order_id, error_code).await?;
    let failed = TopupFailed {
        idempotency_key: events::card_topup_key(order_id),
        user_id,
        error_code: error_code.to_owned(),
    };
    outbox::enqueue(conn, topics::TOPUP_FAILED, &failed).await?;
    Ok(())
}

/// The KP a card of `value` credits, and the fee applied; nothing for a worthless card.
async fn card_kp(
    conn: &mut PgConnection,
    provider: &CardProvider,
    value: i64,
) -> Result<(i64, Option<rust_decimal::Decimal>), CardError> {
    if value == 0 {
        return Ok((0, None));
    }
    let fee = db::methods::card_fee(conn, &provider.code, value)
        .await?
        .and_then(|fee| fee.parse().ok())
        .ok_or_else(|| CardError::Malformed("no fee for this card".into()))?;
    let kp = card::kp_for(value, fee, provider.rate())
        .ok_or_else(|| CardError::Malformed("value too large".into()))?;
    Ok((kp, Some(fee)))
}

/// What a callback did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settlement {
    /// The pending order succeeded or failed.
    Settled,
    /// A credited order's value was lowered; the difference is recalled.
    Corrected,
    /// Nothing new: the same result again, or one that cannot change a settled order (kept).
    Unchanged,
}

/// The seal of pending cards' PINs: a key of its own, derived from the aggregator partner key.
pub fn pin_seal(partner_key: &str) -> Seal {
    Seal::new(format!("kid card PIN seal\0{partner_key}").as_bytes())
}

/// Asks the aggregator again (`command=check`) about each card pending longer than `after`,
/// and applies what it says; how many were asked about.
pub async fn check_due(
    pool: &PgPool,
    aggregator: &dyn Aggregator,
    seal: &Seal,
    after: Duration,
) -> Result<usize, CardError> {
    let after_ms = i64::try_from(after.as_millis()).unwrap_or(i64::MAX);
    let due = db::cards::take_due_checks(&mut *pool.acquire().await?, after_ms, 50).await?;
    for card in &due {
        let Ok(pin) = seal.open(card.id.as_bytes(), &card.sealed_pin) else {
            tracing::error!(order_id = %card.id, "a card's PIN does not open: was the partner key changed?");
            continue;
        };
        let request = CardRequest {
            request_id: card.id,
            provider: card.provider.clone(),
            value: card.declared_value,
            pin: String::from_utf8_lossy(&pin).into_owned(),
            serial: card.serial.clone(),
        };
        match aggregator.send(&request, Command::Check).await {
            Ok(report) => match report.status() {
                Some(Status::Settled(outcome)) => {
                    let settled = settle(pool, card.id, outcome, &report).await?;
                    tracing::warn!(order_id = %card.id, ?settled, %report, "a card's result came by asking again");
                }
                _ => {
                    tracing::info!(order_id = %card.id, %report, "the aggregator still has no result for a card")
                }
            },
            Err(AggregatorError::Unavailable(reason)) => {
                tracing::warn!(order_id = %card.id, %reason, "asking the aggregator about a card failed");
            }
        }
    }
    Ok(due.len())
}

/// Runs [`check_due`] every `every` until `shutdown`.
pub async fn check_pending(
    pool: PgPool,
    aggregator: Arc<dyn Aggregator>,
    seal: Seal,
    every: Duration,
    after: Duration,
    shutdown: CancellationToken,
) {
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = ticks.tick() => {}
        }
        if let Err(error) = check_due(&pool, aggregator.as_ref(), &seal, after).await {
            tracing::error!(%error, "checking pending cards failed");
        }
    }
}

/// How often the aggregator's price list is read.
pub const FEES_EVERY: Duration = Duration::from_secs(3600);

/// Reads the aggregator's price list into `aggregator_fee`, beside Kid's own `card_fee` (the
/// gauge `payment_card_fees_below_aggregator` compares them); how many lines it keeps.
pub async fn refresh_fees(pool: &PgPool, aggregator: &dyn Aggregator) -> Result<u64, CardError> {
    let fees = match aggregator.fees().await {
        Ok(fees) => fees,
        Err(AggregatorError::Unavailable(reason)) => {
            tracing::warn!(%reason, "the aggregator's price list could not be read");
            return Ok(0);
        }
    };
    let rows: Vec<(String, i64, String, Option<String>)> = fees
        .iter()
        .map(|fee| {
            (
                crate::aggregator::provider(&fee.telco),
                fee.value,
                fee.fee_percent.to_string(),
                fee.penalty_percent.map(|penalty| penalty.to_string()),
            )
        })
        .collect();
    let mut tx = pool.begin().await?;
    let kept = db::methods::replace_aggregator_fees(&mut tx, &rows).await?;
    tx.commit().await?;
    Ok(kept)
}

/// Runs [`refresh_fees`] now and every [`FEES_EVERY`] until `shutdown`.
pub async fn read_fees(pool: PgPool, aggregator: Arc<dyn Aggregator>, shutdown: CancellationToken) {
    let mut ticks = tokio::time::interval(FEES_EVERY);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = ticks.tick() => {}
        }
        match refresh_fees(&pool, aggregator.as_ref()).await {
            Ok(kept) => tracing::info!(kept, "the aggregator's price list read"),
            Err(error) => tracing::error!(%error, "keeping the aggregator's price list failed"),
        }
    }
}

/// Verifies and applies one aggregator callback: its `callback_sign` is checked before
/// anything else of it is believed, and it must name one of our cards by order and serial.
pub async fn callback(
    pool: &PgPool,
    partner_key: &str,
    body: &[u8],
    form: bool,
) -> Result<Settlement, CardError> {
    let report = Report::parse(body, form).map_err(CardError::Malformed)?;
    if !report.signed_by(partner_key) {
        return Err(CardError::Forged);
    }
    let status = report
        .status()
        .ok_or_else(|| CardError::Malformed(format!("unknown status {:?}", report.status)))?;
    let order_id = report.request_id.trim().parse::<Uuid>().ok();
    let outcome = match status {
        Status::Settled(outcome) => outcome,
        Status::Pending => {
            tracing::info!(?order_id, "card callback says pending; nothing to do");
            return Ok(Settlement::Unchanged);
        }
        Status::NotTaken => {
            return Err(CardError::Malformed(
                "status 100 is an answer, not a result".into(),
            ));
        }
    };
    let Some(order_id) = order_id else {
        let mut tx = pool.begin().await?;
        db::cards::record_callback(&mut tx, None, &report.redacted(), "unknown-order").await?;
        tx.commit().await?;
        return Err(CardError::UnknownOrder);
    };
    settle(pool, order_id, outcome, &report).await
}

/// Applies the aggregator's result `outcome` (in `report`) to the card order `order_id`.
async fn settle(
    pool: &PgPool,
    order_id: Uuid,
    outcome: Outcome,
    report: &Report,
) -> Result<Settlement, CardError> {
    let body_json = report.redacted();
    let mut tx = pool.begin().await?;
    let order = match db::cards::lock(&mut tx, order_id).await? {
        Some(order) if order.serial == report.serial.trim() => order,
        _ => {
            db::cards::record_callback(&mut tx, None, &body_json, "unknown-order").await?;
            tx.commit().await?;
            return Err(CardError::UnknownOrder);
        }
    };
    let real_value = match outcome {
        // Good at the declared value.
        Outcome::Success => order.declared_value,
        // Never more than declared, whatever a report says.
        Outcome::WrongAmount => report.value.unwrap_or_default().clamp(0, order.declared_value),
        Outcome::Invalid | Outcome::Maintenance => 0,
    };
    let provider = db::methods::card_provider(&mut tx, &order.provider)
        .await?
        .ok_or(CardError::UnknownOrder)?;
    let error_code = outcome.error_code();
    let mut credited = false;
    let settlement = match order.status {
        CardStatus::Pending if outcome.credits() && real_value > 0 => {
            let (kp, fee) = card_kp(&mut tx, &provider, real_value).await?;
            let success = db::cards::Success {
                error_code,
                real_value,
                kp,
                fee_percent: fee.map(|fee| fee.to_string()),
                exchange_rate: provider.rate().to_string(),
                aggregator_ref: &report.trans_id,
            };
            db::cards::mark_success(&mut tx, order_id, success).await?;
            let received = TopupReceived {
                idempotency_key: events::card_topup_key(order_id),
                user_id: order.user_id,
                topup_type: topics::CARD.to_owned(),
                source: order.provider.clone(),
                amount_vnd: real_value,
                kp,
                card_serial: order.serial.clone(),
                error_code: error_code.unwrap_or_default().to_owned(),
                received_at: Some(time::OffsetDateTime::now_utc()),
            };
            outbox::enqueue(&mut tx, topics::TOPUP_RECEIVED, &received).await?;
            credited = true;
            Settlement::Settled
        }
        CardStatus::Pending => {
            fail(&mut tx, order_id, order.user_id, error_code.unwrap_or("INVALID")).await?;
            Settlement::Settled
        }
        // Maintenance (4) says the aggregator could not look at the card, nothing of its value:
        // it never takes back a credit.
        CardStatus::Success
            if outcome != Outcome::Maintenance && order.real_value.unwrap_or_default() > real_value =>
        {
            let (kp, _) = card_kp(&mut tx, &provider, real_value).await?;
            let recalled = order.kp.unwrap_or_default() - kp;
            let callback_id =
                db::cards::record_callback(&mut tx, Some(order_id), &body_json, "corrected").await?;
            let error_code = error_code.or(order.error_code.as_deref());
            db::cards::correct(&mut tx, order_id, error_code, real_value, kp).await?;
            if recalled > 0 {
                let corrected = TopupCorrected {
                    idempotency_key: events::card_correction_key(order_id, callback_id),
                    topup_key: events::card_topup_key(order_id),
                    user_id: order.user_id,
                    kp: recalled,
                    corrected_amount_vnd: real_value,
                };
                outbox::enqueue(&mut tx, topics::TOPUP_CORRECTED, &corrected).await?;
            }
            tx.commit().await?;
            tracing::warn!(%order_id, real_value, recalled, "card corrected by the aggregator");
            return Ok(Settlement::Corrected);
        }
        CardStatus::Success | CardStatus::Failed => Settlement::Unchanged,
    };
    let label = match settlement {
        Settlement::Settled => "settled",
        Settlement::Corrected => "corrected",
        Settlement::Unchanged => "unchanged",
    };
    db::cards::record_callback(&mut tx, Some(order_id), &body_json, label).await?;
    tx.commit().await?;
    if credited {
        events::topup_received(topics::CARD);
    }
    if settlement == Settlement::Unchanged {
        tracing::info!(%order_id, %report, "card result changed nothing; kept");
    }
    Ok(settlement)
}
