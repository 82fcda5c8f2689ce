//! The whole portal in one process against the real PostgreSQL, Redis and RabbitMQ: health,
//! readiness, the SPA with its history fallback, the locale file, and the CSRF defence.

use std::path::Path;

use kid_testing::portal::{Portal, client, get, start, xsrf_token};
use reqwest::{Client, Response, StatusCode, header};
use secrecy::SecretString;
use serde_json::Value;

/// Request headers, each a name and a value.
type Headers<'a> = [(&'a str, &'a str)];

/// POSTs no body to `path` with `headers`: what the CSRF check is given to judge.
async fn post(http: &Client, portal: &Portal, path: &str, headers: &Headers<'_>) -> Response {
    let mut request = http.post(format!("{}{path}", portal.base));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.expect("post")
}

/// Asserts `response` is an error under `status` in the API's JSON shape (not the SPA's page).
async fn assert_json_error(response: Response, status: StatusCode) {
    assert_eq!(response.status(), status);
    let body: Value = response.json().await.expect("a JSON error");
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{body}"
    );
}

#[tokio::test]
async fn healthz_answers_and_readyz_is_ready_with_every_dependency_up() {
    let portal = start(|_| {}).await;
    let http = client();
    let health = get(&http, &portal, "/healthz").await;
    assert_eq!(health.status(), StatusCode::OK);

    let ready = get(&http, &portal, "/readyz").await;
    assert_eq!(ready.status(), StatusCode::OK);
    let body: Value = ready.json().await.expect("json");
    for dependency in [
        "postgres", "redis", "rabbitmq", "identity", "wallet", "payment", "recharge",
    ] {
        assert_eq!(body["checks"][dependency], "ok", "{dependency} in {body}");
    }
}

