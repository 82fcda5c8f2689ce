//! The tonic service: methods, card fees, card submission and the two outside parties'
//! webhooks, which the gateway passes through unread.

use std::sync::Arc;

use kid_contracts::payment::v1::{
    CardFee, CardProvider, ListCardFeesRequest, ListCardFeesResponse, ListMethodsRequest,
    ListMethodsResponse, MethodType, ReceiveBankTransferRequest, ReceiveBankTransferResponse,
    ReceiveCardCallbackRequest, ReceiveCardCallbackResponse, SubmitCardRequest, SubmitCardResponse,
    TransferMethod, payment_service_server::PaymentService,
};
use kid_contracts::payment::v1::{
    FindPayersRequest, FindPayersResponse, KeptTransfer, ListUnmatchedTransfersRequest,
    ListUnmatchedTransfersResponse, MatchTransferRequest, MatchTransferResponse, TransferSuggestion,
};
use kid_platform::{
    auth::{self, StaffRole},
    config::PaymentSettings,
    grpc,
    seal::Seal,
};
use secrecy::ExposeSecret;
use sqlx::PgPool;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    aggregator::Aggregator,
    app::{
        self,
        bank_feed::{self, FeedError, Receipt},
        cards::{self, CardError, CardInput, Settlement},
        matching::{self, Kept, MatchError},
    },
    db,
    domain::bank_feed::{BankFeed, CredentialError, Verified, now_ms},
    events,
};

type Answer<T> = Result<Response<T>, Status>;

pub struct Payment {
    pool: PgPool,
    settings: PaymentSettings,
    bank_feed: BankFeed,
    aggregator: Arc<dyn Aggregator>,
    pin_seal: Seal,
    /// KP past which a transfer matched by hand waits for a second finance member.
    match_threshold: i64,
}

impl Payment {
    pub fn new(pool: PgPool, settings: PaymentSettings, aggregator: Arc<dyn Aggregator>) -> Self {
        Self {
            pool,
            bank_feed: BankFeed::new(settings.bank_feed, settings.bank_feed_secret.clone()),
            pin_seal: cards::pin_seal(settings.card_secret.expose_secret()),
            settings,
            aggregator,
            match_threshold: 0,
        }
    }

    /// Finance's one approval threshold (`wallet.adjustment_approval_kp`) for matches too.
    pub fn with_match_threshold(mut self, kp: i64) -> Self {
        self.match_threshold = kp;
        self
    }
}

fn user_id(value: &str) -> Result<Uuid, Status> {
    value
        .parse()
        .map_err(|_| Status::invalid_argument("user_id is not a UUID"))
}

fn database(error: sqlx::Error) -> Status {
    grpc::internal("payment database", &error)
}

/// `body`, if `headers` hold the bank feed's credential for it: an oversized header is a bad
/// argument, any other refusal unauthenticated.
fn verified<'a>(
    feed: &BankFeed,
    headers: &std::collections::HashMap<String, String>,
    body: &'a [u8],
) -> Result<Verified<'a>, Status> {
    feed.verify(headers, body, now_ms()).map_err(|error| match error {
        CredentialError::Oversized => Status::invalid_argument(error.to_string()),
        _ => Status::unauthenticated(error.to_string()),
    })
}

impl From<MatchError> for Status {
    fn from(error: MatchError) -> Self {
        match error {
            MatchError::NotFound(message) => Status::not_found(message),
            MatchError::Refused(message) => Status::failed_precondition(message),
            MatchError::Database(error) => database(error),
            MatchError::Outbox(error) => grpc::internal("payment outbox", &error),
        }
    }
}

