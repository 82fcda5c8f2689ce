//! The checker: after each scenario, from the databases and what the clients saw alone, every
//! way money could be lost or doubled, each counted. All counts are zero on a sound portal.

use std::time::{Duration, Instant};

use sqlx::PgPool;

use super::traffic::{Journal, Seen};

/// The invariant the scenario that breaks the game's dedupe must break.
pub const GAME_GRANTS_ONCE: &str = "the game granted each order's coins at most once";

/// The services whose outboxes must have published every row.
const PUBLISHERS: [&str; 4] = ["identity", "wallet", "payment", "recharge"];

/// Each invariant over the databases, as a query counting its violations. The pool's search
/// path is the wallet's schema; the others are named.
pub const DATABASE_INVARIANTS: [(&str, &str); 9] = [
    (
        "each credited bank transaction is credited in the ledger",
        "select count(*) from payment.bank_feed_record r where r.status = 'credited' and not exists (
           select 1 from ledger_transaction t where t.operation = 'topup'
             and t.idempotency_key = 'bank-feed:' || r.provider_id and t.status = 'success')",
    ),
    (
        "each bank credit in the ledger has its bank transaction",
        "select count(*) from ledger_transaction t where t.operation = 'topup' and t.idempotency_key like 'bank-feed:%'
           and not exists (select 1 from payment.bank_feed_record r
             where 'bank-feed:' || r.provider_id = t.idempotency_key and r.status = 'credited')",
    ),
    (
        "each successful top-up gave its KP exactly once",
        "select count(*) from ledger_transaction t where t.type like 'topup.%' and t.status = 'success'
           and (select count(*) from ledger_transaction c where c.parent_id = t.id and c.type = 'credit.recharge') <> 1",
    ),
    (
        "each card the aggregator took is decided and a good one credited",
        "select count(*) from payment.card_order c where c.status = 'pending' or (c.status = 'success' and not exists (
           select 1 from ledger_transaction t where t.operation = 'topup' and t.idempotency_key = 'card:' || c.id
             and t.status = 'success'))",
    ),
    (
        "each coin order is closed",
        "select count(*) from recharge.recharge_order where status in ('paying', 'awaiting_delivery')",
    ),
    (
        "each delivered order's payment is settled, never refunded",
        "select count(*) from recharge.recharge_order o left join ledger_transaction p on p.id = o.transaction_id
         where o.status = 'delivered' and (p.status is distinct from 'success' or exists (
           select 1 from ledger_transaction r where r.parent_id = p.id and r.type = 'credit.refund'))",
    ),
    (
        "each failed order's payment is refunded exactly once",
        "select count(*) from recharge.recharge_order o left join ledger_transaction p on p.id = o.transaction_id
         where o.status = 'failed' and (p.status is distinct from 'failed' or (
           select count(*) from ledger_transaction r where r.parent_id = p.id and r.type = 'credit.refund') <> 1)",
    ),
    (
        "each coin payment belongs to an order",
        "select count(*) from ledger_transaction p where p.type = 'credit.pay'
           and not exists (select 1 from recharge.recharge_order o where o.transaction_id = p.id)",
    ),
    (
        GAME_GRANTS_ONCE,
        "select count(*) from (select order_id from game.coin_grant group by order_id having count(*) > 1) twice",
    ),
];

