//! Coin recharge orders, from the player's submission to the game's answer.
//!
//! The wallet's ledger and our orders live in different schemas, so the debit and the order
//! are tied by the order id instead of one database transaction:
//!
//! 1. the order is stored `paying` (nothing moved yet);
//! 2. the wallet debits its KP with the order id as idempotency key;
//! 3. one transaction marks it `awaiting_delivery` and writes the game's order to the outbox.
//!
//! A refused debit deletes the order (nothing moved). A debit with no clear answer leaves it
//! `paying`, and the sweeper drives it again: the same key debits at most once, so the order
//! ends either debited and sent, or deleted. The game's answer, or its silence past the
//! deadline, settles or refunds the payment through the wallet's durable queue, each decided
//! by a conditional update so it happens once, whichever replica or redelivery gets there.

use std::time::Duration;

use kid_platform::{
    auth::AttachInternalJwt,
    inbox::{Handler, HandlerError, HandlerFuture, Message},
    outbox::{self, OutboxError},
    topology::{self, PaymentRefund, PaymentSettled},
    validation::{FieldErrors, MSG_INSUFFICIENT_BALANCE, is_insufficient_balance},
};
use kid_proto::wallet::v1::{CoinMetadata, DebitRequest, wallet_service_client::WalletServiceClient};
use sqlx::{PgConnection, PgPool};
use time::OffsetDateTime;
use tokio_util::sync::CancellationToken;
use tonic::{service::interceptor::InterceptedService, transport::Channel};
use uuid::Uuid;

use crate::{
    catalogue::{self, Product},
    contract::{self, Delivery, GameOrder, GameResult},
    domain::{self, OrderState},
};

pub type WalletClient = WalletServiceClient<InterceptedService<Channel, AttachInternalJwt>>;

pub const MSG_ZONE_REQUIRED: &str = "Hãy chọn máy chủ bạn muốn nạp.";
pub const MSG_ZONE_UNKNOWN: &str = "Máy chủ bạn chọn không tồn tại.";
pub const MSG_AMOUNT_REQUIRED: &str = "Hãy chọn mệnh giá bạn muốn nạp.";
pub const MSG_AMOUNT_UNKNOWN: &str = "Mệnh giá bạn chọn không có trong danh sách.";
pub const MSG_KEY_REUSED: &str = "Yêu cầu nạp này đã được gửi trước đó với nội dung khác.";

/// Why the game's order failed when it never answered.
pub const REASON_DEADLINE: &str = "no answer before the delivery deadline";

/// How many overdue or stalled orders one sweep takes.
const SWEEP_BATCH: i64 = 100;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Order {
    pub id: Uuid,
    pub user_id: Uuid,
    pub idempotency_key: String,
    pub username: String,
    pub product_code: String,
    pub zone_id: i64,
    pub credit: i64,
    pub coins: i64,
    pub milestone_bonus: i64,
    pub event_bonus: i64,
    pub lottery_points: i64,
    pub status: OrderState,
    pub transaction_id: Option<Uuid>,
    pub failure_reason: Option<String>,
    pub deliver_by: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
}

impl Order {
    pub fn total_coins(&self) -> i64 {
        self.coins + self.milestone_bonus + self.event_bonus
    }
}

/// The columns of [`Order`], spliced into static SQL with `concat!`.
macro_rules! order_columns {
    () => {
        "id, user_id, idempotency_key, username, product_code, zone_id, credit, coins, milestone_bonus,
         event_bonus, lottery_points, status, transaction_id, failure_reason, deliver_by, created_at"
    };
}

/// A player's submission.
#[derive(Debug, Clone)]
pub struct NewOrder {
    pub key: String,
    pub user_id: Uuid,
    pub username: String,
    pub product_code: String,
    pub zone_id: i64,
    pub credit: i64,
}

/// The order as placed, with what the screen says about it.
#[derive(Debug, Clone)]
pub struct Placed {
    pub order: Order,
    pub product: Product,
    pub zone_description: String,
}

