//! A player's list of active sessions, and signing one or all others out.

use kid_testing::portal::{
    PASSWORD, Portal, client, get_json, me_status, register, send_json, start, xsrf_token,
};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};

async fn sign_in_with(portal: &Portal, user_agent: &str) -> Client {
    let http = Client::builder()
        .cookie_store(true)
        .user_agent(user_agent)
        .build()
        .expect("client");
    let body = json!({ "username": "many_devices", "password": PASSWORD, "remember": true });
    let response = send_json(&http, portal, Method::POST, "/auth/login", &body).await;
    assert_eq!(response.status(), StatusCode::OK);
    http
}

#[tokio::test]
async fn a_player_sees_their_sessions_and_signs_out_one_or_all_others() {
    let portal = start(|_| {}).await;
    let first = register(&portal, "many_devices").await;
    let phone = sign_in_with(&portal, "Mozilla/5.0 (iPhone) Kid phone").await;
    let laptop = sign_in_with(&portal, "Mozilla/5.0 (X11; Linux) Kid laptop").await;

    let (status, list) = get_json(&laptop, &portal, "/me/sessions").await;
    assert_eq!(status, StatusCode::OK);
    let list = list.as_array().expect("list").clone();
    assert_eq!(list.len(), 3);
    let current: Vec<&Value> = list.iter().filter(|s| s["current"] == true).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["userAgent"], "Mozilla/5.0 (X11; Linux) Kid laptop");
    assert_eq!(current[0]["ip"], "127.0.0.1");
    assert!(
        list.iter()
            .all(|s| s["lastSeenAt"].is_string() && s["id"].as_str().is_some_and(|id| id.len() == 24))
    );
    let phone_session = list
        .iter()
        .find(|s| s["userAgent"] == "Mozilla/5.0 (iPhone) Kid phone")
        .expect("the phone");

    let token = xsrf_token(&laptop, &portal.base).await;
    let response = laptop
        .delete(format!(
            "{}/api/me/sessions/{}",
            portal.base,
            phone_session["id"].as_str().expect("id")
        ))
        .header("X-XSRF-TOKEN", token)
        .send()
        .await
        .expect("delete");
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(me_status(&phone, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me_status(&first, &portal).await, StatusCode::OK);

    let response = send_json(
        &laptop,
        &portal,
        Method::POST,
        "/me/sessions/sign-out-others",
        &json!({}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(me_status(&first, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me_status(&laptop, &portal).await, StatusCode::OK);
    let (_, list) = get_json(&laptop, &portal, "/me/sessions").await;
    assert_eq!(list.as_array().map(Vec::len), Some(1));

    let token = xsrf_token(&laptop, &portal.base).await;
    let unknown = laptop
        .delete(format!(
            "{}/api/me/sessions/000000000000000000000000",
            portal.base
        ))
        .header("X-XSRF-TOKEN", token)
        .send()
        .await
        .expect("delete");
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        get_json(&client(), &portal, "/me/sessions").await.0,
        StatusCode::UNAUTHORIZED
    );
}
