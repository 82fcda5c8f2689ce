//! Development data: the demo player's wallet, written through the ledger's own operations
//! with fixed idempotency keys, so seeding again changes nothing.

use uuid::Uuid;

use crate::{
    app::{CoinMetadata, Debit, Ledger, Payment, Topup, TopupCredit, TopupType},
    domain::{Kp, Vnd},
};

fn card(key: &str, user_id: Uuid, provider: &str, serial: &str, value: i64) -> Topup {
    Topup {
        key: key.to_owned(),
        user_id,
        kind: TopupType::Card,
        source: provider.to_owned(),
        amount: Vnd::new(value),
        serial: serial.to_owned(),
    }
}

/// A credited viettel card, a payment for jxsj2 coin, a card the aggregator did not find, a
/// card still pending and a bank transfer, in that order.
pub async fn seed_demo(settings: &kid_platform::Settings, user_id: Uuid) -> anyhow::Result<()> {
    let pool = kid_platform::db::connect(&settings.database, "wallet").await?;
    let ledger = Ledger::new();
    // One transaction: the demo wallet is there whole or not at all.
    let mut tx = pool.begin().await?;
    ledger
        .credit(
            &mut tx,
            &TopupCredit {
                topup: card(
                    "demo-seed-card-viettel",
                    user_id,
                    "viettel",
                    "10000000000001",
                    100_000,
                ),
                kp: Kp::new(85_000),
                error_code: String::new(),
            },
        )
        .await?;
    let paid = ledger
        .debit(
            &mut tx,
            &Payment {
                key: "demo-seed-pay-jxsj2".into(),
                user_id,
                kp: Kp::new(20_000),
                metadata: CoinMetadata {
                    coin: 2_000,
                    coin_bonus: 200,
                    product_code: "jxsj2".into(),
                    product_name: "Kiếm Thế 2".into(),
                    coin_name: "Vàng".into(),
                },
            },
        )
        .await?;
    let Debit::Paid(paid) = paid else {
        anyhow::bail!("the demo player cannot pay for the demo coin");
    };
    ledger.settle_payment(&mut tx, user_id, paid.row.id).await?;
    let not_found = card(
        "demo-seed-card-vinaphone",
        user_id,
        "vinaphone",
        "30000000000003",
        20_000,
    );
    ledger.open_topup(&mut tx, &not_found).await?;
    ledger
        .fail_topup(&mut tx, &not_found.key, user_id, "NOT_FOUND")
        .await?;
    ledger
        .open_topup(
            &mut tx,
            &card(
                "demo-seed-card-mobifone",
                user_id,
                "mobifone",
                "200000000000002",
                50_000,
            ),
        )
        .await?;
    ledger
        .credit(
            &mut tx,
            &TopupCredit {
                topup: Topup {
                    key: "demo-seed-bank-vietcombank".into(),
                    user_id,
                    kind: TopupType::BankTransfer,
                    source: "vietcombank".into(),
                    amount: Vnd::new(500_000),
                    serial: String::new(),
                },
                kp: Kp::new(500_000),
                error_code: String::new(),
            },
        )
        .await?;
    tx.commit().await?;
    tracing::info!("demo wallet ready");
    Ok(())
}
