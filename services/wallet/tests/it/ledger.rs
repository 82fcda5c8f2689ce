//! The ledger over real gRPC against a real PostgreSQL: credits, payments, refunds, recalls,
//! idempotency keys, concurrency, and the database's own guards.

use crate::common::{Wallet, credit, debit, related, start};
use futures::future::join_all;
use kid_contracts::topics::{self, TopupCorrected, TopupOpened, TopupReceived};
use kid_contracts::wallet::v1::{
    FailTopupRequest, ListTransactionsRequest, OpenTopupRequest, TopupType, TransactionStatus,
};
use kid_testing::eventually;
use tonic::Code;
use uuid::Uuid;

#[tokio::test]
async fn a_bank_top_up_credits_its_kp_once_however_often_the_feed_repeats_it() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let first = wallet.credit("feed-1", player, 500_000).await.expect("credit");
    assert_eq!(first.r#type, "topup.bank-transfer");
    assert_eq!(first.status(), TransactionStatus::Success);
    assert_eq!(first.real_value, 500_000);
    assert_eq!(first.currency, "VND");
    assert_eq!(related(&first, "credit.recharge"), Some(500_000));
    assert_eq!(related(&first, "credit.bonus"), None, "not a partner: no bonus");

    for _ in 0..3 {
        let again = wallet.credit("feed-1", player, 500_000).await.expect("replay");
        assert_eq!(again.id, first.id);
    }
    assert_eq!(wallet.account(player).await.credit, 500_000);
    wallet.assert_invariants().await;
}

#[tokio::test]
async fn the_same_key_credited_concurrently_moves_money_once() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let calls = (0..10).map(|_| wallet.credit("feed-race", player, 70_000));
    let results = join_all(calls).await;
    let ids: std::collections::HashSet<String> = results
        .into_iter()
        .map(|result| result.expect("every call answers with the one top-up").id)
        .collect();
    assert_eq!(ids.len(), 1);
    assert_eq!(wallet.account(player).await.credit, 70_000);
    wallet.assert_invariants().await;
}

#[tokio::test]
async fn a_key_reused_for_a_different_request_is_refused_and_moves_nothing() {
    let wallet = start().await;
    let (player, other) = (Uuid::new_v4(), Uuid::new_v4());
    wallet.credit("feed-2", player, 100_000).await.expect("credit");
    let different_amount = wallet
        .credit("feed-2", player, 900_000)
        .await
        .expect_err("reused");
    assert_eq!(different_amount.code(), Code::AlreadyExists);
    let other_player = wallet.credit("feed-2", other, 100_000).await.expect_err("reused");
    assert_eq!(other_player.code(), Code::AlreadyExists);

    wallet.debit("order-1", player, 10_000).await.expect("pay");
    let reused = wallet.debit("order-1", player, 20_000).await.expect_err("reused");
    assert_eq!(reused.code(), Code::AlreadyExists);
    assert_eq!(wallet.account(player).await.credit, 90_000);
    assert_eq!(wallet.account(other).await.credit, 0);
    wallet.assert_invariants().await;
}

/// The one key rule (kid_contracts::money::IdempotencyKey) at the wallet's door: a key too long,
/// or one a log or a header could not carry as it is, is refused before anything moves.
#[tokio::test]
async fn a_key_that_breaks_the_rule_is_refused_and_moves_nothing() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    wallet
        .credit("feed-key-rule", player, 50_000)
        .await
        .expect("credit");
    for bad in [
        "k".repeat(129),
        "two words".to_owned(),
        "mã-đơn".to_owned(),
        String::new(),
    ] {
        let refused = wallet.debit(&bad, player, 1_000).await.expect_err("refused");
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad:?}: {refused:?}");
        let refused = wallet.credit(&bad, player, 1_000).await.expect_err("refused");
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad:?}: {refused:?}");
    }
    assert_eq!(wallet.account(player).await.credit, 50_000);
    // The longest key the rule allows is served.
    wallet
        .debit(&"k".repeat(128), player, 1_000)
        .await
        .expect("128 characters");
    assert_eq!(wallet.account(player).await.credit, 49_000);
}

