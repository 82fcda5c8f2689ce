//! Random sequences of credits, payments, refunds and recalls, with idempotency keys drawn
//! from a small pool so they repeat, arrive out of order, cross players and sometimes race
//! themselves, run against the real wallet service and database. After every step the answer
//! and the player's balance must match a model of money.md's rules; after every case both
//! players must, and money.md's invariants must hold over their accounts; after the run, over
//! the whole ledger.

use std::{
    collections::HashMap,
    sync::atomic::{AtomicUsize, Ordering},
};

use crate::common::Wallet;
use proptest::prelude::*;
use tonic::Code;
use uuid::Uuid;

const PLAYERS: usize = 2;
const KEYS: u8 = 5;

#[derive(Debug, Clone)]
enum Op {
    Credit {
        player: usize,
        key: u8,
        vnd: i64,
    },
    Debit {
        player: usize,
        key: u8,
        kp: i64,
    },
    Refund {
        player: usize,
        key: u8,
        payment: usize,
    },
    Recall {
        player: usize,
        key: u8,
        topup: usize,
        kp: i64,
    },
}

impl Op {
    fn player(&self) -> usize {
        match *self {
            Op::Credit { player, .. }
            | Op::Debit { player, .. }
            | Op::Refund { player, .. }
            | Op::Recall { player, .. } => player,
        }
    }
}

#[derive(Debug, Clone)]
struct Step {
    op: Op,
    /// Send the same call twice at once.
    racing: bool,
}

fn op() -> impl Strategy<Value = Op> {
    let player = 0..PLAYERS;
    prop_oneof![
        3 => (player.clone(), 0..KEYS, 1..60_000i64).prop_map(|(player, key, vnd)| Op::Credit { player, key, vnd }),
        3 => (player.clone(), 0..KEYS, 1..40_000i64).prop_map(|(player, key, kp)| Op::Debit { player, key, kp }),
        1 => (player.clone(), 0..KEYS, 0..8usize).prop_map(|(player, key, payment)| Op::Refund { player, key, payment }),
        2 => (player, 0..KEYS, 0..8usize, 1..40_000i64)
            .prop_map(|(player, key, topup, kp)| Op::Recall { player, key, topup, kp }),
    ]
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (op(), prop::bool::weighted(0.2)).prop_map(|(op, racing)| Step { op, racing }),
        1..24,
    )
}

#[derive(Debug, Default, Clone, Copy)]
struct Purse {
    balance: i64,
    debt: i64,
}

#[derive(Debug)]
struct Topup {
    id: String,
    credited: i64,
    recalled: i64,
}

#[derive(Debug)]
struct Payment {
    id: String,
    kp: i64,
    refunded: bool,
}

/// What money.md says should happen, kept beside the real thing.
#[derive(Debug, Default)]
struct Model {
    purses: [Purse; PLAYERS],
    /// Per operation, per key: who used it, with which request, and the transaction it made.
    keys: HashMap<(&'static str, u8), (usize, i64, String)>,
    topups: [Vec<Topup>; PLAYERS],
    payments: [Vec<Payment>; PLAYERS],
    /// Debit keys refused for the balance, with who asked and for how much: the refusal is
    /// the key's answer for good.
    refused: HashMap<u8, (usize, i64)>,
}

/// The expected outcome of a step: the transaction id it must answer with, or the error code.
type Expected = Result<Option<String>, Code>;

impl Model {
    /// A keyed operation seen before: the same request answers the first transaction, any
    /// other request is a reused key.
    fn replay(&self, operation: &'static str, key: u8, player: usize, request: i64) -> Option<Expected> {
        self.keys.get(&(operation, key)).map(|(who, first, id)| {
            if *who == player && *first == request {
                Ok(Some(id.clone()))
            } else {
                Err(Code::AlreadyExists)
            }
        })
    }
}

struct Run<'a> {
    wallet: &'a Wallet,
    prefix: String,
    players: [Uuid; PLAYERS],
    model: Model,
}

