//! A taken pod is the keys its binary holds. The development defaults (compiled into every
//! binary, published in this repository) hold a key pair for every internal caller;
//! production's wallet holds only its callers' given public keys, so a token signed with a
//! development key moves nothing, and nothing a wallet pod holds signs a call as payment: the
//! public key it verifies payment's calls with does not sign, not even as an HMAC secret.

use std::sync::Arc;

use kid_contracts::wallet::v1::wallet_service_client::WalletServiceClient;
use kid_platform::{
    Settings,
    auth::{self, AttachInternalJwt, InternalJwt},
    config::JwtSettings,
    grpc,
};
use secrecy::ExposeSecret;
use uuid::Uuid;

use crate::common::{self, Client};

/// Payment's key pair in the cluster: the private key in payment's pod only, the public one
/// given to the wallet.
struct PaymentKeys {
    private: secrecy::SecretString,
    public: String,
}

fn payment_keys() -> PaymentKeys {
    let (private, public) = auth::generate_key_pair();
    PaymentKeys { private, public }
}

/// The wallet's keys as its production binary loads them: every setting it needs given, no
/// other.
fn production_keys(payment: &PaymentKeys) -> JwtSettings {
    production_keys_given(payment, &[])
}

/// [`production_keys`], with `more` variables set in the pod as well.
#[allow(
    clippy::result_large_err,
    reason = "figment's Jail closures return its own large error"
)]
fn production_keys_given(payment: &PaymentKeys, more: &[(&str, &str)]) -> JwtSettings {
    let mut loaded = None;
    figment::Jail::expect_with(|jail| {
        let needs = kid_wallet::SERVICE.all_needs();
        for key in &needs {
            let value = match *key {
                "environment" => "production".to_owned(),
                "database.migrate" => "verify".to_owned(),
                "grpc.port" => "50051".to_owned(),
                "jwt.public_keys.payment" => payment.public.clone(),
                key if key.starts_with("jwt.public_keys.") => auth::generate_key_pair().1,
                _ => "given-by-the-cluster".to_owned(),
            };
            jail.set_env(kid_platform::config::variable_name(key), value);
        }
        for (name, value) in more {
            jail.set_env(name, value);
        }
        loaded = Some(
            kid_wallet::SERVICE
                .load_settings()
                .expect("production settings")
                .jwt,
        );
        Ok(())
    });
    loaded.expect("loaded")
}

fn client_as(endpoint: &str, keys: &JwtSettings, caller: &'static str) -> Client {
    let channel = grpc::lazy_channel(endpoint).expect("channel");
    let jwt = AttachInternalJwt::new(Arc::new(InternalJwt::new(keys).expect("keys")), caller);
    WalletServiceClient::with_interceptor(channel, jwt)
}

#[tokio::test]
async fn a_pod_minting_tokens_with_the_development_keys_cannot_credit_a_production_wallet() {
    let payment = payment_keys();
    let production = production_keys(&payment);
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
    client_as(&wallet.endpoint, &signing_as_payment(&payment), auth::PAYMENT)
        .credit(common::credit("real", user, 500_000))
        .await
        .expect("payment credits");
    assert_eq!(credited(&wallet, user).await, ["real"]);
}