#[tokio::test]
async fn a_payment_larger_than_the_balance_is_refused_with_a_message_for_the_player() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    wallet.credit("feed-3", player, 5_000).await.expect("credit");
    let refused = wallet.debit("order-2", player, 5_001).await.expect_err("short");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(refused.message(), kid_wallet::grpc::MSG_INSUFFICIENT);
    let never_paid = wallet
        .debit("order-3", Uuid::new_v4(), 1)
        .await
        .expect_err("no wallet");
    assert_eq!(never_paid.code(), Code::FailedPrecondition);

    let paid = wallet
        .debit("order-2b", player, 5_000)
        .await
        .expect("a payment the balance covers");
    assert_eq!(paid.r#type, "credit.pay");
    assert_eq!(paid.currency, "KP");
    let metadata = paid
        .payload
        .and_then(|payload| payload.metadata)
        .expect("metadata");
    assert_eq!((metadata.coin, metadata.product_code.as_str()), (500, "fsonline"));
    assert_eq!(wallet.account(player).await.credit, 0);
    wallet.assert_invariants().await;
}

/// The recharge service deletes an order whose debit was refused. Had a retry under the same
/// key (a concurrent attempt, the sweeper) been paid once the balance grew, the KP would be gone
/// with no order to deliver or refund: a refusal is the key's answer for good.
#[tokio::test]
async fn a_refused_debit_retried_after_a_top_up_cannot_pay_for_an_order_already_deleted() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let refused = wallet
        .debit("order-10", player, 30_000)
        .await
        .expect_err("no KP yet");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    wallet.credit("feed-10", player, 50_000).await.expect("credit");
    let retried = join_all((0..5).map(|_| wallet.debit("order-10", player, 30_000))).await;
    for retry in retried {
        let status = retry.expect_err("still refused");
        assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
        assert_eq!(status.message(), kid_wallet::grpc::MSG_INSUFFICIENT);
    }
    let other_amount = wallet
        .debit("order-10", player, 20_000)
        .await
        .expect_err("reused");
    assert_eq!(other_amount.code(), Code::AlreadyExists);
    assert_eq!(wallet.account(player).await.credit, 50_000);
    wallet
        .debit("order-11", player, 30_000)
        .await
        .expect("a new order pays");
    assert_eq!(wallet.account(player).await.credit, 20_000);
    wallet.assert_invariants().await;
}

/// A card's correction and its credit travel as two events that nothing orders: a correction
/// that overtakes its credit is held, then recalled by the credit, once, whatever is repeated.
#[tokio::test]
async fn a_correction_that_overtakes_its_credit_is_held_and_applied_after_it() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let topup_key = format!("card:{}", Uuid::new_v4());
    let opened = TopupOpened {
        idempotency_key: topup_key.clone(),
        user_id: player,
        topup_type: topics::CARD.to_owned(),
        source: "viettel".to_owned(),
        amount_vnd: 100_000,
        card_serial: "10000000000001".to_owned(),
    };
    let corrected = TopupCorrected {
        idempotency_key: format!("{topup_key}:correction-1"),
        topup_key: topup_key.clone(),
        user_id: player,
        kp: 42_500,
        corrected_amount_vnd: 50_000,
    };
    let received = TopupReceived {
        idempotency_key: topup_key.clone(),
        user_id: player,
        topup_type: topics::CARD.to_owned(),
        source: "viettel".to_owned(),
        amount_vnd: 100_000,
        kp: 85_000,
        card_serial: "10000000000001".to_owned(),
        error_code: String::new(),
        received_at: Some(time::OffsetDateTime::now_utc()),
    };
    wallet.publish(topics::TOPUP_OPENED, &opened).await;
    wallet.publish(topics::TOPUP_CORRECTED, &corrected).await;
    eventually("the early correction is held, not dead-lettered", async || {
        (wallet.held_corrections().await == 1).then_some(())
    })
    .await;
    assert_eq!(wallet.account(player).await.credit, 0);

    wallet.publish(topics::TOPUP_RECEIVED, &received).await;
    eventually("the held correction is applied after the credit", async || {
        let applied = wallet.account(player).await.credit == 42_500;
        (applied && wallet.held_corrections().await == 0).then_some(())
    })
    .await;

    // The broker's redeliveries of both change nothing.
    wallet.publish(topics::TOPUP_CORRECTED, &corrected).await;
    wallet.publish(topics::TOPUP_RECEIVED, &received).await;
    eventually("every message is handled, none dead-lettered", async || {
        (wallet.handled_topup_events().await == 5).then_some(())
    })
    .await;
    assert_eq!(wallet.account(player).await.credit, 42_500);
    assert_eq!(wallet.held_corrections().await, 0);
    wallet.assert_invariants().await;
}

