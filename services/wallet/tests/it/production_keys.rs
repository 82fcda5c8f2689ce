//! A taken pod is the keys its binary holds. The development defaults (compiled into every
//! binary, published in this repository) hold a key for every internal caller; production's
//! wallet holds only its callers' given keys, so a token minted with a development key moves
//! nothing.

use std::sync::Arc;

use kid_contracts::wallet::v1::wallet_service_client::WalletServiceClient;
use kid_platform::{
    Settings,
    auth::{self, AttachInternalJwt, InternalJwt},
    config::JwtSettings,
    grpc,
};
use uuid::Uuid;

use crate::common::{self, Client};

const PAYMENT_KEY: &str = "payment-key-from-the-cluster";

/// The wallet's keys as its production binary loads them: every setting it needs given, no
/// other.
#[allow(
    clippy::result_large_err,
    reason = "figment's Jail closures return its own large error"
)]
fn production_keys() -> JwtSettings {
    let mut loaded = None;
    figment::Jail::expect_with(|jail| {
        let needs = kid_wallet::SERVICE.all_needs();
        for key in &needs {
            let value = match *key {
                "environment" => "production",
                "database.migrate" => "verify",
                "grpc.port" => "50051",
                "jwt.keys.payment" => PAYMENT_KEY,
                _ => "given-by-the-cluster",
            };
            jail.set_env(kid_platform::config::variable_name(key), value);
        }
        loaded = Some(Settings::load_for(&needs).expect("production settings").jwt);
        Ok(())
    });
    loaded.expect("loaded")
}

fn client_as(endpoint: &str, keys: &JwtSettings, caller: &'static str) -> Client {
    let channel = grpc::lazy_channel(endpoint).expect("channel");
    let jwt = AttachInternalJwt::new(Arc::new(InternalJwt::new(keys)), caller);
    WalletServiceClient::with_interceptor(channel, jwt)
}

#[tokio::test]
async fn a_pod_minting_tokens_with_the_development_keys_cannot_credit_a_production_wallet() {
    let production = production_keys();
    let wallet = common::start_with(|settings| settings.jwt = production.clone()).await;
    let user = Uuid::new_v4();
    // What any binary's defaults hold: the operator key above all, which no pod uses.
    let development = Settings::development().expect("defaults").jwt;
    for caller in [auth::OPERATOR, auth::PAYMENT] {
        let refused = client_as(&wallet.endpoint, &development, caller)
            .credit(common::credit(&format!("forged-{caller}"), user, 500_000))
            .await
            .expect_err("a development key moves nothing");
        assert_eq!(
            refused.code(),
            tonic::Code::Unauthenticated,
            "{caller}: {refused:?}"
        );
    }
    // Payment's own key credits: the wallet serves, and only the forged calls were refused.
    client_as(&wallet.endpoint, &production, auth::PAYMENT)
        .credit(common::credit("real", user, 500_000))
        .await
        .expect("payment credits");
    let credited: Vec<String> = sqlx::query_scalar(
        "select idempotency_key from ledger_transaction where user_id = $1 and idempotency_key is not null",
    )
    .bind(user)
    .fetch_all(&wallet.pool)
    .await
    .expect("transactions");
    assert_eq!(credited, ["real"]);
}
