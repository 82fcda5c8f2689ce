//! Placing a coin order and paying for it.
//!
//! The wallet's ledger and our orders live in different schemas, so the debit and the order
//! are tied by the order id instead of one database transaction:
//!
//! 0. the game is asked whether the player has a character on the zone (`app::characters`);
//!    none, or no answer when the policy refuses, ends it here (nothing stored, nothing moved);
//! 1. the order is stored `paying` (nothing moved yet);
//! 2. the wallet debits its KP with the order id as idempotency key;
//! 3. one transaction marks it `awaiting_delivery` and writes the game's order to the outbox.
//!
//! A refused debit deletes the order (nothing moved). A debit with no clear answer leaves it
//! `paying`, and the sweeper (`app::sweeper`) drives it again: the same key debits at most
//! once, so the order ends either debited and sent, or deleted. The game's answer
//! (`app::results`), or its silence past the deadline, settles or refunds the payment through
//! the wallet's durable queue.

use std::time::Duration;

use kid_contracts::wallet::v1::{CoinMetadata, DebitRequest, wallet_service_client::WalletServiceClient};
use kid_contracts::{
    messages::wallet::MSG_INSUFFICIENT_BALANCE, money::Coins, reasons::is_insufficient_balance,
};
use kid_platform::{auth::AttachInternalJwt, outbox::OutboxError, validation::FieldErrors};
use sqlx::PgPool;
use tonic::{service::interceptor::InterceptedService, transport::Channel};
use uuid::Uuid;

use super::characters::{Characters, Unconfirmed};
use crate::{
    db,
    domain::{
        self, OrderState,
        catalogue::Product,
        order::{
            MSG_AMOUNT_REQUIRED, MSG_AMOUNT_UNKNOWN, MSG_NO_CHARACTER, MSG_ZONE_REQUIRED, MSG_ZONE_UNKNOWN,
            NewOrder, Order,
        },
    },
    events,
};

pub type WalletClient = WalletServiceClient<InterceptedService<Channel, AttachInternalJwt>>;

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
    /// The game did not answer the character check and the policy refuses such orders.
    #[error("the game did not answer the character check")]
    CharacterUnchecked,
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
    characters: Characters,
}

impl Orders {
    pub fn new(pool: PgPool, wallet: WalletClient, deadline: Duration, characters: Characters) -> Self {
        Self {
            pool,
            wallet,
            deadline,
            characters,
        }
    }

    pub fn characters(&self) -> &Characters {
        &self.characters
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Places the order and pays for it. A repeated key returns the order it placed first.
    /// When the wallet gives no clear answer the order is returned still `paying`: it will be
    /// driven again, so the caller must not place another.
    pub async fn place(&self, request: NewOrder) -> Result<Placed, OrderError> {
        let mut conn = self.pool.acquire().await?;
        let info = db::catalogue::recharge_info(&mut conn, &request.product_code)
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
        // A retried key finds its order, whose character was checked when it was placed.
        if db::orders::find_by_key(&mut conn, request.user_id, &request.key)
            .await?
            .is_none()
        {
            // No connection is held while the game thinks.
            drop(conn);
            match self
                .characters
                .confirm(&info.product.code, zone.id, &request.username)
                .await
            {
                Ok(_) => {}
                Err(Unconfirmed::Missing) => {
                    return Err(OrderError::Invalid(FieldErrors::one("zoneId", MSG_NO_CHARACTER)));
                }
                Err(Unconfirmed::Unchecked) => return Err(OrderError::CharacterUnchecked),
            }
            conn = self.pool.acquire().await?;
        }
        // The table's checks keep both non-negative.
        let coins = |value: i64| Coins::parse(value).unwrap_or_default();
        let payout = domain::payout(
            coins(value.coins_received),
            coins(value.coins_bonus),
            &info.active_events(),
        );
        let order = match db::orders::insert_paying(&mut conn, &request, &info.product.code, payout).await? {
            Some(order) => order,
            None => {
                let first = db::orders::find_by_key(&mut conn, request.user_id, &request.key)
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
        drop(conn);
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
    pub(crate) async fn pay(&self, order: Order, product: &Product) -> Result<Order, OrderError> {
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
                db::orders::delete_paying(&mut *self.pool.acquire().await?, order.id).await?;
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
        let updated = db::orders::mark_debited(&mut tx, order_id, transaction_id, self.deadline).await?;
        let order = match updated {
            Some(order) => {
                let (Some(transaction_id), Some(deliver_by)) = (order.transaction_id, order.deliver_by)
                else {
                    return Err(OrderError::Database(sqlx::Error::RowNotFound));
                };
                events::published::send_to_game(&mut tx, &order, transaction_id, deliver_by).await?;
                order
            }
            None => db::orders::find(&mut tx, order_id)
                .await?
                .ok_or(sqlx::Error::RowNotFound)?,
        };
        tx.commit().await?;
        Ok(order)
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