#[tokio::test]
async fn parallel_payments_succeed_exactly_as_far_as_the_balance_covers_them() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    wallet.credit("feed-4", player, 12_500).await.expect("credit");
    let payments = (0..20).map(|n| {
        let wallet = &wallet;
        async move { wallet.debit(&format!("order-par-{n}"), player, 1_000).await }
    });
    let results = join_all(payments).await;
    let succeeded = results.iter().filter(|result| result.is_ok()).count();
    let refused = results
        .iter()
        .filter(|result| matches!(result, Err(status) if status.code() == Code::FailedPrecondition))
        .count();
    let others: Vec<_> = results
        .iter()
        .filter_map(|result| result.as_ref().err())
        .filter(|status| status.code() != Code::FailedPrecondition)
        .collect();
    assert!(others.is_empty(), "{others:?}");
    assert_eq!((succeeded, refused), (12, 8));
    assert_eq!(wallet.account(player).await.credit, 500);
    assert_eq!(wallet.posted_balance(player).await, 500);
    wallet.assert_invariants().await;
}

#[tokio::test]
async fn a_refund_gives_the_kp_back_once_and_marks_the_payment_failed() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    wallet.credit("feed-5", player, 50_000).await.expect("credit");
    let payment = wallet.debit("order-5", player, 20_000).await.expect("pay");
    let refunded = wallet
        .refund("refund-5", player, &payment.id)
        .await
        .expect("refund");
    assert_eq!(refunded.id, payment.id);
    assert_eq!(refunded.status(), TransactionStatus::Failed);
    assert_eq!(related(&refunded, "credit.refund"), Some(20_000));
    let again = wallet
        .refund("refund-5", player, &payment.id)
        .await
        .expect("replay");
    assert_eq!(again.related_transactions, refunded.related_transactions);
    let other_key = wallet
        .refund("refund-5b", player, &payment.id)
        .await
        .expect_err("twice");
    assert_eq!(other_key.code(), Code::FailedPrecondition);
    let not_theirs = wallet
        .refund("refund-5c", Uuid::new_v4(), &payment.id)
        .await
        .expect_err("foreign");
    assert_eq!(not_theirs.code(), Code::NotFound);
    assert_eq!(wallet.account(player).await.credit, 50_000);
    wallet.assert_invariants().await;
}

/// money.md: balance 10,000, recall 30,000 → balance 0, debt 20,000. Next top-up 50,000 KP →
/// 20,000 settles the debt, balance 30,000, debt 0.
#[tokio::test]
async fn a_recall_beyond_the_balance_becomes_debt_that_the_next_top_up_settles_first() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let card = wallet.credit("feed-6", player, 40_000).await.expect("credit");
    wallet.debit("order-6", player, 30_000).await.expect("pay");
    assert_eq!(wallet.account(player).await.credit, 10_000);

    let (recalled, debt_added) = wallet
        .recall("recall-6", player, &card.id, 30_000)
        .await
        .expect("recall");
    assert_eq!(debt_added, 20_000);
    assert_eq!(related(&recalled, "credit.recall"), Some(30_000));
    let account = wallet.account(player).await;
    assert_eq!((account.credit, account.debt_credit), (0, 20_000));
    let (_, replayed_debt) = wallet
        .recall("recall-6", player, &card.id, 30_000)
        .await
        .expect("replay");
    assert_eq!(replayed_debt, 20_000, "the replay answers the first result");

    let next = wallet
        .credit("feed-7", player, 50_000)
        .await
        .expect("next top-up");
    assert_eq!(related(&next, "credit.recharge"), Some(50_000));
    assert_eq!(
        related(&next, "credit.recall"),
        Some(20_000),
        "shown as 'KP bị thu hồi'"
    );
    let account = wallet.account(player).await;
    assert_eq!((account.credit, account.debt_credit), (30_000, 0));
    wallet.assert_invariants().await;
}

#[tokio::test]
async fn a_recall_cannot_take_more_than_its_top_up_credited() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let topup = wallet.credit("feed-8", player, 10_000).await.expect("credit");
    wallet
        .recall("recall-8a", player, &topup.id, 6_000)
        .await
        .expect("recall");
    let too_much = wallet
        .recall("recall-8b", player, &topup.id, 4_001)
        .await
        .expect_err("over");
    assert_eq!(too_much.code(), Code::InvalidArgument);
    wallet
        .recall("recall-8c", player, &topup.id, 4_000)
        .await
        .expect("the rest");
    assert_eq!(wallet.account(player).await.credit, 0);
    wallet.assert_invariants().await;
}