/// Every invariant with its count of violations: the ledger's own, the ones above, every
/// outbox row published, and what the clients saw.
pub async fn check(wallet: &PgPool, journal: &Journal) -> anyhow::Result<Vec<(String, i64)>> {
    let mut found: Vec<(String, i64)> = crate::ledger_violations(wallet)
        .await?
        .into_iter()
        .map(|(name, count)| (name.to_owned(), count))
        .collect();
    for (name, query) in DATABASE_INVARIANTS {
        let count = sqlx::query_scalar(query).fetch_one(wallet).await;
        found.push((
            name.to_owned(),
            anyhow::Context::with_context(count, || name.to_owned())?,
        ));
    }
    found.push((
        "every outbox row was published".into(),
        unpublished(wallet).await?,
    ));

    let orders = journal.coin_orders.lock().await;
    let (coin_succeeded, coin_refused) = keys(orders.iter().map(|(key, seen)| (key, *seen)));
    drop(orders);
    found.push((
        "each coin order a browser saw succeed exists".into(),
        among(
            wallet,
            &coin_succeeded,
            "select count(*) from unnest($1::text[]) as given (k)
             where not exists (select 1 from recharge.recharge_order o where o.idempotency_key = given.k)",
        )
        .await?,
    ));
    found.push((
        "no coin order a browser saw refused moved KP".into(),
        among(
            wallet,
            &coin_refused,
            "select count(*) from unnest($1::text[]) as given (k)
             where exists (select 1 from recharge.recharge_order o where o.idempotency_key = given.k)",
        )
        .await?,
    ));
    let transfers = journal.bank_transfers.lock().await;
    let (bank_succeeded, _) = keys(
        transfers
            .iter()
            .filter(|(_, _, genuine)| *genuine)
            .map(|(id, seen, _)| (id, *seen)),
    );
    let forged: Vec<String> = transfers
        .iter()
        .filter(|(_, _, genuine)| !genuine)
        .map(|(id, _, _)| id.clone())
        .collect();
    drop(transfers);
    found.push((
        "each bank notification the bank saw accepted is credited once".into(),
        among(wallet, &bank_succeeded,
            "select count(*) from unnest($1::text[]) as given (k) where (select count(*) from ledger_transaction t
               where t.operation = 'topup' and t.idempotency_key = 'bank-feed:' || given.k and t.status = 'success') <> 1",
        )
        .await?,
    ));
    found.push((
        "no forged bank notification credited".into(),
        among(wallet, &forged,
            "select count(*) from unnest($1::text[]) as given (k)
             where exists (select 1 from ledger_transaction t where t.idempotency_key = 'bank-feed:' || given.k)
                or exists (select 1 from payment.bank_feed_record r where r.provider_id = given.k)",
        )
        .await?,
    ));
    let cards: Vec<String> = journal.cards.lock().await.clone();
    found.push((
        "each card a browser saw taken is on record".into(),
        among(
            wallet,
            &cards,
            "select count(*) from unnest($1::text[]) as given (k)
             where not exists (select 1 from payment.card_order c where c.id::text = given.k)",
        )
        .await?,
    ));
    found.push((
        "no device kept acting after its player signed it out".into(),
        i64::try_from(
            journal
                .surviving_sessions
                .load(std::sync::atomic::Ordering::SeqCst),
        )?,
    ));
    found.push((
        "no password-guess throttle forgotten".into(),
        i64::try_from(
            journal
                .forgotten_throttles
                .load(std::sync::atomic::Ordering::SeqCst),
        )?,
    ));
    Ok(found)
}

/// The keys the clients saw succeed, and those they saw refused and never succeed (a later
/// duplicate of a notification may be refused as seen before; it still counts as succeeded).
fn keys<'a>(entries: impl Iterator<Item = (&'a String, Seen)> + Clone) -> (Vec<String>, Vec<String>) {
    let succeeded: std::collections::BTreeSet<&String> = entries
        .clone()
        .filter(|(_, seen)| *seen == Seen::Succeeded)
        .map(|(key, _)| key)
        .collect();
    let refused = entries
        .filter(|(key, seen)| *seen == Seen::Refused && !succeeded.contains(key))
        .map(|(key, _)| key.clone())
        .collect();
    (succeeded.into_iter().cloned().collect(), refused)
}

/// Runs `query`, a count over the keys the clients saw (`$1`, a text array).
async fn among(wallet: &PgPool, keys: &[String], query: &'static str) -> anyhow::Result<i64> {
    Ok(sqlx::query_scalar(query).bind(keys).fetch_one(wallet).await?)
}

async fn unpublished(wallet: &PgPool) -> anyhow::Result<i64> {
    let mut total = 0;
    for schema in PUBLISHERS {
        // The schema names are this module's constants.
        let count: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "select count(*) from {schema}.outbox_message where published_at is null"
        )))
        .fetch_one(wallet)
        .await?;
        total += count;
    }
    Ok(total)
}

/// Waits until the portal has finished what the scenario started and every invariant holds:
/// the portal is eventually consistent, and this is how long "eventually" took. Returns `None`
/// when `limit` passed first (the checker then counts what is still wrong).
pub async fn settle(wallet: &PgPool, journal: &Journal, limit: Duration) -> anyhow::Result<Option<Duration>> {
    let started = Instant::now();
    // The tables grow from nothing within the run, faster than autovacuum analyses them:
    // without statistics the checker's joins are planned as nested loops (7 s for one query
    // at 100,000 ledger rows instead of milliseconds).
    crate::analyze(wallet).await?;
    loop {
        let sound = check(wallet, journal)
            .await
            .is_ok_and(|found| found.iter().all(|(_, count)| *count == 0));
        if sound {
            return Ok(Some(started.elapsed()));
        }
        if started.elapsed() > limit {
            return Ok(None);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}
