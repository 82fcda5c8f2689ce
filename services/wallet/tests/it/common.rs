//! The wallet service on a free port against a fresh database, a client that signs its calls
//! with the internal JWT, and checks of money.md's invariants read straight from the schema.

use std::sync::Arc;

use kid_contracts::wallet::v1::{
    CoinMetadata, CreditRequest, DebitRequest, GetAccountRequest, GetAccountResponse, RecallRequest,
    RefundRequest, TopupType, Transaction, wallet_service_client::WalletServiceClient,
};
use kid_platform::{
    Settings,
    auth::{AttachInternalJwt, InternalJwt},
    db, grpc,
};
use sqlx::{AssertSqlSafe, PgPool};
use tokio_util::sync::CancellationToken;
use tonic::{service::interceptor::InterceptedService, transport::Channel};
use uuid::Uuid;

pub type Client = WalletServiceClient<InterceptedService<Channel, AttachInternalJwt>>;

pub struct Wallet {
    pub client: Client,
    pub endpoint: String,
    pub pool: PgPool,
    pub settings: Settings,
    shutdown: CancellationToken,
}

impl Drop for Wallet {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

pub async fn start() -> Wallet {
    start_with(|_| {}).await
}

/// The wallet with `configure` applied to its test settings first.
pub async fn start_with(configure: impl FnOnce(&mut Settings)) -> Wallet {
    let mut settings = kid_testing::isolated_settings().await.expect("settings");
    configure(&mut settings);
    let shutdown = CancellationToken::new();
    let endpoint = kid_testing::serve(&kid_wallet::SERVICE, &settings, &shutdown).await;
    let channel = grpc::lazy_channel(&endpoint).expect("channel");
    let jwt = AttachInternalJwt::new(
        Arc::new(InternalJwt::new(&settings.jwt).expect("keys")),
        kid_platform::auth::OPERATOR,
    );
    let pool = db::connect(&settings.database, "wallet").await.expect("pool");
    Wallet {
        client: WalletServiceClient::with_interceptor(channel, jwt),
        endpoint,
        pool,
        settings,
        shutdown,
    }
}

/// The transaction a successful answer carries, or the refusal.
fn carried<T>(
    answer: Result<tonic::Response<T>, tonic::Status>,
    transaction: impl FnOnce(T) -> Option<Transaction>,
) -> Result<Transaction, tonic::Status> {
    answer.map(|response| transaction(response.into_inner()).expect("transaction"))
}

impl Wallet {
    pub async fn account(&self, user: Uuid) -> GetAccountResponse {
        self.client
            .clone()
            .get_account(GetAccountRequest {
                user_id: user.to_string(),
            })
            .await
            .expect("account")
            .into_inner()
    }

    pub async fn credit(&self, key: &str, user: Uuid, amount_vnd: i64) -> Result<Transaction, tonic::Status> {
        let answer = self.client.clone().credit(credit(key, user, amount_vnd)).await;
        carried(answer, |r| r.transaction)
    }

    pub async fn debit(&self, key: &str, user: Uuid, kp: i64) -> Result<Transaction, tonic::Status> {
        let answer = self.client.clone().debit(debit(key, user, kp)).await;
        carried(answer, |r| r.transaction)
    }

    pub async fn refund(&self, key: &str, user: Uuid, payment: &str) -> Result<Transaction, tonic::Status> {
        let request = RefundRequest {
            idempotency_key: key.to_owned(),
            user_id: user.to_string(),
            transaction_id: payment.to_owned(),
        };
        carried(self.client.clone().refund(request).await, |r| r.transaction)
    }

    /// The recalled top-up and the debt the recall added.
    pub async fn recall(
        &self,
        key: &str,
        user: Uuid,
        topup: &str,
        kp: i64,
    ) -> Result<(Transaction, i64), tonic::Status> {
        self.client
            .clone()
            .recall(RecallRequest {
                idempotency_key: key.to_owned(),
                user_id: user.to_string(),
                transaction_id: topup.to_owned(),
                kp,
                corrected_amount_vnd: None,
            })
            .await
            .map(|response| {
                let response = response.into_inner();
                (response.transaction.expect("transaction"), response.debt_added)
            })
    }

    /// Sends `event` as the payment service would: through an outbox (the wallet's, whose
    /// relay publishes to the same exchange) and RabbitMQ to the wallet's consumer.
    pub async fn publish(&self, routing_key: &str, event: &impl serde::Serialize) {
        let mut conn = self.pool.acquire().await.expect("connection");
        kid_platform::outbox::enqueue(&mut conn, routing_key, event)
            .await
            .expect("enqueue");
    }

    /// Corrections held for a credit that has not come.
    pub async fn held_corrections(&self) -> i64 {
        sqlx::query_scalar("select count(*) from held_correction")
            .fetch_one(&self.pool)
            .await
            .expect("count")
    }

