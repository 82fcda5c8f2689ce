//! `POST /api/rum`: players' browsers report each page's web vitals, which become the
//! histograms the dashboard and the slow-LCP alert read. Anyone can send a beacon, so the
//! attacks are on the figures and the labels: a flood from one address, a body too large, a
//! figure no browser gives, and a path per request to grow the label set without end.

use reqwest::{Client, StatusCode, header};
use serde_json::{Value, json};

use kid_testing::{
    metric as sample,
    portal::{client_at, start},
};

/// What `navigator.sendBeacon` sends: a JSON blob, no XSRF header, no Origin check to pass.
async fn beacon(http: &Client, base: &str, body: &Value) -> (StatusCode, Value) {
    let response = http
        .post(format!("{base}/api/rum"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("beacon");
    let status = response.status();
    let text = response.text().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_beacon_flood_bad_figures_and_invented_paths_neither_grow_labels_nor_pass_their_bounds() {
    let metrics = kid_platform::metrics::handle();
    let portal = start(|settings| {
        settings.gateway.client_ip_source = "RightmostXForwardedFor".to_owned();
    })
    .await;
    let player = client_at("198.51.100.20");
    let page = json!({
        "path": "/recharge/jxonline2",
        "figures": [
            { "name": "LCP", "value": 1800.0 },
            { "name": "TTFB", "value": 120.0 },
            { "name": "CLS", "value": 0.04 },
        ],
    });
    let (status, body) = beacon(&player, &portal.base, &page).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let rendered = metrics.render();
    assert_eq!(
        sample(
            &rendered,
            r#"kid_web_vitals_seconds_bucket{metric="LCP",route="/recharge/:productCode",le="2"}"#
        ),
        Some(1.0),
        "{rendered}"
    );
    assert_eq!(
        sample(
            &rendered,
            r#"kid_web_vitals_seconds_bucket{metric="LCP",route="/recharge/:productCode",le="1.5"}"#
        ),
        Some(0.0)
    );
    assert_eq!(
        sample(
            &rendered,
            r#"kid_web_vitals_cls_bucket{route="/recharge/:productCode",le="0.05"}"#
        ),
        Some(1.0)
    );

    // Invented paths, and a token in a reset link's, all count under known labels.
    for path in [
        "/x-1",
        "/wp-login.php",
        "/recovery/forgot-password/a-reset-token-xyz",
    ] {
        let body = json!({ "path": path, "figures": [{ "name": "FCP", "value": 900.0 }] });
        assert_eq!(
            beacon(&player, &portal.base, &body).await.0,
            StatusCode::NO_CONTENT
        );
    }
    let rendered = metrics.render();
    assert!(!rendered.contains("a-reset-token-xyz"));
    assert!(!rendered.contains("wp-login"));
    assert_eq!(
        sample(
            &rendered,
            r#"kid_web_vitals_seconds_count{metric="FCP",route="other"}"#
        ),
        Some(2.0),
        "{rendered}"
    );

    // Figures no browser gives, unknown metrics, too many figures, a body over 4 KiB: refused,
    // in JSON, and nothing recorded.
    let before = metrics.render();
    let many: Vec<Value> = (0..17)
        .map(|_| json!({ "name": "INP", "value": 100.0 }))
        .collect();
    for bad in [
        json!({ "path": "/login", "figures": [{ "name": "LCP", "value": -1.0 }] }),
        json!({ "path": "/login", "figures": [{ "name": "LCP", "value": 1.0e12 }] }),
        json!({ "path": "/login", "figures": [{ "name": "CLS", "value": 1000.0 }] }),
        json!({ "path": "/login", "figures": [{ "name": "FID", "value": 10.0 }] }),
        json!({ "path": "/login", "figures": many }),
        json!({ "path": "/login", "figures": [], "cookie": "x" }),
    ] {
        let (status, body) = beacon(&player, &portal.base, &bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["message"].is_string(), "{body}");
    }
    let huge = json!({ "path": "/".repeat(5000), "figures": [] });
    assert_eq!(
        beacon(&player, &portal.base, &huge).await.0,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let after = metrics.render();
    assert_eq!(
        sample(
            &before,
            r#"kid_web_vitals_seconds_count{metric="LCP",route="/recharge/:productCode"}"#
        ),
        sample(
            &after,
            r#"kid_web_vitals_seconds_count{metric="LCP",route="/recharge/:productCode"}"#
        ),
    );
    assert!(!after.contains(r#"route="/login""#), "{after}");

    // One address sending without end is stopped at 300 beacons in the window (those above
    // counted too); another address is not.
    let flooder = client_at("203.0.113.99");
    let small = json!({ "path": "/login", "figures": [{ "name": "TTFB", "value": 50.0 }] });
    let mut accepted = 0;
    let mut refused = None;
    for _ in 0..310 {
        match beacon(&flooder, &portal.base, &small).await {
            (StatusCode::NO_CONTENT, _) => accepted += 1,
            (status, body) => {
                refused = Some((status, body));
                break;
            }
        }
    }
    let (status, body) = refused.expect("the flood is stopped");
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(body["message"].is_string(), "{body}");
    assert_eq!(accepted, 300);
    let rendered = metrics.render();
    assert_eq!(
        sample(
            &rendered,
            r#"kid_web_vitals_seconds_count{metric="TTFB",route="/login"}"#
        ),
        Some(300.0)
    );
    assert_eq!(
        beacon(&player, &portal.base, &small).await.0,
        StatusCode::NO_CONTENT
    );
}