#[tokio::test]
async fn a_card_waits_as_pending_then_is_credited_on_its_real_value_or_fails_without_kp() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let mut client = wallet.client.clone();
    let open = |key: &str, value: i64| OpenTopupRequest {
        idempotency_key: key.to_owned(),
        user_id: player.to_string(),
        topup_type: TopupType::Card.into(),
        source: "viettel".to_owned(),
        amount_vnd: value,
        card_serial: "10000000000001".to_owned(),
    };
    let pending = client
        .open_topup(open("card-1", 100_000))
        .await
        .expect("open")
        .into_inner();
    let pending = pending.transaction.expect("transaction");
    assert_eq!(pending.status(), TransactionStatus::Pending);
    assert_eq!(
        pending.payload.as_ref().map(|p| p.serial.as_str()),
        Some("10000000000001")
    );
    assert_eq!(wallet.account(player).await.credit, 0);

    let mut wrong_amount = credit("card-1", player, 50_000);
    wrong_amount.topup_type = TopupType::Card.into();
    wrong_amount.source = "viettel".to_owned();
    wrong_amount.kp = 42_500;
    wrong_amount.error_code = "WRONG_AMOUNT".to_owned();
    let credited = client.credit(wrong_amount).await.expect("credit").into_inner();
    let credited = credited.transaction.expect("transaction");
    assert_eq!(credited.id, pending.id);
    assert_eq!(credited.status(), TransactionStatus::Success);
    assert_eq!(credited.real_value, 50_000);
    assert_eq!(
        credited.payload.as_ref().map(|p| p.error_code.as_str()),
        Some("WRONG_AMOUNT")
    );
    assert_eq!(related(&credited, "credit.recharge"), Some(42_500));

    client.open_topup(open("card-2", 20_000)).await.expect("open");
    let fail = FailTopupRequest {
        idempotency_key: "card-2".to_owned(),
        user_id: player.to_string(),
        error_code: "NOT_FOUND".to_owned(),
    };
    let failed = client.fail_topup(fail.clone()).await.expect("fail").into_inner();
    let failed = failed.transaction.expect("transaction");
    assert_eq!(failed.status(), TransactionStatus::Failed);
    assert_eq!(
        failed.payload.as_ref().map(|p| p.error_code.as_str()),
        Some("NOT_FOUND")
    );
    client.fail_topup(fail).await.expect("failing again is a replay");
    let mut late = credit("card-2", player, 20_000);
    late.topup_type = TopupType::Card.into();
    let late = client.credit(late).await.expect_err("a failed card stays failed");
    assert_eq!(late.code(), Code::FailedPrecondition);
    assert_eq!(wallet.account(player).await.credit, 42_500);
    wallet.assert_invariants().await;
}

#[tokio::test]
async fn the_history_lists_the_latest_top_ups_and_payments_newest_first() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    for n in 0..12 {
        wallet
            .credit(&format!("feed-h{n}"), player, 1_000 + n)
            .await
            .expect("credit");
    }
    wallet.debit("order-h", player, 500).await.expect("pay");
    let history = wallet
        .client
        .clone()
        .list_transactions(ListTransactionsRequest {
            user_id: player.to_string(),
            limit: 10,
        })
        .await
        .expect("history")
        .into_inner()
        .transactions;
    assert_eq!(history.len(), 10);
    assert_eq!(history[0].r#type, "credit.pay");
    let values: Vec<i64> = history[1..].iter().map(|t| t.real_value).collect();
    assert_eq!(values, (3..12).rev().map(|n| 1_000 + n).collect::<Vec<_>>());
    assert!(history.iter().all(|t| t.updated_at.is_some()));
}

#[tokio::test]
async fn requests_without_a_key_a_player_or_a_positive_amount_are_invalid() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let mut client = wallet.client.clone();
    let cases = [
        credit("", player, 1_000),
        credit("k", player, 0),
        credit("k", player, -5),
        {
            let mut request = credit("k", player, 1_000);
            request.user_id = "not-a-uuid".to_owned();
            request
        },
        {
            let mut request = credit("k", player, 1_000);
            request.topup_type = TopupType::Unspecified.into();
            request
        },
        {
            let mut request = credit("k", player, 1_000);
            request.source = "vietcombank'; drop table posting".to_owned();
            request
        },
    ];
    for request in cases {
        let status = client.credit(request.clone()).await.expect_err("invalid");
        assert_eq!(status.code(), Code::InvalidArgument, "{request:?}");
    }
    let status = client.debit(debit("k", player, 0)).await.expect_err("invalid");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(wallet.account(player).await.credit, 0);
}

