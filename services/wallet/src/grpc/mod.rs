//! The tonic service: requests are checked and turned into ledger orders, errors mapped once
//! in `error`.

mod error;

use kid_contracts::money::IdempotencyKey;
use kid_contracts::wallet::v1::{
    self as pb, CreditRequest, CreditResponse, DebitRequest, DebitResponse, FailTopupRequest,
    FailTopupResponse, GetAccountRequest, GetAccountResponse, GetTransactionRequest, GetTransactionResponse,
    GrantRequest, GrantResponse, ListTransactionsRequest, ListTransactionsResponse, OpenTopupRequest,
    OpenTopupResponse, RecallRequest, RecallResponse, RefundRequest, RefundResponse,
    SearchTransactionsRequest, SearchTransactionsResponse, wallet_service_server::WalletService,
};
use kid_contracts::wallet::v1::{
    Adjustment, AdjustmentResponse, AskAdjustmentRequest, DecideAdjustmentRequest, ListAdjustmentsRequest,
    ListAdjustmentsResponse, LocateTransactionRequest, LocateTransactionResponse,
};
use kid_platform::auth::{self, StaffRole};
use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use tonic::{Request, Response, Status};
use uuid::Uuid;

pub use error::{Error, MSG_INSUFFICIENT};

use crate::{
    app::{
        self, CoinMetadata, Debit, Grant, Ledger, LedgerError, Payment, RecallOrder, Refund, Topup,
        TopupCredit, TopupType, TransactionView,
    },
    db,
    domain::{Kp, TxStatus, Vnd},
};

/// Who may move money into a player's wallet or take it back: payment, and operators by hand.
/// The gateway, which faces the internet, never can.
const MONEY_IN: &[&str] = &[auth::PAYMENT, auth::OPERATOR];
/// Who pays for game coin and refunds it: the recharge service (and operator tooling).
const PAYMENTS: &[&str] = &[auth::RECHARGE, auth::OPERATOR];

pub struct Wallet {
    pool: PgPool,
    ledger: Ledger,
    /// KP above which an adjustment waits for a second finance member.
    adjustment_threshold: i64,
}

impl Wallet {
    pub fn new(pool: PgPool, ledger: Ledger) -> Self {
        Self {
            pool,
            ledger,
            adjustment_threshold: 0,
        }
    }

    pub fn with_adjustment_threshold(mut self, kp: i64) -> Self {
        self.adjustment_threshold = kp;
        self
    }

    /// Runs one ledger operation in a transaction of its own, committed when it answers.
    async fn in_transaction<T>(
        &self,
        operation: impl AsyncFnOnce(&mut PgConnection) -> app::Result<T>,
    ) -> Result<T, Error> {
        let mut tx = self.pool.begin().await.map_err(LedgerError::from)?;
        let answer = operation(&mut tx).await?;
        tx.commit().await.map_err(LedgerError::from)?;
        Ok(answer)
    }

