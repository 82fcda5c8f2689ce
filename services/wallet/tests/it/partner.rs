//! Partner status and tiers (money.md), recalculated from RabbitMQ events after every credited
//! top-up and by a daily schedule that several replicas may run at once.

use crate::common::{Wallet, related, start};
use futures::future::join_all;
use kid_contracts::wallet::v1::{GetAccountResponse, TopupType, Transaction};
use kid_testing::eventually;
use uuid::Uuid;

/// Waits until the event-driven recalculation has stored `expected` partner figures.
async fn partner_becomes(wallet: &Wallet, player: Uuid, expected: (bool, i32, i64)) -> GetAccountResponse {
    eventually(&format!("the partner figures become {expected:?}"), async || {
        let account = wallet.account(player).await;
        let figures = (
            account.is_pay_partner,
            account.partner_bonus_bps,
            account.pay_amount_last_28_days,
        );
        (figures == expected).then_some(account)
    })
    .await
}

/// money.md: 19,000,000 (no bonus), then 21,000,000 activates partnership with 15% =
/// 3,150,000; the sum is 40,000,000 so the tier is 15%. A further 15,000,000 brings the sum to
/// 55,000,000: that order is bonused at 15%, later orders at 20%.
#[tokio::test]
async fn the_worked_example_activates_partnership_and_then_moves_up_a_tier() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let first = wallet.credit("big-1", player, 19_000_000).await.expect("credit");
    assert_eq!(related(&first, "credit.bonus"), None);
    partner_becomes(&wallet, player, (false, 0, 19_000_000)).await;

    let second = wallet.credit("big-2", player, 21_000_000).await.expect("credit");
    assert_eq!(related(&second, "credit.bonus"), Some(3_150_000));
    partner_becomes(&wallet, player, (true, 1500, 40_000_000)).await;

    let third = wallet.credit("big-3", player, 15_000_000).await.expect("credit");
    assert_eq!(
        related(&third, "credit.bonus"),
        Some(2_250_000),
        "the tier in force: 15%"
    );
    partner_becomes(&wallet, player, (true, 2000, 55_000_000)).await;

    let fourth = wallet.credit("big-4", player, 1_000_000).await.expect("credit");
    assert_eq!(
        related(&fourth, "credit.bonus"),
        Some(200_000),
        "later orders: 20%"
    );
    let account = partner_becomes(&wallet, player, (true, 2000, 56_000_000)).await;
    assert_eq!(
        account.credit,
        19_000_000 + 21_000_000 + 3_150_000 + 15_000_000 + 2_250_000 + 1_000_000 + 200_000
    );
    wallet.assert_invariants().await;
}

/// money.md: a 100,000 card at 15% fee gives 85,000 KP; at tier 25% the bonus is 21,250.
#[tokio::test]
async fn a_partner_at_the_top_tier_gets_a_quarter_more_on_a_card() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    wallet.credit("big-5", player, 100_000_000).await.expect("credit");
    partner_becomes(&wallet, player, (true, 2500, 100_000_000)).await;
    let card = viettel_card(&wallet, "card-5", player).await;
    assert_eq!(related(&card, "credit.recharge"), Some(85_000));
    assert_eq!(related(&card, "credit.bonus"), Some(21_250));
    partner_becomes(&wallet, player, (true, 2500, 100_100_000)).await;
}