fn kept_transfer(kept: Kept) -> KeptTransfer {
    let transfer = kept.transfer;
    let text = |value: Option<String>| value.unwrap_or_default();
    KeptTransfer {
        id: transfer.id.to_string(),
        provider_id: text(transfer.provider_id),
        method_code: text(transfer.method_code),
        transaction_date: text(transfer.transaction_date),
        account_number: text(transfer.account_number),
        amount_vnd: transfer.amount_vnd.unwrap_or_default(),
        content: text(transfer.content),
        reference_code: text(transfer.reference_code),
        reason: text(transfer.reason),
        received_at: Some(grpc::timestamp(transfer.received_at)),
        status: transfer.status,
        user_id: transfer.user_id.map(|id| id.to_string()).unwrap_or_default(),
        matched_by: transfer.matched_by.map(|id| id.to_string()).unwrap_or_default(),
        matched_at: transfer.matched_at.map(grpc::timestamp),
        match_asked_for: transfer
            .match_asked_for
            .map(|id| id.to_string())
            .unwrap_or_default(),
        match_asked_by_username: text(transfer.match_asked_by_username),
        match_asked_at: transfer.match_asked_at.map(grpc::timestamp),
        kp: kept.kp.unwrap_or_default(),
        suggestions: kept
            .suggestions
            .into_iter()
            .map(|suggestion| TransferSuggestion {
                user_id: suggestion.user_id.to_string(),
                code: suggestion.code,
                why: suggestion.why.as_str().to_owned(),
            })
            .collect(),
    }
}

impl From<FeedError> for Status {
    fn from(error: FeedError) -> Self {
        match error {
            FeedError::Malformed(reason) => {
                Status::invalid_argument(format!("malformed notification: {reason}"))
            }
            FeedError::Database(error) => database(error),
            FeedError::Outbox(error) => grpc::internal("payment outbox", &error),
        }
    }
}

impl From<CardError> for Status {
    fn from(error: CardError) -> Self {
        match error {
            CardError::Invalid(fields) => fields.into_status(),
            CardError::AlreadyPending => Status::already_exists(cards::MSG_ALREADY_PENDING),
            CardError::Refused(_) => Status::failed_precondition(cards::MSG_REFUSED),
            CardError::Malformed(reason) => Status::invalid_argument(format!("malformed callback: {reason}")),
            CardError::UnknownOrder => Status::not_found("no such card order"),
            CardError::Forged => Status::unauthenticated("the callback_sign does not sign this card"),
            CardError::Database(error) => database(error),
            CardError::Outbox(error) => grpc::internal("payment outbox", &error),
        }
    }
}

fn method_type(kind: &str) -> MethodType {
    match kind {
        "bank-transfer" => MethodType::BankTransfer,
        "e-wallet" => MethodType::EWallet,
        _ => MethodType::Unspecified,
    }
}