    /// A connection for reading.
    async fn reader(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Postgres>, Error> {
        Ok(self.pool.acquire().await.map_err(LedgerError::from)?)
    }
}

fn adjustment(row: db::adjustments::AdjustmentRow) -> Adjustment {
    let id = |id: Option<Uuid>| id.map(|id| id.to_string()).unwrap_or_default();
    Adjustment {
        id: row.id.to_string(),
        user_id: row.user_id.to_string(),
        kp: row.kp,
        reason: row.reason,
        status: row.status,
        requested_by: row.requested_by.to_string(),
        requested_by_username: row.requested_by_username,
        decided_by: id(row.decided_by),
        decided_by_username: row.decided_by_username.unwrap_or_default(),
        decided_at: row.decided_at.map(kid_platform::grpc::timestamp),
        transaction_id: id(row.transaction_id),
        created_at: Some(kid_platform::grpc::timestamp(row.created_at)),
    }
}

fn adjustment_id(value: &str) -> Result<Uuid, Error> {
    Uuid::parse_str(value).map_err(|_| Error::InvalidArgument("adjustment_id is not a UUID"))
}

fn user_id(value: &str) -> Result<Uuid, Error> {
    Uuid::parse_str(value).map_err(|_| Error::InvalidArgument("user_id is not a UUID"))
}

fn transaction_id(value: &str) -> Result<Uuid, Error> {
    Uuid::parse_str(value).map_err(|_| Error::InvalidArgument("transaction_id is not a UUID"))
}

/// The types the history lists: top-ups and payments (related transactions hang off them).
const HISTORY_TYPES: &[&str] = &[
    "topup.bank-transfer",
    "topup.e-wallet",
    "topup.card",
    "credit.pay",
    app::GIFTCODE,
    app::ADJUSTMENT,
];
/// Where an open-ended history starts and ends: before the first and after the last transaction.
const HISTORY_START: time::OffsetDateTime = time::OffsetDateTime::UNIX_EPOCH;
const HISTORY_END: time::OffsetDateTime = time::macros::datetime!(9999-12-31 0:00 UTC);

fn instant(
    value: Option<&prost_types::Timestamp>,
    field: &'static str,
) -> Result<Option<time::OffsetDateTime>, Error> {
    value
        .map(|at| kid_platform::grpc::instant(at).ok_or(Error::InvalidArgument(field)))
        .transpose()
}

/// The page a search asks for, checked.
fn history_page(request: &SearchTransactionsRequest) -> Result<db::HistoryPage<'_>, Error> {
    let kind = match request.r#type.as_str() {
        "" => None,
        kind if HISTORY_TYPES.contains(&kind) => Some(kind),
        _ => return Err(Error::InvalidArgument("type is not a type the history lists")),
    };
    let status = match request.status() {
        pb::TransactionStatus::Unspecified => None,
        pb::TransactionStatus::Pending => Some(TxStatus::Pending),
        pb::TransactionStatus::Success => Some(TxStatus::Success),
        pb::TransactionStatus::Failed => Some(TxStatus::Failed),
    };
    let after = request
        .after
        .as_ref()
        .map(|after| -> Result<_, Error> {
            let at = instant(after.created_at.as_ref(), "after.created_at is out of range")?
                .ok_or(Error::InvalidArgument("after.created_at is missing"))?;
            let id =
                Uuid::parse_str(&after.id).map_err(|_| Error::InvalidArgument("after.id is not a UUID"))?;
            Ok((at, id))
        })
        .transpose()?;
    let end = instant(request.created_before.as_ref(), "created_before is out of range")?
        .map_or(HISTORY_END, |end| end.min(HISTORY_END));
    // The page ends at the earlier of the filter's end and the last page's end.
    let before = match after {
        Some(after) if after.0 < end => after,
        _ => (end, Uuid::nil()),
    };
    Ok(db::HistoryPage {
        user_id: user_id(&request.user_id)?,
        kind,
        status,
        from: instant(request.created_from.as_ref(), "created_from is out of range")?
            .map_or(HISTORY_START, |from| from.max(HISTORY_START)),
        before,
        limit: i64::from(request.limit),
    })
}

fn key(value: &str) -> Result<String, Error> {
    IdempotencyKey::parse(value)
        .map(IdempotencyKey::into_string)
        .ok_or(Error::InvalidArgument(
            "idempotency_key must be 1 to 128 printable ASCII characters",
        ))
}

fn kp(value: i64) -> Result<Kp, Error> {
    Kp::parse(value)
        .filter(|kp| !kp.is_zero())
        .ok_or(Error::InvalidArgument("kp must be positive"))
}

fn vnd(value: i64) -> Result<Vnd, Error> {
    Vnd::parse(value)
        .filter(|vnd| !vnd.is_zero())
        .ok_or(Error::InvalidArgument("amount_vnd must be positive"))
}

fn topup_type(value: i32) -> Result<TopupType, Error> {
    match pb::TopupType::try_from(value) {
        Ok(pb::TopupType::BankTransfer) => Ok(TopupType::BankTransfer),
        Ok(pb::TopupType::EWallet) => Ok(TopupType::EWallet),
        Ok(pb::TopupType::Card) => Ok(TopupType::Card),
        _ => Err(Error::InvalidArgument("topup_type is required")),
    }
}

fn source(value: &str) -> Result<String, Error> {
    let valid = !value.is_empty()
        && value.len() <= 32
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(value.to_owned())
    } else {
        Err(Error::InvalidArgument("source must be a payment channel code"))
    }
}

/// The top-up a request names: OpenTopup and Credit name its parts alike.
macro_rules! topup {
    ($request:expr) => {
        Topup {
            key: key(&$request.idempotency_key)?,
            user_id: user_id(&$request.user_id)?,
            kind: topup_type($request.topup_type)?,
            source: source(&$request.source)?,
            amount: vnd($request.amount_vnd)?,
            serial: $request.card_serial,
        }
    };
}