/// A recall of 5,000,000 of a 20,000,000 activation (bonus 3,000,000 at 15%) takes back the
/// 750,000 of bonus the lost 5,000,000 earned; all of it is debt, as everything was spent.
#[tokio::test]
async fn the_partner_bonus_settles_debt_too_before_anything_reaches_the_balance() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let topup = wallet.credit("big-6", player, 20_000_000).await.expect("credit");
    assert_eq!(related(&topup, "credit.bonus"), Some(3_000_000));
    wallet.debit("order-6", player, 23_000_000).await.expect("pay");
    let (_, debt) = wallet
        .recall("recall-6", player, &topup.id, 5_000_000)
        .await
        .expect("recall");
    assert_eq!(debt, 5_750_000);
    partner_becomes(&wallet, player, (true, 1500, 20_000_000)).await;
    let next = wallet.credit("big-7", player, 4_000_000).await.expect("credit");
    assert_eq!(related(&next, "credit.bonus"), Some(600_000));
    assert_eq!(related(&next, "credit.recall"), Some(4_600_000));
    let account = wallet.account(player).await;
    assert_eq!((account.credit, account.debt_credit), (0, 1_150_000));
    wallet.assert_invariants().await;
}

/// docs/money.md, corrections: a partner at 25% tops up a 100,000 card (85,000 KP + 21,250
/// bonus) that the aggregator later finds worth 50,000 (42,500 KP). The recall takes the
/// 42,500 KP and the 10,625 of bonus they earned; what the balance cannot give is debt. A
/// second correction to 20,000 (17,000 KP) takes 25,500 KP and 6,375 bonus more.
#[tokio::test]
async fn a_card_found_lower_takes_back_the_partner_bonus_its_lost_value_earned() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    wallet.credit("big-8", player, 100_000_000).await.expect("credit");
    partner_becomes(&wallet, player, (true, 2500, 100_000_000)).await;
    let card = viettel_card(&wallet, "card-8", player).await;
    assert_eq!(related(&card, "credit.bonus"), Some(21_250));
    // Everything but 20,000 KP is spent.
    let balance = wallet.account(player).await.credit;
    wallet
        .debit("order-8", player, balance - 20_000)
        .await
        .expect("pay");

    let (recalled, debt) = wallet
        .recall("correction-8a", player, &card.id, 42_500)
        .await
        .expect("recall");
    assert_eq!(related(&recalled, "credit.recall"), Some(42_500 + 10_625));
    assert_eq!(debt, 42_500 + 10_625 - 20_000);
    let account = wallet.account(player).await;
    assert_eq!((account.credit, account.debt_credit), (0, 33_125));

    // The aggregator's retry of the same correction changes nothing.
    let (_, replayed) = wallet
        .recall("correction-8a", player, &card.id, 42_500)
        .await
        .expect("replay");
    assert_eq!(replayed, 33_125);
    assert_eq!(wallet.account(player).await.debt_credit, 33_125);

    let (_, more) = wallet
        .recall("correction-8b", player, &card.id, 25_500)
        .await
        .expect("second correction");
    assert_eq!(more, 25_500 + 6_375);
    assert_eq!(wallet.account(player).await.debt_credit, 33_125 + 31_875);
    // Nothing is left to recall: the remaining 17,000 KP keep their 4,250 bonus.
    let too_much = wallet
        .recall("correction-8c", player, &card.id, 17_001)
        .await
        .expect_err("beyond the top-up");
    assert_eq!(too_much.code(), tonic::Code::InvalidArgument, "{too_much:?}");
    wallet.assert_invariants().await;
}

async fn reopen_today(wallet: &Wallet) {
    sqlx::query("delete from scheduled_run")
        .execute(&wallet.pool)
        .await
        .expect("reopen the day");
}