#[tokio::test]
async fn readyz_names_rabbitmq_when_the_broker_cannot_be_reached() {
    let portal = start(|settings| {
        settings.amqp.url = SecretString::from("amqp://guest:guest@127.0.0.1:1/%2f");
    })
    .await;
    let ready = get(&client(), &portal, "/readyz").await;
    assert_eq!(ready.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body: Value = ready.json().await.expect("json");
    assert!(
        body["message"].as_str().expect("message").contains("rabbitmq"),
        "{body}"
    );
    assert_ne!(body["checks"]["rabbitmq"], "ok");
    assert_eq!(body["checks"]["postgres"], "ok");
    assert_eq!(body["checks"]["redis"], "ok");
}

#[tokio::test]
async fn the_spa_is_served_with_history_fallback_and_its_public_files() {
    let portal = start(|_| {}).await;
    let http = client();
    for path in ["/", "/transactions", "/recharge/jxsj2", "/no/such/page"] {
        let page = get(&http, &portal, path).await;
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        assert!(page.headers().contains_key(header::CONTENT_SECURITY_POLICY));
        assert!(page.text().await.expect("body").contains("kid-spa"), "{path}");
    }
    let icon = get(&http, &portal, "/favicon.svg").await;
    assert_eq!(icon.status(), StatusCode::OK);
    assert_eq!(icon.text().await.expect("body"), "<svg id=\"kid-icon\"/>");
}

/// A page the build prerendered is served for its path, with its form already in the HTML;
/// other paths, and paths under it, still get the SPA.
#[tokio::test]
async fn a_prerendered_page_is_served_for_its_path_and_the_spa_elsewhere() {
    let portal = start(|_| {}).await;
    let pages = Path::new(&portal.settings.gateway.web_dist).join("pages");
    for (page, marker) in [
        ("login", "kid-prerendered-login"),
        ("recovery", "kid-prerendered-recovery"),
        ("recovery/forgot-username", "kid-prerendered-forgot-username"),
    ] {
        std::fs::create_dir_all(pages.join(page)).expect("page dir");
        std::fs::write(
            pages.join(page).join("index.html"),
            format!("<form>{marker}</form>"),
        )
        .expect("page");
    }
    let http = client();
    for (path, marker) in [
        ("/login", "kid-prerendered-login"),
        ("/recovery/forgot-username", "kid-prerendered-forgot-username"),
        ("/recovery", "kid-prerendered-recovery"),
        ("/", "kid-spa"),
        ("/recovery/forgot-password", "kid-spa"),
        ("/login/extra", "kid-spa"),
    ] {
        let page = get(&http, &portal, path).await;
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        assert_eq!(page.headers()[header::CACHE_CONTROL], "no-cache", "{path}");
        assert!(
            page.headers().contains_key(header::CONTENT_SECURITY_POLICY),
            "{path}"
        );
        assert!(
            page.headers()[header::CONTENT_TYPE]
                .to_str()
                .expect("type")
                .starts_with("text/html"),
            "{path}"
        );
        assert!(page.text().await.expect("body").contains(marker), "{path}");
    }
}

/// Hashed assets go out precompressed in the best encoding the browser takes, kept a year;
/// `index.html` and unhashed files are revalidated, and a missing asset is not kept at all.
#[tokio::test]
async fn hashed_assets_are_served_precompressed_and_kept_while_pages_are_revalidated() {
    let portal = start(|_| {}).await;
    let assets = Path::new(&portal.settings.gateway.web_dist).join("assets");
    std::fs::create_dir_all(&assets).expect("assets dir");
    std::fs::write(assets.join("index-1a2b3c4d.js"), "console.log('kid')").expect("js");
    std::fs::write(assets.join("index-1a2b3c4d.js.br"), b"brotli-bytes").expect("br");
    std::fs::write(assets.join("index-1a2b3c4d.js.gz"), b"gzip-bytes").expect("gz");
    let http = client();
    let fetch = async |encoding: &str| {
        http.get(format!("{}/assets/index-1a2b3c4d.js", portal.base))
            .header(header::ACCEPT_ENCODING, encoding)
            .send()
            .await
            .expect("asset")
    };

    let brotli = fetch("gzip, deflate, br").await;
    assert_eq!(brotli.status(), StatusCode::OK);
    assert_eq!(brotli.headers()[header::CONTENT_ENCODING], "br");
    assert_eq!(
        brotli.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    assert!(
        brotli.headers()[header::VARY]
            .to_str()
            .expect("vary")
            .contains("accept-encoding")
    );
    assert!(
        brotli.headers()[header::CONTENT_TYPE]
            .to_str()
            .expect("type")
            .contains("javascript")
    );
    assert_eq!(brotli.bytes().await.expect("body").as_ref(), b"brotli-bytes");

    let gzip = fetch("gzip").await;
    assert_eq!(gzip.headers()[header::CONTENT_ENCODING], "gzip");
    assert_eq!(gzip.bytes().await.expect("body").as_ref(), b"gzip-bytes");

    let plain = fetch("identity").await;
    assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
    assert_eq!(plain.text().await.expect("body"), "console.log('kid')");

    // A missing asset (an old page asking a new pod) is a 404 nobody keeps, not the SPA.
    let missing = get(&http, &portal, "/assets/index-00000000.js").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(missing.headers()[header::CACHE_CONTROL], "no-cache");
    for path in ["/", "/login", "/favicon.svg"] {
        let page = get(&http, &portal, path).await;
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        assert_eq!(page.headers()[header::CACHE_CONTROL], "no-cache", "{path}");
    }
    // The build's manifest names source files: hidden files are not served.
    let vite = Path::new(&portal.settings.gateway.web_dist).join(".vite");
    std::fs::create_dir_all(&vite).expect("vite dir");
    std::fs::write(vite.join("manifest.json"), r#"{"src/main.tsx":{}}"#).expect("manifest");
    for path in ["/.vite/manifest.json", "/assets/.hidden"] {
        let hidden = get(&http, &portal, path).await;
        assert_eq!(hidden.status(), StatusCode::NOT_FOUND, "{path}");
    }
}

/// An unknown API path gets a JSON 404 (not the SPA's page), and `/api/me` signed out a JSON 401.
#[tokio::test]
async fn api_refusals_are_json_errors_not_the_spa() {
    let portal = start(|_| {}).await;
    for (path, status) in [
        ("/api/no-such-thing", StatusCode::NOT_FOUND),
        ("/api/me", StatusCode::UNAUTHORIZED),
    ] {
        assert_json_error(get(&client(), &portal, path).await, status).await;
    }
}

#[tokio::test]
async fn the_openapi_document_is_served_to_anyone_as_the_gateway_describes_it() {
    let portal = start(|_| {}).await;
    let response = get(&client(), &portal, "/api/openapi.json").await;
    assert_eq!(response.status(), StatusCode::OK);
    let served: Value = response.json().await.expect("json");
    let described = serde_json::to_value(kid_gateway::api::openapi()).expect("document");
    assert_eq!(served, described);
    assert_eq!(served["openapi"], "3.1.0");
    // The development mailbox is routed here, but it is no part of the contract.
    assert!(served["paths"].get("/dev/mailbox").is_none());
}

/// Mail holds reset links and security codes: once real mail is configured, the development
/// mailbox's listing is not served, whatever address a stranger asks for.
#[tokio::test]
async fn a_stranger_cannot_list_mail_once_smtp_is_configured() {
    let portal = start(|settings| settings.mail.smtp_url = "smtp://127.0.0.1:2525".to_owned().into()).await;
    let response = get(&client(), &portal, "/api/dev/mailbox?to=demo@kid.example").await;
    assert_json_error(response, StatusCode::NOT_FOUND).await;
}

/// The CSRF check's refusal of a token that does not match.
fn csrf_mismatch() -> StatusCode {
    StatusCode::from_u16(419).expect("419")
}

/// Cross-site request forgery: a state-changing call without the header repeating the XSRF
/// cookie is refused, as a JSON error.
#[tokio::test]
async fn a_post_without_the_xsrf_header_is_refused_with_a_json_error() {
    let portal = start(|_| {}).await;
    let http = client();
    let _token = xsrf_token(&http, &portal.base).await;
    let refused = post(&http, &portal, "/api/auth/logout", &[]).await;
    assert_json_error(refused, csrf_mismatch()).await;
}

#[tokio::test]
async fn a_post_with_a_wrong_token_or_a_foreign_origin_is_refused() {
    let portal = start(|_| {}).await;
    let http = client();
    let token = xsrf_token(&http, &portal.base).await;
    let wrong = [("X-XSRF-TOKEN", "not-the-token")];
    assert_json_error(
        post(&http, &portal, "/api/auth/logout", &wrong).await,
        csrf_mismatch(),
    )
    .await;
    let foreign = [
        ("X-XSRF-TOKEN", token.as_str()),
        ("Origin", "https://evil.example"),
    ];
    let refused = post(&http, &portal, "/api/auth/logout", &foreign).await;
    assert_json_error(refused, StatusCode::FORBIDDEN).await;
}

/// Another browser's token (a victim's, say) is no good with this browser's cookie.
#[tokio::test]
async fn a_token_from_another_session_does_not_pass() {
    let portal = start(|_| {}).await;
    let theirs = xsrf_token(&client(), &portal.base).await;
    let http = client();
    let _ours = xsrf_token(&http, &portal.base).await;
    let stolen = [("X-XSRF-TOKEN", theirs.as_str())];
    let refused = post(&http, &portal, "/api/no-such-action", &stolen).await;
    assert_json_error(refused, csrf_mismatch()).await;
}

#[tokio::test]
async fn a_post_with_the_sessions_token_passes_the_csrf_check() {
    let portal = start(|_| {}).await;
    let http = client();
    let token = xsrf_token(&http, &portal.base).await;
    let own = [("X-XSRF-TOKEN", token.as_str())];
    // Past the CSRF check, the router answers: this path does not exist.
    let answered = post(&http, &portal, "/api/no-such-action", &own).await;
    assert_json_error(answered, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn no_api_answer_may_be_cached_and_pages_refuse_framing_and_sniffing() {
    let portal = start(|_| {}).await;
    let http = client();
    let token = xsrf_token(&http, &portal.base).await;
    let answers = [
        get(&http, &portal, "/api/auth/csrf-cookie").await,
        get(&http, &portal, "/api/me").await,
        get(&http, &portal, "/api/no-such-route").await,
        post(&http, &portal, "/api/auth/logout", &[("X-XSRF-TOKEN", &token)]).await,
        http.post(format!("{}/api/webhooks/bank-transfer", portal.base))
            .body("{}")
            .send()
            .await
            .expect("webhook"),
    ];
    for answer in answers {
        assert_eq!(
            answer
                .headers()
                .get("cache-control")
                .map(|value| value.to_str().expect("ascii")),
            Some("no-store"),
            "{} {}",
            answer.url(),
            answer.status()
        );
    }
    for page in ["/", "/reset-password/some-token", "/login"] {
        let answer = get(&http, &portal, page).await;
        let header = |name: &str| {
            answer
                .headers()
                .get(name)
                .map(|value| value.to_str().expect("ascii").to_owned())
                .unwrap_or_default()
        };
        assert_eq!(header("x-content-type-options"), "nosniff", "{page}");
        assert_eq!(header("referrer-policy"), "no-referrer", "{page}");
        assert_eq!(header("x-frame-options"), "DENY", "{page}");
        assert!(
            header("content-security-policy").contains("frame-ancestors 'none'"),
            "{page}"
        );
    }
}