fn text(payload: &Value, field: &str) -> String {
    payload[field].as_str().unwrap_or_default().to_owned()
}

fn status(value: TxStatus) -> pb::TransactionStatus {
    match value {
        TxStatus::Pending => pb::TransactionStatus::Pending,
        TxStatus::Success => pb::TransactionStatus::Success,
        TxStatus::Failed => pb::TransactionStatus::Failed,
    }
}

impl From<TransactionView> for pb::Transaction {
    fn from(view: TransactionView) -> Self {
        let row = view.row;
        let payload = &row.payload.0;
        let metadata = payload.get("metadata").map(|metadata| pb::CoinMetadata {
            coin: metadata["coin"].as_i64().unwrap_or_default(),
            coin_bonus: metadata["coinBonus"].as_i64().unwrap_or_default(),
            product_code: text(metadata, "productCode"),
            product_name: text(metadata, "productName"),
            coin_name: text(metadata, "coinName"),
        });
        Self {
            id: row.id.to_string(),
            r#type: row.kind,
            status: status(row.status).into(),
            real_value: row.real_value,
            currency: row.currency,
            updated_at: Some(kid_platform::grpc::timestamp(row.updated_at)),
            created_at: Some(kid_platform::grpc::timestamp(row.created_at)),
            payload: Some(pb::TransactionPayload {
                source: text(payload, "source"),
                provider: text(payload, "provider"),
                serial: text(payload, "serial"),
                error_code: text(payload, "errorCode"),
                metadata,
                campaign: text(payload, "campaign"),
                direction: text(payload, "direction"),
                reason: text(payload, "reason"),
            }),
            related_transactions: view
                .related
                .into_iter()
                .map(|related| pb::RelatedTransaction {
                    id: related.id.to_string(),
                    r#type: related.kind,
                    real_value: related.real_value,
                })
                .collect(),
        }
    }
}

type Answer<T> = Result<Response<T>, Status>;

#[tonic::async_trait]
impl WalletService for Wallet {
    async fn get_account(&self, request: Request<GetAccountRequest>) -> Answer<GetAccountResponse> {
        let user = user_id(&request.get_ref().user_id)?;
        let account = self
            .ledger
            .account(&mut *self.reader().await?, user)
            .await
            .map_err(Error::from)?;
        Ok(Response::new(GetAccountResponse {
            credit: account.credit.get(),
            debt_credit: account.debt.get(),
            is_pay_partner: account.is_pay_partner,
            pay_amount_last_28_days: account.pay_amount_last_28_days.get(),
            partner_bonus_bps: account.partner_bonus_bps,
        }))
    }

    async fn open_topup(&self, request: Request<OpenTopupRequest>) -> Answer<OpenTopupResponse> {
        auth::authorize(&request, "OpenTopup", MONEY_IN)?;
        let request = request.into_inner();
        let order = topup!(request);
        let transaction = self
            .in_transaction(async |tx| self.ledger.open_topup(tx, &order).await)
            .await?;
        Ok(Response::new(OpenTopupResponse {
            transaction: Some(transaction.into()),
        }))
    }

    async fn credit(&self, request: Request<CreditRequest>) -> Answer<CreditResponse> {
        auth::authorize(&request, "Credit", MONEY_IN)?;
        let request = request.into_inner();
        let order = TopupCredit {
            kp: kp(request.kp)?,
            error_code: request.error_code,
            topup: topup!(request),
        };
        let transaction = self
            .in_transaction(async |tx| self.ledger.credit(tx, &order).await)
            .await?;
        Ok(Response::new(CreditResponse {
            transaction: Some(transaction.into()),
        }))
    }

    async fn fail_topup(&self, request: Request<FailTopupRequest>) -> Answer<FailTopupResponse> {
        auth::authorize(&request, "FailTopup", MONEY_IN)?;
        let request = request.into_inner();
        let key = key(&request.idempotency_key)?;
        let user = user_id(&request.user_id)?;
        let transaction = self
            .in_transaction(async |tx| self.ledger.fail_topup(tx, &key, user, &request.error_code).await)
            .await?;
        Ok(Response::new(FailTopupResponse {
            transaction: Some(transaction.into()),
        }))
    }

