//! A player with a long history, as the full history meets it: seeded through the wallet's
//! own calls, then read a page at a time from the first page to the last, and exported as CSV;
//! beside PostgreSQL's own COPY of the same rows.

use std::time::{Duration, Instant};

use anyhow::Context;
use futures::{StreamExt, TryStreamExt, stream};
use kid_contracts::wallet::v1::{CoinMetadata, CreditRequest, DebitRequest, TopupType};
use sqlx::{PgPool, postgres::PgPoolCopyExt};
use uuid::Uuid;

use crate::{Figures, figures, load::Wallet};

/// One transaction in this many is a card top-up: the rare type a filter looks for.
pub const CARD_EVERY: usize = 1_000;
/// One in this many is a bank top-up; the rest are coin payments. Mostly payments: each credit
/// sums the player's top-ups of the last 28 days (the partner window), so a history of 100,000
/// credits would cost its seeding O(n²) row reads, which no player's 28 days come near.
const TOPUP_EVERY: usize = 10;
/// KP per payment: the funding credit covers 200,000 of them.
const PAYMENT_KP: i64 = 5_000;
const SEED_CONCURRENCY: usize = 32;

/// Gives `player` `count` top-ups and payments through the wallet's gRPC calls, as payment
/// and recharge make them (each with its related credit), `SEED_CONCURRENCY` at a time.
pub async fn seed(wallet: &Wallet, player: Uuid, count: usize) -> anyhow::Result<()> {
    let credit = |n: usize, topup_type: TopupType, kp: i64| CreditRequest {
        idempotency_key: format!("bench-history-{player}-{n}"),
        user_id: player.to_string(),
        topup_type: topup_type.into(),
        source: if topup_type == TopupType::Card {
            "viettel"
        } else {
            "vietcombank"
        }
        .into(),
        amount_vnd: kp,
        kp,
        card_serial: if topup_type == TopupType::Card {
            format!("{:014}", n)
        } else {
            String::new()
        },
        error_code: String::new(),
    };
    // Enough KP up front that no payment, in any order, finds the balance short.
    wallet
        .clone()
        .credit(credit(0, TopupType::BankTransfer, 1_000_000_000))
        .await
        .context("funding the long history")?;
    stream::iter(1..count)
        .map(|n| {
            let mut wallet = wallet.clone();
            async move {
                if n % CARD_EVERY == 0 {
                    wallet.credit(credit(n, TopupType::Card, 50_000)).await?;
                } else if n % TOPUP_EVERY == 0 {
                    wallet.credit(credit(n, TopupType::BankTransfer, 10_000)).await?;
                } else {
                    wallet
                        .debit(DebitRequest {
                            idempotency_key: format!("bench-history-{player}-{n}"),
                            user_id: player.to_string(),
                            kp: PAYMENT_KP,
                            metadata: Some(CoinMetadata {
                                coin: PAYMENT_KP / 10,
                                coin_bonus: 0,
                                product_code: "jxsj2".into(),
                                product_name: "Kiếm Thế 2".into(),
                                coin_name: "Vàng".into(),
                            }),
                        })
                        .await?;
                }
                Ok::<_, tonic::Status>(())
            }
        })
        .buffer_unordered(SEED_CONCURRENCY)
        .try_collect::<()>()
        .await
        .context("seeding the long history")
}

/// Reading every page of the history, one after the other as a player scrolling would.
pub struct Walk {
    pub pages: usize,
    pub transactions: usize,
    pub per_page: Figures,
    /// The cursor the last page was asked with: where the deepest page starts.
    pub last_cursor: Option<String>,
}

/// Follows `nextCursor` from the first page of `limit` to the last.
pub async fn walk(http: &reqwest::Client, base: &str, limit: usize) -> anyhow::Result<Walk> {
    let started = Instant::now();
    let (mut samples, mut transactions, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let url = match &cursor {
            Some(cursor) => format!("{base}/api/transactions?limit={limit}&cursor={cursor}"),
            None => format!("{base}/api/transactions?limit={limit}"),
        };
        let asked = Instant::now();
        let response = http.get(&url).send().await?;
        anyhow::ensure!(response.status().is_success(), "{url}: {}", response.status());
        let page: serde_json::Value = response.json().await?;
        samples.push(asked.elapsed());
        transactions += page["items"].as_array().map_or(0, Vec::len);
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    let pages = samples.len();
    Ok(Walk {
        pages,
        transactions,
        per_page: figures(samples, started.elapsed()),
        last_cursor: cursor,
    })
}

/// A download: rows (lines after the header), bytes and how long it took.
pub struct Download {
    pub rows: usize,
    pub bytes: usize,
    pub took: Duration,
}

impl Download {
    pub fn rows_per_second(&self) -> f64 {
        self.rows as f64 / self.took.as_secs_f64()
    }
}

/// `GET /api/transactions/export.csv`, read as it streams.
pub async fn export(http: &reqwest::Client, base: &str) -> anyhow::Result<Download> {
    let started = Instant::now();
    let mut response = http
        .get(format!("{base}/api/transactions/export.csv"))
        .send()
        .await?;
    anyhow::ensure!(response.status().is_success(), "export: {}", response.status());
    let (mut lines, mut bytes) = (0, 0);
    while let Some(chunk) = response.chunk().await? {
        lines += chunk.iter().filter(|byte| **byte == b'\n').count();
        bytes += chunk.len();
    }
    Ok(Download {
        rows: lines.saturating_sub(1),
        bytes,
        took: started.elapsed(),
    })
}

/// The ceiling of the export: PostgreSQL's COPY of the same player's top-ups and payments, in
/// the same order, to CSV, read by this process. The portal adds the related transactions,
/// the gRPC hops and the HTTP stream.
pub async fn raw_copy(wallet_db: &PgPool, player: Uuid) -> anyhow::Result<Download> {
    let started = Instant::now();
    let statement = format!(
        "copy (select id, type, status, real_value, currency, payload, created_at, updated_at
               from ledger_transaction where user_id = '{player}' and parent_id is null
               order by created_at desc, id desc) to stdout (format csv)"
    );
    let mut copied = wallet_db.copy_out_raw(&statement).await?;
    let (mut rows, mut bytes) = (0, 0);
    while let Some(chunk) = copied.next().await {
        let chunk = chunk?;
        rows += chunk.iter().filter(|byte| **byte == b'\n').count();
        bytes += chunk.len();
    }
    Ok(Download {
        rows,
        bytes,
        took: started.elapsed(),
    })
}