async fn raw(wallet: &Wallet, sql: &str) -> Result<(), sqlx::Error> {
    let mut tx = wallet.pool.begin().await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

#[tokio::test]
async fn the_database_itself_refuses_unbalanced_changed_or_overspending_postings() {
    let wallet = start().await;
    let player = Uuid::new_v4();
    let topup = wallet.credit("feed-db", player, 1_000).await.expect("credit");
    let payment_sql = |amount: i64, sales: i64| {
        format!(
            "insert into ledger_transaction (id, user_id, type, status, real_value, currency)
             values ('{id}', '{player}', 'credit.pay', 'success', {amount}, 'KP');
             insert into posting (transaction_id, account_id, amount)
             select '{id}', kp_account_id, -{amount} from player where user_id = '{player}';
             insert into posting (transaction_id, account_id, amount)
             select '{id}', id, {sales} from account where purpose = 'game-sales';",
            id = Uuid::new_v4()
        )
    };
    let unbalanced = raw(&wallet, &payment_sql(100, 99)).await;
    assert!(
        unbalanced.is_err(),
        "postings that do not sum to zero are refused at commit"
    );
    let overspent = raw(&wallet, &payment_sql(1_001, 1_001)).await;
    assert!(overspent.is_err(), "a negative balance is refused");
    let changed = raw(&wallet, "update posting set amount = amount * 2").await;
    assert!(changed.is_err(), "postings are immutable");
    let deleted = raw(&wallet, "delete from posting").await;
    assert!(deleted.is_err(), "postings are never deleted");
    assert_eq!(wallet.account(player).await.credit, 1_000);
    assert_eq!(related(&topup, "credit.recharge"), Some(1_000));
    wallet.assert_invariants().await;
}

/// The gateway faces the internet: were it taken, its key must not move money. A token minted
/// for the gateway may read a wallet but is refused by every method that credits, recalls,
/// debits or refunds; payment and recharge may call theirs; a token naming payment but signed
/// with the gateway's key is not taken for payment's.
#[tokio::test]
async fn a_token_minted_for_the_gateway_cannot_credit_or_debit_a_wallet() {
    use std::sync::Arc;

    use kid_contracts::wallet::v1::{GetAccountRequest, wallet_service_client::WalletServiceClient};
    use kid_platform::auth::{self, AttachInternalJwt, InternalJwt};

    let wallet = start().await;
    let player = Uuid::new_v4();
    let jwt = Arc::new(InternalJwt::new(&wallet.settings.jwt).expect("keys"));
    let channel = kid_platform::grpc::lazy_channel(&wallet.endpoint).expect("channel");
    let as_caller = |caller: &str| {
        WalletServiceClient::with_interceptor(channel.clone(), AttachInternalJwt::new(jwt.clone(), caller))
    };

    let mut gateway = as_caller(auth::GATEWAY);
    let denied = gateway
        .credit(credit("stolen-1", player, 1_000_000))
        .await
        .expect_err("the gateway may not credit");
    assert_eq!(denied.code(), Code::PermissionDenied, "{denied:?}");
    let denied = gateway
        .debit(debit("stolen-2", player, 1))
        .await
        .expect_err("nor debit");
    assert_eq!(denied.code(), Code::PermissionDenied, "{denied:?}");
    gateway
        .get_account(GetAccountRequest {
            user_id: player.to_string(),
        })
        .await
        .expect("the gateway reads balances");

    // The services whose job it is may.
    as_caller(auth::PAYMENT)
        .credit(credit("paid-1", player, 50_000))
        .await
        .expect("payment credits");
    as_caller(auth::RECHARGE)
        .debit(debit("order-12", player, 20_000))
        .await
        .expect("recharge debits");
    let denied = as_caller(auth::RECHARGE)
        .credit(credit("paid-2", player, 50_000))
        .await
        .expect_err("recharge does not credit");
    assert_eq!(denied.code(), Code::PermissionDenied);

    // The gateway's private key signing a token that names payment: not payment's, refused.
    let mut forged = wallet.settings.jwt.clone();
    let gateway_key = forged.signing_keys[auth::GATEWAY].clone();
    forged.signing_keys.insert(auth::PAYMENT.to_owned(), gateway_key);
    forged.public_keys.clear();
    let forger = AttachInternalJwt::new(Arc::new(InternalJwt::new(&forged).expect("keys")), auth::PAYMENT);
    let refused = WalletServiceClient::with_interceptor(channel.clone(), forger)
        .credit(credit("stolen-3", player, 1_000_000))
        .await
        .expect_err("forged");
    assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    assert_eq!(wallet.account(player).await.credit, 30_000);
}