    async fn debit(&self, request: Request<DebitRequest>) -> Answer<DebitResponse> {
        auth::authorize(&request, "Debit", PAYMENTS)?;
        let request = request.into_inner();
        let metadata = request.metadata.unwrap_or_default();
        let payment = Payment {
            key: key(&request.idempotency_key)?,
            user_id: user_id(&request.user_id)?,
            kp: kp(request.kp)?,
            metadata: CoinMetadata {
                coin: metadata.coin,
                coin_bonus: metadata.coin_bonus,
                product_code: metadata.product_code,
                product_name: metadata.product_name,
                coin_name: metadata.coin_name,
            },
        };
        // A refusal is committed too: it is the key's answer for good.
        let transaction = match self
            .in_transaction(async |tx| self.ledger.debit(tx, &payment).await)
            .await?
        {
            Debit::Paid(transaction) => transaction,
            Debit::Refused => return Err(Error::from(LedgerError::InsufficientBalance).into()),
        };
        Ok(Response::new(DebitResponse {
            transaction: Some(transaction.into()),
        }))
    }

    async fn grant(&self, request: Request<GrantRequest>) -> Answer<GrantResponse> {
        auth::authorize(&request, "Grant", PAYMENTS)?;
        let request = request.into_inner();
        let grant = Grant {
            key: key(&request.idempotency_key)?,
            user_id: user_id(&request.user_id)?,
            kp: kp(request.kp)?,
            campaign: request.campaign,
        };
        let transaction = self
            .in_transaction(async |tx| self.ledger.grant(tx, &grant).await)
            .await?;
        Ok(Response::new(GrantResponse {
            transaction: Some(transaction.into()),
        }))
    }

    async fn refund(&self, request: Request<RefundRequest>) -> Answer<RefundResponse> {
        auth::authorize(&request, "Refund", PAYMENTS)?;
        let request = request.into_inner();
        let refund = Refund {
            key: key(&request.idempotency_key)?,
            user_id: user_id(&request.user_id)?,
            payment_id: transaction_id(&request.transaction_id)?,
        };
        let transaction = self
            .in_transaction(async |tx| self.ledger.refund(tx, &refund).await)
            .await?;
        Ok(Response::new(RefundResponse {
            transaction: Some(transaction.into()),
        }))
    }

    async fn recall(&self, request: Request<RecallRequest>) -> Answer<RecallResponse> {
        auth::authorize(&request, "Recall", MONEY_IN)?;
        let request = request.into_inner();
        let corrected_amount = request
            .corrected_amount_vnd
            .map(|value| Vnd::parse(value).ok_or(Error::InvalidArgument("corrected_amount_vnd is negative")))
            .transpose()?;
        let order = RecallOrder {
            key: key(&request.idempotency_key)?,
            user_id: user_id(&request.user_id)?,
            topup_id: transaction_id(&request.transaction_id)?,
            kp: kp(request.kp)?,
            corrected_amount,
        };
        let (transaction, debt_added) = self
            .in_transaction(async |tx| self.ledger.recall(tx, &order).await)
            .await?;
        Ok(Response::new(RecallResponse {
            transaction: Some(transaction.into()),
            debt_added: debt_added.get(),
        }))
    }

    async fn list_transactions(
        &self,
        request: Request<ListTransactionsRequest>,
    ) -> Answer<ListTransactionsResponse> {
        let request = request.into_inner();
        let user = user_id(&request.user_id)?;
        let transactions = self
            .ledger
            .history(&mut *self.reader().await?, user, i64::from(request.limit))
            .await
            .map_err(Error::from)?;
        Ok(Response::new(ListTransactionsResponse {
            transactions: transactions.into_iter().map(Into::into).collect(),
        }))
    }

    async fn search_transactions(
        &self,
        request: Request<SearchTransactionsRequest>,
    ) -> Answer<SearchTransactionsResponse> {
        let page = history_page(request.get_ref())?;
        let found = self
            .ledger
            .history_page(&mut *self.reader().await?, page)
            .await
            .map_err(Error::from)?;
        Ok(Response::new(SearchTransactionsResponse {
            transactions: found.transactions.into_iter().map(Into::into).collect(),
            next: found.next.map(|(at, id)| pb::HistoryPosition {
                created_at: Some(kid_platform::grpc::timestamp(at)),
                id: id.to_string(),
            }),
        }))
    }

