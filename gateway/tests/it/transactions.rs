//! The ledger as players reach it through the gateway: `/api/me` composed from identity and
//! wallet, and `/api/payment/transaction-history` in the spec's shape.

use std::sync::Arc;

use kid_contracts::wallet::v1::{
    CoinMetadata, CreditRequest, DebitRequest, OpenTopupRequest, RecallRequest, TopupType,
    wallet_service_client::WalletServiceClient,
};
use kid_platform::{
    auth::{AttachInternalJwt, InternalJwt},
    grpc,
};
use kid_testing::portal::{client, get_json as get, registered, start};
use reqwest::StatusCode;
use serde_json::json;

#[tokio::test]
async fn a_player_sees_their_top_ups_and_payments_and_their_balance() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "history_player").await;
    let jwt = AttachInternalJwt::new(
        Arc::new(InternalJwt::new(&portal.settings.jwt).expect("keys")),
        kid_platform::auth::OPERATOR,
    );
    let mut wallet =
        WalletServiceClient::with_interceptor(grpc::lazy_channel(&portal.wallet).expect("channel"), jwt);

    let card = wallet
        .credit(CreditRequest {
            idempotency_key: "aggregator-1".into(),
            user_id: player.to_string(),
            topup_type: TopupType::Card.into(),
            source: "viettel".into(),
            amount_vnd: 100_000,
            kp: 85_000,
            card_serial: "10000000000001".into(),
            error_code: "WRONG_AMOUNT".into(),
        })
        .await
        .expect("credit")
        .into_inner()
        .transaction
        .expect("transaction");
    wallet
        .debit(DebitRequest {
            idempotency_key: "recharge-1".into(),
            user_id: player.to_string(),
            kp: 50_000,
            metadata: Some(CoinMetadata {
                coin: 5_000,
                coin_bonus: 500,
                product_code: "jxsj2".into(),
                product_name: "Kiếm Thế 2".into(),
                coin_name: "Vàng".into(),
            }),
        })
        .await
        .expect("debit");
    wallet
        .recall(RecallRequest {
            idempotency_key: "correction-1".into(),
            user_id: player.to_string(),
            transaction_id: card.id.clone(),
            kp: 45_000,
            corrected_amount_vnd: Some(0),
        })
        .await
        .expect("recall");
    wallet
        .open_topup(OpenTopupRequest {
            idempotency_key: "aggregator-2".into(),
            user_id: player.to_string(),
            topup_type: TopupType::Card.into(),
            source: "mobifone".into(),
            amount_vnd: 50_000,
            card_serial: "200000000000002".into(),
        })
        .await
        .expect("open");

    let (status, me) = get(&http, &portal, "/me").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (me["credit"].clone(), me["debtCredit"].clone()),
        (json!(0), json!(10_000))
    );
    assert_eq!(me["isPayPartner"], false);

    let (status, history) = get(&http, &portal, "/payment/transaction-history").await;
    assert_eq!(status, StatusCode::OK);
    let rows = history.as_array().expect("a list");
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["type"], "topup.card");
    assert_eq!(rows[0]["status"], "pending");
    assert_eq!(
        rows[0]["payload"],
        json!({ "provider": "mobifone", "serial": "200000000000002" })
    );
    // The recall bumped the card above the payment, which came after it.
    let recalled = &rows[1];
    assert_eq!(recalled["id"], card.id.as_str());
    assert_eq!(recalled["status"], "success");
    assert_eq!(recalled["realValue"], 100_000);
    assert_eq!(recalled["currency"], "VND");
    assert_eq!(recalled["payload"]["errorCode"], "WRONG_AMOUNT");
    let related: Vec<(String, i64)> = recalled["relatedTransactions"]
        .as_array()
        .expect("related")
        .iter()
        .map(|r| {
            (
                r["type"].as_str().unwrap_or_default().to_owned(),
                r["realValue"].as_i64().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        related,
        vec![
            ("credit.recharge".to_owned(), 85_000),
            ("credit.recall".to_owned(), 45_000)
        ]
    );
    let payment = &rows[2];
    assert_eq!(payment["type"], "credit.pay");
    assert_eq!(payment["realValue"], 50_000);
    assert_eq!(payment["currency"], "KP");
    assert_eq!(
        payment["payload"]["metadata"],
        json!({ "coin": 5_000, "coinBonus": 500, "productCode": "jxsj2", "productName": "Kiếm Thế 2", "coinName": "Vàng" })
    );
    assert!(payment["updatedAt"].as_str().is_some_and(|at| at.ends_with('Z')));
}

#[tokio::test]
async fn the_history_and_the_user_need_a_signed_in_player() {
    let portal = start(|_| {}).await;
    for path in ["/payment/transaction-history", "/me"] {
        let (status, body) = get(&client(), &portal, path).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
    }
}

#[tokio::test]
async fn a_new_player_has_an_empty_history_and_no_money() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "empty_player").await;
    let (status, history) = get(&http, &portal, "/payment/transaction-history").await;
    assert_eq!((status, history), (StatusCode::OK, json!([])));
    let (_, me) = get(&http, &portal, "/me").await;
    assert_eq!(
        (
            me["credit"].clone(),
            me["debtCredit"].clone(),
            me["payAmountLast28Days"].clone()
        ),
        (json!(0), json!(0), json!(0))
    );
}