/// A private key mounted in the wrong pod (the operator's, whose public key the wallet rightly
/// holds) is not held there: the wallet's binary empties every secret it does not use, given
/// or not, so a taken wallet pod cannot sign as the operator and credit, grant or refund.
#[tokio::test]
async fn a_taken_wallet_pod_given_the_operators_private_key_by_mistake_cannot_sign_as_the_operator() {
    let payment = payment_keys();
    let (operator_private, operator_public) = auth::generate_key_pair();
    let production = production_keys_given(
        &payment,
        &[
            (
                "KID_JWT__SIGNING_KEYS__OPERATOR",
                operator_private.expose_secret(),
            ),
            ("KID_JWT__PUBLIC_KEYS__OPERATOR", &operator_public),
        ],
    );
    assert_eq!(production.public_keys[auth::OPERATOR], operator_public);
    assert_eq!(production.signing_keys[auth::OPERATOR].expose_secret(), "");
    let wallet = common::start_with(|settings| settings.jwt = production.clone()).await;
    let user = Uuid::new_v4();
    let refused = client_as(&wallet.endpoint, &production, auth::OPERATOR)
        .credit(common::credit("from-the-pod", user, 500_000))
        .await
        .expect_err("the pod holds no operator key");
    assert!(refused.message().contains("cannot mint"), "{refused:?}");
    // The operator's own key, where it belongs, credits: the refusal above was the pod's.
    let mut operator = Settings::development().expect("defaults").jwt;
    operator.signing_keys.clear();
    operator
        .signing_keys
        .insert(auth::OPERATOR.to_owned(), operator_private);
    client_as(&wallet.endpoint, &operator, auth::OPERATOR)
        .credit(common::credit("by-the-operator", user, 500_000))
        .await
        .expect("the operator credits");
    assert_eq!(credited(&wallet, user).await, ["by-the-operator"]);
}

/// What payment's pod holds: its private key, and no public key.
fn signing_as_payment(payment: &PaymentKeys) -> JwtSettings {
    let mut keys = Settings::development().expect("defaults").jwt;
    keys.signing_keys.clear();
    keys.public_keys.clear();
    keys.signing_keys
        .insert(auth::PAYMENT.to_owned(), payment.private.clone());
    keys
}

async fn credited(wallet: &common::Wallet, user: Uuid) -> Vec<String> {
    sqlx::query_scalar(
        "select idempotency_key from ledger_transaction where user_id = $1 and idempotency_key is not null",
    )
    .bind(user)
    .fetch_all(&wallet.pool)
    .await
    .expect("transactions")
}

/// Under HS256 every service held the secret its callers sign with: a taken wallet pod could
/// sign as payment. Now it holds payment's public key, which signs nothing: not as an Ed25519
/// key, not as the secret of an HS256 token (the classic algorithm confusion).
#[tokio::test]
async fn a_taken_wallet_pod_cannot_sign_a_call_as_payment_with_the_keys_it_holds() {
    let payment = payment_keys();
    let production = production_keys(&payment);
    let wallet = common::start_with(|settings| settings.jwt = production.clone()).await;
    let user = Uuid::new_v4();
    // Everything the pod holds: no private key at all, so it mints nothing.
    assert!(
        production
            .signing_keys
            .values()
            .all(|key| key.expose_secret().is_empty())
    );
    let held = InternalJwt::new(&production).expect("the pod's keys");
    for caller in [auth::PAYMENT, auth::RECHARGE, auth::GATEWAY, auth::OPERATOR] {
        assert!(
            matches!(held.mint(caller), Err(auth::TokenError::CannotSignAs(_))),
            "{caller}"
        );
    }
    // Payment's public key as the HMAC secret of a token naming payment.
    let claims = auth::InternalClaims::new(
        &production.issuer,
        &production.audience,
        auth::PAYMENT,
        std::time::Duration::from_secs(60),
        None,
    );
    let mut header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    header.kid = Some(auth::PAYMENT.to_owned());
    let secret = jsonwebtoken::EncodingKey::from_secret(production.public_keys[auth::PAYMENT].as_bytes());
    let token = jsonwebtoken::encode(&header, &claims, &secret).expect("encode");
    let mut request = tonic::Request::new(common::credit("confused", user, 500_000));
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("header"),
    );
    let channel = grpc::lazy_channel(&wallet.endpoint).expect("channel");
    let refused = WalletServiceClient::new(channel)
        .credit(request)
        .await
        .expect_err("a public key signs nothing");
    assert_eq!(refused.code(), tonic::Code::Unauthenticated, "{refused:?}");
    assert!(credited(&wallet, user).await.is_empty());
}