    async fn get_transaction(
        &self,
        request: Request<GetTransactionRequest>,
    ) -> Answer<GetTransactionResponse> {
        let request = request.into_inner();
        let user = user_id(&request.user_id)?;
        let id = transaction_id(&request.id)?;
        let transaction = self
            .ledger
            .history_entry(&mut *self.reader().await?, user, id)
            .await
            .map_err(Error::from)?;
        Ok(Response::new(GetTransactionResponse {
            transaction: Some(transaction.into()),
        }))
    }

    async fn ask_adjustment(&self, request: Request<AskAdjustmentRequest>) -> Answer<AdjustmentResponse> {
        let staff = auth::staff_reauthenticated(&request, "AskAdjustment", &[StaffRole::Finance])?;
        let request = request.into_inner();
        let request_key = key(&request.idempotency_key)?;
        let ask = app::AdjustmentAsk {
            user_id: user_id(&request.user_id)?,
            kp: request.kp,
            reason: &request.reason,
            key: &request_key,
        };
        let threshold = self.adjustment_threshold;
        let row = self
            .in_transaction(async |tx| self.ledger.ask_adjustment(tx, &staff, &ask, threshold).await)
            .await?;
        Ok(Response::new(AdjustmentResponse {
            adjustment: Some(adjustment(row)),
            approval_threshold_kp: threshold,
        }))
    }

    async fn approve_adjustment(
        &self,
        request: Request<DecideAdjustmentRequest>,
    ) -> Answer<AdjustmentResponse> {
        let staff = auth::staff_reauthenticated(&request, "ApproveAdjustment", &[StaffRole::Finance])?;
        let id = adjustment_id(&request.get_ref().adjustment_id)?;
        let row = self
            .in_transaction(async |tx| self.ledger.approve_adjustment(tx, &staff, id).await)
            .await?;
        Ok(Response::new(AdjustmentResponse {
            adjustment: Some(adjustment(row)),
            approval_threshold_kp: self.adjustment_threshold,
        }))
    }

    async fn reject_adjustment(
        &self,
        request: Request<DecideAdjustmentRequest>,
    ) -> Answer<AdjustmentResponse> {
        let staff = auth::staff_actor(&request, "RejectAdjustment", &[StaffRole::Finance])?;
        let id = adjustment_id(&request.get_ref().adjustment_id)?;
        let row = self
            .in_transaction(async |tx| self.ledger.reject_adjustment(tx, &staff, id).await)
            .await?;
        Ok(Response::new(AdjustmentResponse {
            adjustment: Some(adjustment(row)),
            approval_threshold_kp: self.adjustment_threshold,
        }))
    }

    async fn list_adjustments(
        &self,
        request: Request<ListAdjustmentsRequest>,
    ) -> Answer<ListAdjustmentsResponse> {
        auth::staff_actor(&request, "ListAdjustments", &StaffRole::ALL)?;
        let request = request.into_inner();
        let status = Some(request.status.as_str()).filter(|status| !status.is_empty());
        let player = match request.user_id.as_str() {
            "" => None,
            id => Some(user_id(id)?),
        };
        let limit = i64::from(if request.limit == 0 {
            100
        } else {
            request.limit.min(500)
        });
        let rows = db::adjustments::list(&mut *self.reader().await?, status, player, limit)
            .await
            .map_err(|error| Error::from(LedgerError::from(error)))?;
        Ok(Response::new(ListAdjustmentsResponse {
            adjustments: rows.into_iter().map(adjustment).collect(),
            approval_threshold_kp: self.adjustment_threshold,
        }))
    }

    async fn locate_transaction(
        &self,
        request: Request<LocateTransactionRequest>,
    ) -> Answer<LocateTransactionResponse> {
        auth::staff_actor(&request, "LocateTransaction", &StaffRole::ALL)?;
        let id = transaction_id(&request.get_ref().transaction_id)?;
        let found = db::find_transaction(&mut *self.reader().await?, id)
            .await
            .map_err(|error| Error::from(LedgerError::from(error)))?
            .ok_or(Error::Ledger(LedgerError::NotFound("no such transaction")))?;
        Ok(Response::new(LocateTransactionResponse {
            user_id: found.user_id.to_string(),
        }))
    }
}
