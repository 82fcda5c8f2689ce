//! The full history through the gateway: `/api/transactions` paged by cursor over every
//! top-up and payment, its filters and their 422s, a receipt per transaction, and the CSV
//! export; each against the real wallet over gRPC.

use futures::{StreamExt, stream};
use kid_contracts::wallet::v1::{CoinMetadata, DebitRequest, OpenTopupRequest, TopupType};
use kid_testing::portal::{
    OperatorWallet, Portal, client, funding, get, get_json, operator_wallet, registered, start,
    status_and_json,
};
use reqwest::{StatusCode, header};
use serde_json::Value;
use time::{OffsetDateTime, macros::offset};
use uuid::Uuid;

fn wallet(portal: &Portal) -> OperatorWallet {
    operator_wallet(&portal.settings, &portal.wallet).expect("channel")
}

/// `count` bank top-ups of 1,000 KP each, several at a time.
async fn top_ups(portal: &Portal, player: Uuid, count: usize) {
    let wallet = wallet(portal);
    stream::iter(0..count)
        .for_each_concurrent(16, |n| {
            let mut wallet = wallet.clone();
            async move {
                wallet
                    .credit(funding(player, 1_000, format!("history-{player}-{n}")))
                    .await
                    .expect("credit");
            }
        })
        .await;
}

async fn pay(portal: &Portal, player: Uuid, key: &str, kp: i64) -> String {
    wallet(portal)
        .debit(DebitRequest {
            idempotency_key: key.into(),
            user_id: player.to_string(),
            kp,
            metadata: Some(CoinMetadata {
                coin: kp / 10,
                coin_bonus: 0,
                product_code: "jxsj2".into(),
                product_name: "Kiếm Thế 2".into(),
                coin_name: "Vàng".into(),
            }),
        })
        .await
        .expect("debit")
        .into_inner()
        .transaction
        .expect("transaction")
        .id
}

fn ids(items: &Value) -> Vec<String> {
    items
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["id"].as_str().expect("id").to_owned())
        .collect()
}

/// Every page of `query`, following `nextCursor`: the ids in order and the number of pages.
async fn every_page(http: &reqwest::Client, portal: &Portal, query: &str) -> (Vec<String>, usize) {
    let (mut all, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let path = match &cursor {
            Some(cursor) => format!("/transactions?{query}&cursor={cursor}"),
            None => format!("/transactions?{query}"),
        };
        let (status, page) = get_json(http, portal, &path).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        all.extend(ids(&page["items"]));
        pages += 1;
        match page["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return (all, pages),
        }
    }
}

fn today_in_vietnam() -> time::Date {
    OffsetDateTime::now_utc().to_offset(offset!(+7)).date()
}

#[tokio::test]
async fn a_player_pages_through_a_thousand_transactions_newest_first_and_none_twice() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "pager").await;
    top_ups(&portal, player, 1_005).await;
    let paid = pay(&portal, player, "pager-pay", 5_000).await;

    let (all, pages) = every_page(&http, &portal, "limit=100").await;
    assert_eq!((all.len(), pages), (1_006, 11));
    let unique: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!(unique.len(), 1_006, "a transaction came twice");
    assert_eq!(all[0], paid, "the newest first");

    // Newest created first, as each item's createdAt says.
    let (_, first) = get_json(&http, &portal, "/transactions").await;
    let items = first["items"].as_array().expect("items");
    assert_eq!(items.len(), 20, "20 by default");
    let times: Vec<OffsetDateTime> = items
        .iter()
        .map(|item| {
            OffsetDateTime::parse(
                item["createdAt"].as_str().expect("createdAt"),
                &time::format_description::well_known::Rfc3339,
            )
            .expect("RFC 3339")
        })
        .collect();
    assert!(times.windows(2).all(|pair| pair[0] >= pair[1]), "{times:?}");
    assert_eq!(items[0]["payload"]["metadata"]["productName"], "Kiếm Thế 2");

    // The spec's latest-10 view is as it was.
    let (_, latest) = get_json(&http, &portal, "/payment/transaction-history").await;
    assert_eq!(latest.as_array().map(Vec::len), Some(10));
}

#[tokio::test]
async fn filters_pick_by_type_status_and_day() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "filterer").await;
    top_ups(&portal, player, 3).await;
    let paid = pay(&portal, player, "filter-pay", 2_000).await;
    wallet(&portal)
        .open_topup(OpenTopupRequest {
            idempotency_key: "filter-card".into(),
            user_id: player.to_string(),
            topup_type: TopupType::Card.into(),
            source: "viettel".into(),
            amount_vnd: 50_000,
            card_serial: "10000000000009".into(),
        })
        .await
        .expect("open");

    let count = async |query: &str| {
        let (status, page) = get_json(&http, &portal, &format!("/transactions?{query}")).await;
        assert_eq!(status, StatusCode::OK, "{query}: {page}");
        page["items"].as_array().expect("items").len()
    };
    let (_, payments) = get_json(&http, &portal, "/transactions?type=credit.pay").await;
    assert_eq!(ids(&payments["items"]), [paid]);
    assert_eq!(count("type=topup.bank-transfer").await, 3);
    assert_eq!(count("type=topup.card&status=pending").await, 1);
    // A coin payment stays pending until the game answers (none does here).
    assert_eq!(count("status=success").await, 3);
    assert_eq!(count("status=pending").await, 2);
    assert_eq!(count("status=failed").await, 0);
    assert_eq!(count("type=").await, 5, "an empty filter is no filter");

    let today = today_in_vietnam();
    let (yesterday, tomorrow) = (today.previous_day().unwrap(), today.next_day().unwrap());
    assert_eq!(count(&format!("from={today}&to={today}")).await, 5);
    assert_eq!(count(&format!("from={tomorrow}")).await, 0);
    assert_eq!(count(&format!("to={yesterday}")).await, 0);
    assert_eq!(
        count(&format!("from={yesterday}&to={today}&status=pending")).await,
        2
    );
}

