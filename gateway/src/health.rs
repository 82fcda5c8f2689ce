//! `/healthz`: the process answers. `/readyz`: what [`Readiness`](crate::state::Readiness)
//! names answers too (Redis; in the launcher also PostgreSQL, RabbitMQ and every service);
//! otherwise 503 naming what is missing.

use std::{collections::BTreeMap, time::Duration};

use axum::{Json, extract::State, http::StatusCode};
use futures::future::join_all;
use kid_platform::{amqp, grpc};
use secrecy::ExposeSecret;
use serde_json::{Value, json};

use crate::state::{AppState, Stores};

const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

pub async fn healthz() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

async fn postgres(stores: &Stores) -> Result<(), String> {
    let query = sqlx::query("select 1").execute(&stores.postgres);
    match tokio::time::timeout(CHECK_TIMEOUT, query).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(error)) => Err(error.to_string()),
        Err(_) => Err(format!("no answer within {CHECK_TIMEOUT:?}")),
    }
}

async fn redis(state: &AppState) -> Result<(), String> {
    match tokio::time::timeout(CHECK_TIMEOUT, state.sessions.ping()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(error)) => Err(error.to_string()),
        Err(_) => Err(format!("no answer within {CHECK_TIMEOUT:?}")),
    }
}

pub async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let dependencies = &state.dependencies;
    let services = join_all(dependencies.services.iter().map(|(name, channel)| async move {
        (*name, grpc::check_health(channel.clone(), CHECK_TIMEOUT).await)
    }));
    let stores = async {
        match &dependencies.stores {
            Some(stores) => Some(tokio::join!(
                postgres(stores),
                amqp::ping(stores.amqp_url.expose_secret(), CHECK_TIMEOUT)
            )),
            None => None,
        }
    };
    let (stores, redis, services) = tokio::join!(stores, redis(&state), services);
    let mut checks = BTreeMap::new();
    if let Some((postgres, rabbitmq)) = stores {
        checks.insert("postgres", postgres);
        checks.insert("rabbitmq", rabbitmq);
    }
    checks.insert("redis", redis);
    checks.extend(services);

    let missing: Vec<&str> = checks
        .iter()
        .filter(|(_, result)| result.is_err())
        .map(|(name, _)| *name)
        .collect();
    let report: BTreeMap<&str, String> = checks
        .into_iter()
        .map(|(name, result)| {
            (
                name,
                result.map_or_else(|error| format!("unavailable: {error}"), |()| "ok".to_owned()),
            )
        })
        .collect();
    if missing.is_empty() {
        (
            StatusCode::OK,
            Json(json!({ "status": "ready", "checks": report })),
        )
    } else {
        let message = format!("not ready: {} unavailable", missing.join(", "));
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({ "status": "unavailable", "message": message, "checks": report })),
        )
    }
}