#[tonic::async_trait]
impl PaymentService for Payment {
    async fn list_methods(&self, request: Request<ListMethodsRequest>) -> Answer<ListMethodsResponse> {
        let user = user_id(&request.into_inner().user_id)?;
        let mut conn = self.pool.acquire().await.map_err(database)?;
        let syntax = app::methods::payment_syntax(&mut conn, user)
            .await
            .map_err(database)?;
        let transfers = db::methods::transfer_methods(&mut conn).await.map_err(database)?;
        let cards = db::methods::card_providers(&mut conn).await.map_err(database)?;
        let mut response = ListMethodsResponse::default();
        for method in transfers {
            let entry = TransferMethod {
                qr_code_data: method.qr_code_data(&syntax).unwrap_or_default(),
                payment_syntax: syntax.clone(),
                exchange_rate: method.rate().to_string(),
                r#type: method_type(&method.kind).into(),
                code: method.code,
                name: method.name,
                account_name: method.account_name,
                account_number: method.account_number,
                mobile_account_number: method.mobile_account_number,
            };
            match entry.r#type() {
                MethodType::EWallet => response.e_wallets.push(entry),
                _ => response.bank_transfers.push(entry),
            }
        }
        response.cards = cards
            .into_iter()
            .map(|card| CardProvider {
                exchange_rate: card.rate().to_string(),
                code: card.code,
                name: card.name,
                payable_values: card.payable_values,
                enabled: card.enabled,
            })
            .collect();
        Ok(Response::new(response))
    }

    async fn list_card_fees(&self, _request: Request<ListCardFeesRequest>) -> Answer<ListCardFeesResponse> {
        let mut conn = self.pool.acquire().await.map_err(database)?;
        let fees = db::methods::card_fees(&mut conn).await.map_err(database)?;
        Ok(Response::new(ListCardFeesResponse {
            fees: fees
                .into_iter()
                .map(|fee| CardFee {
                    fee_percent: fee
                        .fee_percent
                        .parse::<rust_decimal::Decimal>()
                        .map(|d| d.normalize().to_string())
                        .unwrap_or(fee.fee_percent),
                    provider: fee.provider,
                    value: fee.value,
                })
                .collect(),
        }))
    }

    async fn submit_card(&self, request: Request<SubmitCardRequest>) -> Answer<SubmitCardResponse> {
        let request = request.into_inner();
        let input = CardInput {
            user_id: user_id(&request.user_id)?,
            provider: request.provider,
            value: request.value,
            pin: request.pin,
            serial: request.serial,
        };
        let order_id = cards::submit(&self.pool, self.aggregator.as_ref(), &self.pin_seal, input).await?;
        Ok(Response::new(SubmitCardResponse {
            transaction_id: events::card_topup_key(order_id),
            order_id: order_id.to_string(),
        }))
    }

    async fn receive_bank_transfer(
        &self,
        request: Request<ReceiveBankTransferRequest>,
    ) -> Answer<ReceiveBankTransferResponse> {
        let request = request.into_inner();
        let notification = verified(&self.bank_feed, &request.headers, &request.body)?;
        let receipt = bank_feed::receive(&self.pool, notification).await?;
        Ok(Response::new(ReceiveBankTransferResponse {
            duplicate: receipt == Receipt::Duplicate,
            matched: receipt == Receipt::Credited,
        }))
    }

    async fn receive_card_callback(
        &self,
        request: Request<ReceiveCardCallbackRequest>,
    ) -> Answer<ReceiveCardCallbackResponse> {
        let request = request.into_inner();
        let form = request
            .content_type
            .to_ascii_lowercase()
            .starts_with("application/x-www-form-urlencoded");
        let key = self.settings.card_secret.expose_secret();
        let settlement = cards::callback(&self.pool, key, &request.body, form).await?;
        Ok(Response::new(ReceiveCardCallbackResponse {
            duplicate: settlement == Settlement::Unchanged,
        }))
    }

    async fn list_unmatched_transfers(
        &self,
        request: Request<ListUnmatchedTransfersRequest>,
    ) -> Answer<ListUnmatchedTransfersResponse> {
        auth::staff_actor(&request, "ListUnmatchedTransfers", &StaffRole::ALL)?;
        let request = request.into_inner();
        let limit = i64::from(if request.limit == 0 {
            100
        } else {
            request.limit.min(500)
        });
        let kept = matching::kept(&self.pool, request.matched, limit)
            .await
            .map_err(database)?;
        Ok(Response::new(ListUnmatchedTransfersResponse {
            transfers: kept.into_iter().map(kept_transfer).collect(),
        }))
    }

    async fn match_transfer(&self, request: Request<MatchTransferRequest>) -> Answer<MatchTransferResponse> {
        let staff = auth::staff_reauthenticated(&request, "MatchTransfer", &[StaffRole::Finance])?;
        let request = request.into_inner();
        let transfer_id: Uuid = request
            .transfer_id
            .parse()
            .map_err(|_| Status::invalid_argument("transfer_id is not a UUID"))?;
        let matched = matching::match_transfer(
            &self.pool,
            &staff,
            transfer_id,
            user_id(&request.user_id)?,
            self.match_threshold,
        )
        .await?;
        Ok(Response::new(MatchTransferResponse {
            transfer: Some(kept_transfer(Kept {
                transfer: matched.transfer,
                kp: Some(matched.kp),
                suggestions: Vec::new(),
            })),
            kp: matched.kp,
            already: matched.already,
            pending: matched.pending,
        }))
    }

    async fn find_payers(&self, request: Request<FindPayersRequest>) -> Answer<FindPayersResponse> {
        auth::staff_actor(&request, "FindPayers", &StaffRole::ALL)?;
        let codes = crate::domain::syntax::candidates(&request.get_ref().content);
        let mut conn = self.pool.acquire().await.map_err(database)?;
        let payers = db::bank_feed::players_with_codes(&mut conn, &codes)
            .await
            .map_err(database)?
            .into_iter()
            .map(|(code, user_id)| TransferSuggestion {
                user_id: user_id.to_string(),
                code,
                why: matching::Why::NamesCode.as_str().to_owned(),
            })
            .collect();
        Ok(Response::new(FindPayersResponse { payers }))
    }
}