impl Run<'_> {
    fn key(&self, operation: &str, key: u8) -> String {
        format!("{}-{operation}-{key}", self.prefix)
    }

    async fn step(&mut self, step: &Step) -> Result<(), TestCaseError> {
        let copies = if step.racing { 2 } else { 1 };
        match step.op.clone() {
            Op::Credit { player, key, vnd } => {
                let expected = self.model.replay("topup", key, player, vnd);
                let name = self.key("topup", key);
                let (wallet, user) = (self.wallet, self.players[player]);
                let id = sent(copies, &expected, || wallet.credit(&name, user, vnd)).await?;
                if expected.is_none() {
                    let id = id.ok_or_else(|| TestCaseError::fail("a new top-up was refused"))?;
                    let purse = &mut self.model.purses[player];
                    let settles = vnd.min(purse.debt);
                    purse.debt -= settles;
                    purse.balance += vnd - settles;
                    self.model.keys.insert(("topup", key), (player, vnd, id.clone()));
                    self.model.topups[player].push(Topup {
                        id,
                        credited: vnd,
                        recalled: 0,
                    });
                }
            }
            Op::Debit { player, key, kp } => {
                let mut expected = self.model.replay("pay", key, player, kp);
                if expected.is_none()
                    && let Some(first) = self.model.refused.get(&key)
                {
                    expected = Some(Err(if *first == (player, kp) {
                        Code::FailedPrecondition
                    } else {
                        Code::AlreadyExists
                    }));
                }
                if expected.is_none() && self.model.purses[player].balance < kp {
                    expected = Some(Err(Code::FailedPrecondition));
                    self.model.refused.insert(key, (player, kp));
                }
                let name = self.key("pay", key);
                let (wallet, user) = (self.wallet, self.players[player]);
                let id = sent(copies, &expected, || wallet.debit(&name, user, kp)).await?;
                if expected.is_none() {
                    let id = id.ok_or_else(|| TestCaseError::fail("a covered payment was refused"))?;
                    self.model.purses[player].balance -= kp;
                    self.model.keys.insert(("pay", key), (player, kp, id.clone()));
                    self.model.payments[player].push(Payment {
                        id,
                        kp,
                        refunded: false,
                    });
                }
            }
            Op::Refund { player, key, payment } => {
                let Some(index) = pick(self.model.payments[player].len(), payment) else {
                    return Ok(());
                };
                let target = &self.model.payments[player][index];
                let request = index as i64;
                let mut expected = self.model.replay("refund", key, player, request);
                if expected.is_none() && target.refunded {
                    expected = Some(Err(Code::FailedPrecondition));
                }
                let (payment_id, kp) = (target.id.clone(), target.kp);
                let name = self.key("refund", key);
                sent(copies, &expected, || {
                    self.wallet.refund(&name, self.players[player], &payment_id)
                })
                .await?;
                if expected.is_none() {
                    self.model.purses[player].balance += kp;
                    self.model.payments[player][index].refunded = true;
                    self.model
                        .keys
                        .insert(("refund", key), (player, request, payment_id));
                }
            }
            Op::Recall {
                player,
                key,
                topup,
                kp,
            } => {
                let Some(index) = pick(self.model.topups[player].len(), topup) else {
                    return Ok(());
                };
                let target = &self.model.topups[player][index];
                let request = (index as i64) << 32 | kp;
                let mut expected = self.model.replay("recall", key, player, request);
                if expected.is_none() && target.recalled + kp > target.credited {
                    expected = Some(Err(Code::InvalidArgument));
                }
                let topup_id = target.id.clone();
                let name = self.key("recall", key);
                sent(copies, &expected, || async {
                    let recalled = self
                        .wallet
                        .recall(&name, self.players[player], &topup_id, kp)
                        .await;
                    recalled.map(|(transaction, _)| transaction)
                })
                .await?;
                if expected.is_none() {
                    let purse = &mut self.model.purses[player];
                    let from_balance = kp.min(purse.balance);
                    purse.balance -= from_balance;
                    purse.debt += kp - from_balance;
                    self.model.topups[player][index].recalled += kp;
                    self.model
                        .keys
                        .insert(("recall", key), (player, request, topup_id));
                }
            }
        }
        self.balance_agrees(step.op.player()).await
    }

    /// The player's balance and debt in the wallet are the model's.
    async fn balance_agrees(&self, player: usize) -> Result<(), TestCaseError> {
        let account = self.wallet.account(self.players[player]).await;
        let purse = self.model.purses[player];
        prop_assert_eq!((account.credit, account.debt_credit), (purse.balance, purse.debt));
        Ok(())
    }

    /// After the last step: every player agrees with the model, and the ledger's invariants
    /// hold over their accounts and every transaction that touched them.
    async fn settled(&self) -> Result<(), TestCaseError> {
        for player in 0..PLAYERS {
            self.balance_agrees(player).await?;
        }
        self.wallet.assert_invariants_of(&self.players).await;
        Ok(())
    }
}

fn pick(len: usize, index: usize) -> Option<usize> {
    (len > 0).then(|| index % len)
}