#[tokio::test]
async fn as_the_window_slides_the_daily_recalculation_ends_a_lapsed_partnership() {
    let wallet = start().await;
    let (lapsing, keeping) = (Uuid::new_v4(), Uuid::new_v4());
    wallet
        .credit("slide-1", lapsing, 25_000_000)
        .await
        .expect("credit");
    wallet
        .credit("slide-2", keeping, 25_000_000)
        .await
        .expect("credit");
    partner_becomes(&wallet, lapsing, (true, 1500, 25_000_000)).await;
    partner_becomes(&wallet, keeping, (true, 1500, 25_000_000)).await;

    // 20 days on, `keeping` tops up 12,000,000 twice: orders too small to activate anyone, but
    // they keep a partner's 28-day sum above 20,000,000 once the large order has left it.
    wallet.age_topups(lapsing, 20).await;
    wallet.age_topups(keeping, 20).await;
    wallet
        .credit("slide-3", keeping, 12_000_000)
        .await
        .expect("credit");
    wallet
        .credit("slide-4", keeping, 12_000_000)
        .await
        .expect("credit");
    partner_becomes(&wallet, keeping, (true, 1500, 49_000_000)).await;

    wallet.age_topups(lapsing, 9).await;
    wallet.age_topups(keeping, 9).await;
    reopen_today(&wallet).await;
    let asked = kid_wallet::events::schedule_daily_recalculation(&wallet.pool)
        .await
        .expect("schedule");
    assert_eq!(asked, Some(2));
    partner_becomes(&wallet, lapsing, (false, 0, 0)).await;
    partner_becomes(&wallet, keeping, (true, 1500, 24_000_000)).await;
    let next = wallet
        .credit("slide-5", lapsing, 1_000_000)
        .await
        .expect("credit");
    assert_eq!(related(&next, "credit.bonus"), None, "no longer a partner");
}

#[tokio::test]
async fn replicas_racing_for_the_daily_recalculation_schedule_it_once() {
    let wallet = start().await;
    let players: Vec<Uuid> = (0..3).map(|_| Uuid::new_v4()).collect();
    for (n, player) in players.iter().enumerate() {
        wallet
            .credit(&format!("daily-{n}"), *player, 1_000_000)
            .await
            .expect("credit");
    }
    reopen_today(&wallet).await;
    let before: i64 = sqlx::query_scalar(
        "select count(*) from outbox_message where routing_key = 'wallet.partner.recalculate'",
    )
    .fetch_one(&wallet.pool)
    .await
    .expect("count");
    let replicas = (0..4).map(|_| kid_wallet::events::schedule_daily_recalculation(&wallet.pool));
    let outcomes: Vec<Option<usize>> = join_all(replicas)
        .await
        .into_iter()
        .map(|outcome| outcome.expect("schedule"))
        .collect();
    assert_eq!(outcomes.iter().filter(|o| o.is_some()).count(), 1, "{outcomes:?}");
    assert_eq!(outcomes.iter().flatten().sum::<usize>(), 3);
    let after: i64 = sqlx::query_scalar(
        "select count(*) from outbox_message where routing_key = 'wallet.partner.recalculate'",
    )
    .fetch_one(&wallet.pool)
    .await
    .expect("count");
    assert_eq!(after - before, 3);
}

#[tokio::test]
async fn a_credited_top_up_is_announced_on_the_events_exchange() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let topup = wallet
        .credit("announce-1", player, 300_000)
        .await
        .expect("credit");
    eventually(
        "the event is written with the credit and published by the relay",
        async || {
            let row: Option<(serde_json::Value, Option<time::OffsetDateTime>)> = sqlx::query_as(
            "select payload, published_at from outbox_message where routing_key = 'wallet.topup.credited'",
        )
        .fetch_optional(&wallet.pool)
        .await
        .expect("outbox");
            matches!(row, Some((payload, Some(_)))
            if payload["transactionId"] == topup.id.as_str()
                && payload["userId"] == player.to_string().as_str()
                && payload["amountVnd"] == 300_000
                && payload["kp"] == 300_000)
            .then_some(())
        },
    )
    .await;
}

/// A 100,000 Viettel card credited at 15% fee: 85,000 KP before any partner bonus.
async fn viettel_card(wallet: &Wallet, key: &str, player: Uuid) -> Transaction {
    let mut card = crate::common::credit(key, player, 100_000);
    card.topup_type = TopupType::Card.into();
    card.source = "viettel".to_owned();
    card.kp = 85_000;
    wallet
        .client
        .clone()
        .credit(card)
        .await
        .expect("credit")
        .into_inner()
        .transaction
        .expect("transaction")
}