    /// Top-up events the wallet's consumer handled (a dead-lettered one is not recorded).
    pub async fn handled_topup_events(&self) -> i64 {
        sqlx::query_scalar("select count(*) from inbox_message where consumer = $1")
            .bind(kid_platform::topology::wallet_topups(&self.settings).name)
            .fetch_one(&self.pool)
            .await
            .expect("count")
    }

    /// Moves the player's credited top-ups `days` into the past, as time passing would.
    pub async fn age_topups(&self, user: Uuid, days: i32) {
        sqlx::query(
            "update ledger_transaction set credited_at = credited_at - make_interval(days => $2)
             where user_id = $1 and credited_at is not null",
        )
        .bind(user)
        .bind(days)
        .execute(&self.pool)
        .await
        .expect("age top-ups");
    }

    /// money.md's invariants, read from the tables: every transaction's postings sum to zero,
    /// each player's balance and debt equal the sums of their postings and are never negative,
    /// and every keyed operation exists once.
    pub async fn assert_invariants(&self) {
        self.invariants_of(None).await;
    }

    /// The same invariants for `users`' accounts and the transactions that touch them only:
    /// what a step of a long random run can afford to read.
    pub async fn assert_invariants_of(&self, users: &[Uuid]) {
        self.invariants_of(Some(users)).await;
    }

    /// The invariants over every account, or over `users`' accounts only.
    async fn invariants_of(&self, users: Option<&[Uuid]>) {
        // Both forms take `users` as $1, so each query binds it either way.
        let accounts = users.map_or("$1::uuid[] is null", |_| "a.user_id = any($1)");
        let unbalanced: Vec<(Uuid, i64)> = sqlx::query_as(AssertSqlSafe(format!(
            "select p.transaction_id, sum(p.amount)::bigint from posting p
             where p.transaction_id in (select q.transaction_id from posting q
                                        join account a on a.id = q.account_id where {accounts})
             group by p.transaction_id having sum(p.amount) <> 0"
        )))
        .bind(users)
        .fetch_all(&self.pool)
        .await
        .expect("sums");
        assert!(unbalanced.is_empty(), "unbalanced transactions: {unbalanced:?}");
        let drifted: Vec<(i64, String, i64, i64)> = sqlx::query_as(AssertSqlSafe(format!(
            "select a.id, a.purpose, a.balance, coalesce(sum(p.amount), 0)::bigint
             from account a left join posting p on p.account_id = a.id
             where a.user_id is not null and {accounts}
             group by a.id
             having a.balance <> coalesce(sum(p.amount), 0)
                 or (a.purpose = 'kp' and a.balance < 0)
                 or (a.purpose = 'debt' and a.balance > 0)"
        )))
        .bind(users)
        .fetch_all(&self.pool)
        .await
        .expect("balances");
        assert!(
            drifted.is_empty(),
            "balances that disagree with their postings: {drifted:?}"
        );
        let self_postings: i64 = sqlx::query_scalar(AssertSqlSafe(format!(
            "select count(*) from (select p.transaction_id, p.account_id from posting p
             join account a on a.id = p.account_id where {accounts}
             group by p.transaction_id, p.account_id having count(*) > 1) twice"
        )))
        .bind(users)
        .fetch_one(&self.pool)
        .await
        .expect("postings per account");
        assert_eq!(self_postings, 0, "an account on both sides of a transaction");
    }

    /// The KP a player's top-up, bonus, refund and recall postings add up to, from the ledger.
    pub async fn posted_balance(&self, user: Uuid) -> i64 {
        sqlx::query_scalar(
            "select coalesce(sum(p.amount), 0)::bigint from posting p
             join account a on a.id = p.account_id where a.user_id = $1 and a.purpose = 'kp'",
        )
        .bind(user)
        .fetch_one(&self.pool)
        .await
        .expect("posted balance")
    }
}

pub fn credit(key: &str, user: Uuid, amount_vnd: i64) -> CreditRequest {
    CreditRequest {
        idempotency_key: key.to_owned(),
        user_id: user.to_string(),
        topup_type: TopupType::BankTransfer.into(),
        source: "vietcombank".to_owned(),
        amount_vnd,
        kp: amount_vnd,
        card_serial: String::new(),
        error_code: String::new(),
    }
}

pub fn debit(key: &str, user: Uuid, kp: i64) -> DebitRequest {
    DebitRequest {
        idempotency_key: key.to_owned(),
        user_id: user.to_string(),
        kp,
        metadata: Some(CoinMetadata {
            coin: kp / 10,
            coin_bonus: 0,
            product_code: "fsonline".to_owned(),
            product_name: "Phong Thần".to_owned(),
            coin_name: "Xu".to_owned(),
        }),
    }
}

/// The real value of the related transaction of `kind`, if the transaction has one.
pub fn related(transaction: &Transaction, kind: &str) -> Option<i64> {
    transaction
        .related_transactions
        .iter()
        .find(|related| related.r#type == kind)
        .map(|related| related.real_value)
}
