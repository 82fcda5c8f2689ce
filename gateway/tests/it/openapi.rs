//! The REST contract: the committed `docs/api/openapi.json` (from which the SPA's types are
//! generated) is exactly what the gateway's handlers describe, and it lists every call of the
//! spec's REST table.

use std::path::PathBuf;

use serde_json::Value;

fn committed_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/api/openapi.json")
}

fn described() -> String {
    let document = kid_gateway::api::openapi()
        .to_pretty_json()
        .expect("the document serializes");
    format!("{document}\n")
}

/// `KID_WRITE_OPENAPI=1 cargo nextest run -p kid-gateway --test it openapi` rewrites the
/// committed document; `npm run api:generate` in web/ then regenerates the SPA's types.
#[test]
fn the_committed_document_is_what_the_handlers_describe() {
    let described = described();
    if std::env::var_os("KID_WRITE_OPENAPI").is_some() {
        std::fs::write(committed_path(), &described).expect("write docs/api/openapi.json");
    }
    let committed = std::fs::read_to_string(committed_path()).unwrap_or_default();
    assert!(
        committed == described,
        "docs/api/openapi.json is not what the gateway describes: run \
         `KID_WRITE_OPENAPI=1 cargo nextest run -p kid-gateway --test it openapi`, then \
         `npm run api:generate` in web/, and commit both"
    );
}

#[test]
fn every_call_of_the_spec_is_described_with_its_answers() {
    let document: Value = serde_json::from_str(&described()).expect("json");
    assert_eq!(document["openapi"], "3.1.0");
    assert_eq!(document["servers"][0]["url"], "/api");
    let spec_calls = [
        ("post", "/auth/login"),
        ("post", "/auth/logout"),
        ("post", "/auth/register"),
        ("post", "/auth/reset-password/send-email"),
        ("post", "/auth/reset-password"),
        ("get", "/auth/reset-password/{token}"),
        ("post", "/auth/recover-username"),
        ("post", "/auth/email-verification/send"),
        ("put", "/auth/email-verification"),
        ("get", "/me"),
        ("patch", "/me/update-profile"),
        ("post", "/me/security-code/"),
        ("post", "/me/change-email"),
        ("post", "/me/change-password"),
        ("get", "/product"),
        ("get", "/payment/methods"),
        ("get", "/payment/coin-recharge/{product_code}"),
        ("post", "/payment/coin-recharge/{product_code}"),
        ("post", "/payment/card-recharge"),
        ("get", "/payment/card-recharge/fees"),
        ("get", "/payment/transaction-history"),
    ];
    for (method, path) in spec_calls {
        let operation = &document["paths"][path][method];
        assert!(operation.is_object(), "{method} {path} is not in the document");
        let responses = operation["responses"].as_object().expect("responses");
        assert!(
            responses.keys().any(|status| status.starts_with('2')),
            "{method} {path} describes no success"
        );
        for status in ["400", "422", "429", "503"] {
            assert!(responses.contains_key(status), "{method} {path} lacks {status}");
        }
        if method != "get" {
            assert!(
                responses.contains_key("419"),
                "{method} {path} lacks the CSRF 419"
            );
        }
    }
    for signed_in in ["/me", "/product", "/payment/transaction-history"] {
        assert!(document["paths"][signed_in]["get"]["responses"]["401"].is_object());
    }
    let error = &document["components"]["schemas"]["ErrorBody"]["properties"];
    assert!(error["message"].is_object() && error["errors"].is_object());
}

/// OpenAPI requires each operation's id to be unique (utoipa takes the handler's name): two
/// handlers named alike generate one TypeScript operation twice, which the SPA cannot build.
#[test]
fn every_operation_has_its_own_id() {
    let document: Value = serde_json::from_str(&described()).expect("json");
    let mut ids: Vec<&str> = document["paths"]
        .as_object()
        .expect("paths")
        .values()
        .flat_map(|path| path.as_object().expect("path").values())
        .filter_map(|operation| operation["operationId"].as_str())
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "duplicate operation ids among {ids:?}");
    assert!(count >= 78, "{count} operations");
}
