//! A taken pod holds its service's database role. Before, every service's role was a member of
//! the owner `kid`: a taken wallet pod read the players' accounts and two-factor secrets in
//! identity's schema and could rewrite payment's and recharge's rows. Now a role reaches its own
//! schema's rows and nothing else, and changes no table, not even its own schema's.

use kid_platform::config::MigrateMode;
use secrecy::{ExposeSecret, SecretString};
use sqlx::{ConnectOptions, postgres::PgConnectOptions};
use uuid::Uuid;

use crate::common;

/// PostgreSQL's code for a refused privilege (insufficient_privilege).
const REFUSED: &str = "42501";

/// `url` with `role` as its user: this machine's PostgreSQL trusts local connections, where
/// production's asks the role's password.
fn as_role(url: &SecretString, role: &str) -> SecretString {
    let options: PgConnectOptions = url.expose_secret().parse().expect("database url");
    SecretString::from(options.username(role).to_url_lossy().to_string())
}

#[tokio::test]
async fn a_taken_wallet_pods_database_role_reaches_no_other_services_schema() {
    // The wallet as production runs it: as its own role, its schema migrated by the migration
    // role, which it only checks is current.
    let wallet = common::start_with(|settings| {
        settings.database.url = as_role(&settings.database.url, "wallet");
        settings.database.migrate = MigrateMode::Verify;
    })
    .await;
    let role: String = sqlx::query_scalar("select current_user::text")
        .fetch_one(&wallet.pool)
        .await
        .expect("role");
    assert_eq!(role, "wallet");
    // The role is enough for the wallet's own work: a credit, and its balance read back.
    let user = Uuid::new_v4();
    wallet
        .client
        .clone()
        .credit(common::credit("as-its-own-role", user, 500_000))
        .await
        .expect("the wallet credits as its own role");
    assert_eq!(wallet.account(user).await.credit, 500_000);

    // What a taken pod would try with the same role.
    for statement in [
        "select count(*) from identity.user_account",
        "select count(*) from identity.totp_credential",
        "update identity.user_account set email = 'thief@example.com'",
        "select count(*) from payment.card_order",
        "update payment.bank_feed_record set amount_vnd = amount_vnd + 1",
        "update recharge.recharge_order set status = 'failed'",
        "insert into recharge.outbox_message (id, routing_key, payload) values (gen_random_uuid(), 'x', '{}')",
        // Its own schema's tables it reads and writes, but does not change.
        "drop table posting",
        "alter table staff_action disable trigger staff_action_immutable",
        "create table wallet.kept_for_later (id int)",
    ] {
        let refused = sqlx::query(statement)
            .execute(&wallet.pool)
            .await
            .expect_err(statement);
        let code = refused
            .as_database_error()
            .and_then(|error| error.code())
            .map(|code| code.into_owned());
        assert_eq!(code.as_deref(), Some(REFUSED), "{statement}: {refused}");
    }
    // Its own rows it reads: the credit above, once.
    let kept: i64 = sqlx::query_scalar(
        "select count(*) from ledger_transaction where user_id = $1 and idempotency_key = 'as-its-own-role'",
    )
    .bind(user)
    .fetch_one(&wallet.pool)
    .await
    .expect("its own rows");
    assert_eq!(kept, 1);
}