#[tokio::test]
async fn a_bad_filter_is_a_422_naming_its_field_in_vietnamese() {
    let portal = start(|_| {}).await;
    let (http, _) = registered(&portal, "badfilter").await;
    for (query, field) in [
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=ten", "limit"),
        ("cursor=not-a-cursor", "cursor"),
        ("type=credit.bonus", "type"),
        ("status=done", "status"),
        ("from=26/11/2026", "from"),
        ("to=2026-02-30", "to"),
        ("from=2026-11-02&to=2026-11-01", "to"),
    ] {
        let (status, body) = get_json(&http, &portal, &format!("/transactions?{query}")).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{query}: {body}");
        let message = body["errors"][field][0].as_str().unwrap_or_default();
        assert!(
            !message.is_empty() && body["message"] == message,
            "{query}: {body}"
        );
    }
    let (status, body) = get_json(&http, &portal, "/transactions/export.csv?status=done").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["errors"]["status"].is_array(), "{body}");
    // A repeated parameter is a JSON 400, not axum's plain text.
    let (status, body) = get_json(&http, &portal, "/transactions?type=topup.card&type=credit.pay").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn reading_another_players_receipt_or_history_by_forged_id_or_cursor_finds_nothing() {
    let portal = start(|_| {}).await;
    let (victim_http, victim) = registered(&portal, "victim").await;
    let (attacker_http, _) = registered(&portal, "attacker").await;
    top_ups(&portal, victim, 3).await;
    let paid = pay(&portal, victim, "victim-pay", 1_000).await;

    let (status, receipt) = get_json(&victim_http, &portal, &format!("/transactions/{paid}")).await;
    assert_eq!(status, StatusCode::OK, "{receipt}");
    assert_eq!(
        (receipt["id"].as_str(), receipt["type"].as_str()),
        (Some(paid.as_str()), Some("credit.pay"))
    );

    for path in [
        format!("/transactions/{paid}"),
        format!("/transactions/{}", Uuid::now_v7()),
        "/transactions/not-an-id".to_owned(),
    ] {
        let (status, body) = get_json(&attacker_http, &portal, &path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");
    }
    // The victim's cursor is a place in time, not a key to their rows.
    let (_, page) = get_json(&victim_http, &portal, "/transactions?limit=1").await;
    let cursor = page["nextCursor"].as_str().expect("a next page");
    let (status, page) = get_json(&attacker_http, &portal, &format!("/transactions?cursor={cursor}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(page["items"], serde_json::json!([]));
    let body = get(&attacker_http, &portal, "/api/transactions/export.csv")
        .await
        .text()
        .await
        .expect("csv");
    assert_eq!(body.lines().count(), 1, "only the header: {body}");
    for path in [
        "/transactions",
        "/transactions/export.csv",
        &format!("/transactions/{paid}"),
    ] {
        let (status, _) = status_and_json(get(&client(), &portal, &format!("/api{path}")).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
    }
}

#[tokio::test]
async fn the_export_is_a_csv_excel_opens_with_every_filtered_row() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "exporter").await;
    // More than one wallet page (1,000), so that the stream crosses a page boundary.
    top_ups(&portal, player, 1_100).await;
    let paid = pay(&portal, player, "export-pay", 20_000).await;

    let response = get(&http, &portal, "/api/transactions/export.csv").await;
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    assert_eq!(headers[header::CONTENT_TYPE], "text/csv; charset=utf-8");
    assert!(
        headers[header::CONTENT_DISPOSITION]
            .to_str()
            .is_ok_and(|value| value.starts_with("attachment; filename=") && value.ends_with(".csv\"")),
        "{headers:?}"
    );
    let bytes = response.bytes().await.expect("body");
    assert!(
        bytes.starts_with(b"\xEF\xBB\xBF"),
        "a UTF-8 byte order mark first"
    );
    let mut reader = csv::Reader::from_reader(&bytes[3..]);
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(header[0], "Mã giao dịch");
    let rows: Vec<csv::StringRecord> = reader.records().map(|row| row.expect("row")).collect();
    assert_eq!(rows.len(), 1_101);
    let ids: std::collections::HashSet<&str> = rows.iter().map(|row| &row[0]).collect();
    assert_eq!(ids.len(), 1_101, "a row came twice");
    let newest = &rows[0];
    assert_eq!(
        (
            &newest[0], &newest[1], &newest[2], &newest[3], &newest[4], &newest[5], &newest[6]
        ),
        (
            paid.as_str(),
            "credit.pay",
            "Nạp Kiếm Thế 2",
            "-20000",
            "KP",
            "2000 Vàng",
            "Đang xử lý"
        )
    );
    assert_eq!(&rows[1][5], "Nhận 1000 KP", "a top-up shows the KP it credited");

    let filtered = get(&http, &portal, "/api/transactions/export.csv?type=credit.pay")
        .await
        .bytes()
        .await
        .expect("body");
    let rows = csv::Reader::from_reader(&filtered[3..]).records().count();
    assert_eq!(rows, 1);
}