#[derive(Debug, thiserror::Error)]
pub enum OrderError {
    #[error("unknown product")]
    UnknownProduct,
    #[error("invalid order")]
    Invalid(FieldErrors),
    #[error("idempotency key reused for another order")]
    KeyReused,
    #[error("{0}")]
    InsufficientBalance(String),
    #[error("database error")]
    Database(#[from] sqlx::Error),
    #[error("outbox error")]
    Outbox(#[from] OutboxError),
}

#[derive(Clone)]
pub struct Orders {
    pool: PgPool,
    wallet: WalletClient,
    deadline: Duration,
}

impl Orders {
    pub fn new(pool: PgPool, wallet: WalletClient, deadline: Duration) -> Self {
        Self {
            pool,
            wallet,
            deadline,
        }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Places the order and pays for it. A repeated key returns the order it placed first.
    /// When the wallet gives no clear answer the order is returned still `paying`: it will be
    /// driven again, so the caller must not place another.
    pub async fn place(&self, request: NewOrder) -> Result<Placed, OrderError> {
        let info = catalogue::recharge_info(&self.pool, &request.product_code)
            .await?
            .ok_or(OrderError::UnknownProduct)?;
        let mut errors = FieldErrors::default();
        let zone = chosen(
            info.zone(request.zone_id).cloned(),
            request.zone_id,
            &mut errors,
            ("zoneId", MSG_ZONE_REQUIRED, MSG_ZONE_UNKNOWN),
        );
        let value = chosen(
            info.payable_value(request.credit),
            request.credit,
            &mut errors,
            ("creditAmount", MSG_AMOUNT_REQUIRED, MSG_AMOUNT_UNKNOWN),
        );
        let (Some(zone), Some(value)) = (zone, value) else {
            return Err(OrderError::Invalid(errors));
        };
        let payout = domain::payout(value.coins_received, value.coins_bonus, &info.active_events());
        let inserted: Option<Order> = sqlx::query_as(concat!(            "insert into recharge_order (id, user_id, idempotency_key, username, product_code, zone_id, credit,
                 coins, milestone_bonus, event_bonus, lottery_points, status)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'paying')
             on conflict (user_id, idempotency_key) do nothing
             returning ", order_columns!(), ""))
        .bind(Uuid::now_v7())
        .bind(request.user_id)
        .bind(&request.key)
        .bind(&request.username)
        .bind(&info.product.code)
        .bind(zone.id)
        .bind(value.credit)
        .bind(payout.coins)
        .bind(payout.milestone_bonus)
        .bind(payout.event_bonus)
        .bind(payout.lottery_points)
        .fetch_optional(&self.pool)
        .await?;
        let order = match inserted {
            Some(order) => order,
            None => {
                let first: Order = sqlx::query_as(concat!(
                    "select ",
                    order_columns!(),
                    " from recharge_order where user_id = $1 and idempotency_key = $2"
                ))
                .bind(request.user_id)
                .bind(&request.key)
                .fetch_optional(&self.pool)
                .await?
                // Deleted in between: a concurrent attempt's debit was refused for the balance.
                .ok_or_else(|| OrderError::InsufficientBalance(MSG_INSUFFICIENT_BALANCE.to_owned()))?;
                if first.product_code != info.product.code
                    || first.zone_id != zone.id
                    || first.credit != value.credit
                {
                    return Err(OrderError::KeyReused);
                }
                first
            }
        };
        let order = if order.status == OrderState::Paying {
            self.pay(order, &info.product).await?
        } else {
            order
        };
        Ok(Placed {
            order,
            product: info.product,
            zone_description: zone.description,
        })
    }

    /// Asks the wallet to debit a `paying` order, and sends it to the game once debited.
    /// Returns the order as it now is (still `paying` when the wallet did not answer clearly).
    async fn pay(&self, order: Order, product: &Product) -> Result<Order, OrderError> {
        let request = DebitRequest {
            idempotency_key: order.id.to_string(),
            user_id: order.user_id.to_string(),
            kp: order.credit,
            metadata: Some(CoinMetadata {
                coin: order.coins,
                coin_bonus: order.milestone_bonus + order.event_bonus,
                product_code: product.code.clone(),
                product_name: product.name.clone(),
                coin_name: product.coin_name.clone(),
            }),
        };
        match self.wallet.clone().debit(request).await {
            Ok(response) => {
                let transaction_id = response
                    .into_inner()
                    .transaction
                    .and_then(|transaction| transaction.id.parse::<Uuid>().ok());
                match transaction_id {
                    Some(transaction_id) => self.confirm(order.id, transaction_id).await,
                    None => {
                        tracing::error!(order_id = %order.id, "the wallet's debit answer has no transaction id; order left to the sweeper");
                        Ok(order)
                    }
                }
            }
            Err(status) if is_insufficient_balance(&status) => {
                sqlx::query("delete from recharge_order where id = $1 and status = 'paying'")
                    .bind(order.id)
                    .execute(&self.pool)
                    .await?;
                Err(OrderError::InsufficientBalance(status.message().to_owned()))
            }
            Err(status) => {
                tracing::warn!(order_id = %order.id, code = ?status.code(), message = status.message(), "debit not confirmed; the order will be driven again");
                metrics::counter!("recharge_debit_unconfirmed_total").increment(1);
                Ok(order)
            }
        }
    }

    /// Marks a debited order sent and writes the game's order, in one transaction; only the
    /// first of concurrent confirmations writes it.
    async fn confirm(&self, order_id: Uuid, transaction_id: Uuid) -> Result<Order, OrderError> {
        let mut tx = self.pool.begin().await?;
        let deadline_ms = i64::try_from(self.deadline.as_millis()).unwrap_or(i64::MAX);
        let updated: Option<Order> = sqlx::query_as(concat!(
            "update recharge_order
             set status = 'awaiting_delivery', transaction_id = $2,
                 deliver_by = now() + make_interval(secs => $3::double precision / 1000), updated_at = now()
             where id = $1 and status = 'paying'
             returning ",
            order_columns!(),
            ""
        ))
        .bind(order_id)
        .bind(transaction_id)
        .bind(deadline_ms)
        .fetch_optional(&mut *tx)
        .await?;
        let order = match updated {
            Some(order) => {
                send_to_game(&mut tx, &order).await?;
                order
            }
            None => find(&mut tx, order_id).await?.ok_or(sqlx::Error::RowNotFound)?,
        };
        tx.commit().await?;
        Ok(order)
    }

    /// Drives orders whose debit got no clear answer, and refunds orders whose game did not
    /// answer in time. Safe on several replicas: each decision is a conditional update.
    /// Returns how many orders were driven and how many expired.
    pub async fn sweep(&self, redrive_after: Duration) -> Result<(usize, usize), OrderError> {
        let redrive_ms = i64::try_from(redrive_after.as_millis()).unwrap_or(i64::MAX);
        let stalled: Vec<Order> = sqlx::query_as(concat!(            "select ", order_columns!(), " from recharge_order
             where status = 'paying' and created_at < now() - make_interval(secs => $1::double precision / 1000)
             order by created_at limit $2"))
        .bind(redrive_ms)
        .bind(SWEEP_BATCH)
        .fetch_all(&self.pool)
        .await?;
        let driven = stalled.len();
        for order in stalled {
            let Some(product) = catalogue::product(&self.pool, &order.product_code).await? else {
                continue;
            };
            match self.pay(order, &product).await {
                Ok(order) => {
                    tracing::info!(order_id = %order.id, status = ?order.status, "stalled order driven again")
                }
                Err(OrderError::InsufficientBalance(_)) => {
                    tracing::info!("stalled order refused for the balance; removed")
                }
                Err(error) => return Err(error),
            }
        }
        let mut expired = 0;
        loop {
            let mut tx = self.pool.begin().await?;
            let overdue: Vec<Order> = sqlx::query_as(concat!(
                "update recharge_order set status = 'failed', failure_reason = $1, updated_at = now()
                 where id in (select id from recharge_order
                              where status = 'awaiting_delivery' and deliver_by < now()
                              order by deliver_by limit $2 for update skip locked)
                 returning ",
                order_columns!(),
                ""
            ))
            .bind(REASON_DEADLINE)
            .bind(SWEEP_BATCH)
            .fetch_all(&mut *tx)
            .await?;
            for order in &overdue {
                refund(&mut tx, order, REASON_DEADLINE).await?;
                tracing::warn!(order_id = %order.id, product = order.product_code, "game did not answer in time; refunding");
            }
            tx.commit().await?;
            expired += overdue.len();
            metrics::counter!("recharge_orders_expired_total").increment(overdue.len() as u64);
            if overdue.len() < SWEEP_BATCH as usize {
                break;
            }
        }
        Ok((driven, expired))
    }

    /// Sweeps every `interval` until shutdown.
    pub async fn run_sweeper(self, interval: Duration, redrive_after: Duration, shutdown: CancellationToken) {
        loop {
            if let Err(error) = self.sweep(redrive_after).await {
                tracing::warn!(error = %error, "recharge sweep failed; will retry");
            }
            tokio::select! {
                () = tokio::time::sleep(interval) => {}
                () = shutdown.cancelled() => return,
            }
        }
    }
}

/// What the player chose from the catalogue, or an error on the field: "required" when nothing
/// was chosen (0 or less), "unknown" when the choice is not on offer.
fn chosen<T>(
    found: Option<T>,
    requested: i64,
    errors: &mut FieldErrors,
    (field, required, unknown): (&'static str, &str, &str),
) -> Option<T> {
    if found.is_none() {
        errors.add(field, if requested <= 0 { required } else { unknown });
    }
    found
}

pub async fn find(conn: &mut PgConnection, id: Uuid) -> Result<Option<Order>, sqlx::Error> {
    sqlx::query_as(concat!(
        "select ",
        order_columns!(),
        " from recharge_order where id = $1"
    ))
    .bind(id)
    .fetch_optional(conn)
    .await
}

async fn send_to_game(conn: &mut PgConnection, order: &Order) -> Result<(), OrderError> {
    let (Some(transaction_id), Some(deliver_by)) = (order.transaction_id, order.deliver_by) else {
        return Err(OrderError::Database(sqlx::Error::RowNotFound));
    };
    let message_id = Uuid::now_v7();
    let message = GameOrder {
        schema_version: contract::SCHEMA_VERSION,
        message_id,
        order_id: order.id,
        transaction_id,
        username: order.username.clone(),
        product_code: order.product_code.clone(),
        zone_id: order.zone_id,
        coins: order.coins,
        milestone_bonus: order.milestone_bonus,
        event_bonus: order.event_bonus,
        total_coins: order.total_coins(),
        lottery_points: order.lottery_points,
        created_at: order.created_at,
        deliver_by,
    };
    outbox::enqueue_with_id(
        conn,
        message_id,
        &contract::order_routing_key(&order.product_code),
        &message,
    )
    .await?;
    Ok(())
}

async fn refund(conn: &mut PgConnection, order: &Order, reason: &str) -> Result<(), OutboxError> {
    let Some(transaction_id) = order.transaction_id else {
        return Ok(());
    };
    let event = PaymentRefund {
        idempotency_key: format!("refund:{}", order.id),
        order_id: order.id,
        user_id: order.user_id,
        transaction_id,
        reason: reason.to_owned(),
    };
    outbox::enqueue(conn, topology::PAYMENT_REFUND, &event)
        .await
        .map(drop)
}

/// What a game's answer did to its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// It decided the order.
    Applied,
    /// The order was already decided the same way.
    Duplicate,
    /// A delivery after the order was refunded: kept for support, never paid again.
    Late,
    /// A failure after the order was delivered: kept, changes nothing.
    Conflicting,
    UnknownOrder,
    /// An answer published on another product's routing key than the order's: a game answers
    /// only for its own orders, so it is kept with what it claimed and changes nothing.
    Rejected,
}

impl Effect {
    fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::Duplicate => "duplicate",
            Self::Late => "late",
            Self::Conflicting => "conflicting",
            Self::UnknownOrder => "unknown_order",
            Self::Rejected => "rejected",
        }
    }
}

/// Applies a game's answer in the inbox's transaction: the first answer to an order awaiting
/// delivery decides it; every answer is kept with what it did. `claimed_product` is the
/// product of the routing key it came on: only the order's own product may answer for it.
pub async fn apply_result(
    conn: &mut PgConnection,
    message_id: &str,
    claimed_product: &str,
    result: &GameResult,
) -> Result<Effect, HandlerError> {
    let order: Option<Order> = sqlx::query_as(concat!(
        "select ",
        order_columns!(),
        " from recharge_order where id = $1 for update"
    ))
    .bind(result.order_id)
    .fetch_optional(&mut *conn)
    .await?;
    let effect = match (&order, result.status) {
        (None, _) => Effect::UnknownOrder,
        (Some(order), _) if order.product_code != claimed_product => Effect::Rejected,
        (Some(order), _) if order.status == OrderState::Paying => {
            // Not sent yet, so not from a game we sent it to; wait for the confirmation.
            return Err(HandlerError::Transient(format!(
                "order {} is still paying",
                order.id
            )));
        }
        (Some(order), Delivery::Delivered) if order.status == OrderState::AwaitingDelivery => {
            sqlx::query("update recharge_order set status = 'delivered', updated_at = now() where id = $1")
                .bind(order.id)
                .execute(&mut *conn)
                .await?;
            if let Some(transaction_id) = order.transaction_id {
                let event = PaymentSettled {
                    order_id: order.id,
                    user_id: order.user_id,
                    transaction_id,
                };
                outbox::enqueue(conn, topology::PAYMENT_SETTLED, &event)
                    .await
                    .map_err(|error| HandlerError::Transient(error.to_string()))?;
            }
            Effect::Applied
        }
        (Some(order), Delivery::Failed) if order.status == OrderState::AwaitingDelivery => {
            let reason = if result.reason.is_empty() {
                "failed without a reason"
            } else {
                result.reason.as_str()
            };
            sqlx::query(
                "update recharge_order set status = 'failed', failure_reason = $2, updated_at = now() where id = $1",
            )
            .bind(order.id)
            .bind(reason)
            .execute(&mut *conn)
            .await?;
            refund(conn, order, reason)
                .await
                .map_err(|error| HandlerError::Transient(error.to_string()))?;
            Effect::Applied
        }
        (Some(order), Delivery::Delivered) if order.status == OrderState::Delivered => Effect::Duplicate,
        (Some(order), Delivery::Failed) if order.status == OrderState::Failed => Effect::Duplicate,
        (Some(_), Delivery::Delivered) => Effect::Late,
        (Some(_), Delivery::Failed) => Effect::Conflicting,
    };
    let product_code = order.as_ref().map_or("", |order| order.product_code.as_str());
    sqlx::query(
        "insert into game_result (message_id, order_id, product_code, claimed_product, status, reason,
             occurred_at, effect)
         values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (message_id) do nothing",
    )
    .bind(message_id)
    .bind(result.order_id)
    .bind(product_code)
    .bind(claimed_product)
    .bind(result.status.as_str())
    .bind(&result.reason)
    .bind(result.occurred_at)
    .bind(effect.as_str())
    .execute(&mut *conn)
    .await?;
    match effect {
        Effect::Applied | Effect::Duplicate => {}
        Effect::Late => {
            metrics::counter!("recharge_late_deliveries_total").increment(1);
            tracing::warn!(order_id = %result.order_id, "delivery reported after the refund: kept for support, not paid again");
        }
        Effect::Conflicting => {
            tracing::warn!(order_id = %result.order_id, "failure reported after delivery: kept, nothing changed")
        }
        Effect::UnknownOrder => {
            tracing::warn!(order_id = %result.order_id, "result for an unknown order: kept")
        }
        Effect::Rejected => {
            metrics::counter!("recharge_results_rejected_total", "claimed_product" => claimed_product.to_owned())
                .increment(1);
            tracing::warn!(order_id = %result.order_id, order_product = product_code, claimed_product,
                "result for another product's order: kept as rejected, nothing changed")
        }
    }
    Ok(effect)
}

/// Consumes the games' answers.
pub struct GameResults;

impl Handler for GameResults {
    fn handle<'a>(&'a self, conn: &'a mut PgConnection, message: &'a Message) -> HandlerFuture<'a> {
        Box::pin(async move {
            let result: GameResult = message.json()?;
            let claimed_product = contract::result_product(&message.routing_key).unwrap_or_default();
            let effect = apply_result(conn, &message.id, claimed_product, &result).await?;
            tracing::info!(order_id = %result.order_id, status = result.status.as_str(), effect = effect.as_str(), "game result received");
            Ok(())
        })
    }
}
