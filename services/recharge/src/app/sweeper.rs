//! The sweeper: drives orders whose debit got no clear answer, refunds orders whose game did
//! not answer in time, and asks the wallet again for giftcode grants it did not confirm. Safe on
//! several replicas: each decision is a conditional update or keyed by the wallet.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::{
    giftcodes::Giftcodes,
    orders::{OrderError, Orders},
};
use crate::{db, domain::order::REASON_DEADLINE, events};

/// How many overdue or stalled orders one sweep takes.
const SWEEP_BATCH: i64 = 100;

impl Orders {
    /// One sweep; returns how many orders were driven and how many expired.
    pub async fn sweep(&self, redrive_after: Duration) -> Result<(usize, usize), OrderError> {
        let stalled =
            db::orders::stalled(&mut *self.pool().acquire().await?, redrive_after, SWEEP_BATCH).await?;
        let driven = stalled.len();
        for order in stalled {
            let product =
                db::catalogue::product(&mut *self.pool().acquire().await?, &order.product_code).await?;
            let Some(product) = product else {
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
            let mut tx = self.pool().begin().await?;
            let overdue = db::orders::fail_overdue(&mut tx, REASON_DEADLINE, SWEEP_BATCH).await?;
            for order in &overdue {
                events::published::refund(&mut tx, order, REASON_DEADLINE).await?;
                order.count_finished("refunded");
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
}

/// Sweeps orders and stalled giftcode grants every `interval` until shutdown.
pub async fn run(
    orders: Orders,
    giftcodes: Giftcodes,
    interval: Duration,
    redrive_after: Duration,
    shutdown: CancellationToken,
) {
    loop {
        if let Err(error) = orders.sweep(redrive_after).await {
            tracing::warn!(error = %error, "recharge sweep failed; will retry");
        }
        match giftcodes.sweep(redrive_after).await {
            Ok(0) => {}
            Ok(granted) => tracing::info!(granted, "stalled giftcode grants confirmed"),
            Err(error) => tracing::warn!(error = %error, "giftcode sweep failed; will retry"),
        }
        tokio::select! {
            () = tokio::time::sleep(interval) => {}
            () = shutdown.cancelled() => return,
        }
    }
}