/// Sends `copies` of a call at once (a retry racing the first try) and checks that their
/// answers agree with `expected`: the transaction they made, if any.
async fn sent<F>(
    copies: usize,
    expected: &Option<Expected>,
    call: impl Fn() -> F,
) -> Result<Option<String>, TestCaseError>
where
    F: Future<Output = Result<kid_contracts::wallet::v1::Transaction, tonic::Status>>,
{
    let answers = futures::future::join_all((0..copies).map(|_| call())).await;
    agree(&answers, expected)
}

/// Every answer of a step must be the expected one (racing copies too), and all the same
/// transaction. Returns the transaction a new operation made.
fn agree(
    answers: &[Result<kid_contracts::wallet::v1::Transaction, tonic::Status>],
    expected: &Option<Expected>,
) -> Result<Option<String>, TestCaseError> {
    let mut ids = Vec::new();
    for answer in answers {
        match (answer, expected) {
            (Ok(transaction), None) => ids.push(transaction.id.clone()),
            (Ok(transaction), Some(Ok(Some(first)))) => {
                prop_assert_eq!(&transaction.id, first, "a replay answers the first result");
                ids.push(transaction.id.clone());
            }
            (Err(status), Some(Err(code))) => prop_assert_eq!(status.code(), *code, "{}", status.message()),
            (answer, expected) => {
                return Err(TestCaseError::fail(format!(
                    "answered {answer:?}, expected {expected:?}"
                )));
            }
        }
    }
    ids.dedup();
    prop_assert!(
        ids.len() <= 1,
        "racing copies made different transactions: {:?}",
        ids
    );
    Ok(ids.pop())
}

/// How many random operations a run makes: 10^4 in the test command; the reliability suite
/// (`scripts/chaos`) asks for 10^6 in a release build.
fn operations() -> usize {
    std::env::var("KID_PROPERTY_OPERATIONS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(10_000)
}

/// Cases run on this many threads at once, each with its own players and keys, as players use
/// one wallet together; it lets the 10^6-operation run finish in minutes.
const WORKERS: usize = 8;

#[test]
fn random_operations_keep_the_ledger_balanced_and_move_each_key_once() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    // A pool as wide as production's, for the workers' calls that race each other.
    let wallet = runtime.block_on(crate::common::start_with(|settings| {
        settings.database.max_connections = 10;
    }));
    let target = operations();
    let done = AtomicUsize::new(0);
    let started = std::time::Instant::now();
    let running = AtomicUsize::new(WORKERS);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                let _leaving = Leaving(&running);
                explore(&runtime, &wallet, &done, target);
            });
        }
        // This machine's PostgreSQL runs without autovacuum. Without fresh statistics the
        // per-case checks plan for tables far smaller than a long run makes them, scan them
        // whole, and the run slows to a crawl as the ledger grows.
        scope.spawn(|| {
            let mut analyzed = std::time::Instant::now();
            while running.load(Ordering::SeqCst) > 0 {
                std::thread::sleep(std::time::Duration::from_secs(1));
                if analyzed.elapsed() >= std::time::Duration::from_secs(20) {
                    runtime
                        .block_on(sqlx::query("analyze").execute(&wallet.pool))
                        .expect("analyze");
                    analyzed = std::time::Instant::now();
                }
            }
        });
    });
    // Each step checked its own players' accounts; the whole ledger once at the end.
    runtime.block_on(wallet.assert_invariants());
    let done = done.load(Ordering::SeqCst);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{done} random operations against the ledger in {seconds:.0} s ({:.0}/s, {WORKERS} at once)",
        done as f64 / seconds
    );
}

/// Counts a worker out when it ends, even by a failed case's panic.
struct Leaving<'a>(&'a AtomicUsize);

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Runs random cases, batch after batch, until `done` reaches `target` operations.
fn explore(runtime: &tokio::runtime::Runtime, wallet: &Wallet, done: &AtomicUsize, target: usize) {
    while done.load(Ordering::SeqCst) < target {
        let left = target.saturating_sub(done.load(Ordering::SeqCst));
        // Cases of 12.5 steps on average, shared between the workers.
        let config = ProptestConfig {
            cases: u32::try_from(left.div_ceil(12 * WORKERS))
                .unwrap_or(u32::MAX)
                .max(1),
            failure_persistence: None,
            ..ProptestConfig::default()
        };
        proptest!(config, |(steps in steps())| {
            done.fetch_add(steps.len(), Ordering::SeqCst);
            runtime.block_on(async {
                let mut run = Run {
                    wallet,
                    prefix: Uuid::new_v4().simple().to_string(),
                    players: [Uuid::new_v4(), Uuid::new_v4()],
                    model: Model::default(),
                };
                for step in &steps {
                    run.step(step).await?;
                }
                run.settled().await
            })?;
        });
    }
}
