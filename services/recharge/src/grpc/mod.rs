//! The tonic service: the catalogue and order placement.

use kid_contracts::money::IdempotencyKey;
use kid_contracts::recharge::v1::{
    self as pb, CreateRechargeRequest, CreateRechargeResponse, GetCharacterRequest, GetCharacterResponse,
    GetRechargeInfoRequest, GetRechargeInfoResponse, ListOrdersRequest, ListOrdersResponse,
    ListProductsRequest, ListProductsResponse, ListRedemptionsRequest, ListRedemptionsResponse,
    RedeemGiftcodeRequest, RedeemGiftcodeResponse, recharge_service_server::RechargeService,
};
use kid_contracts::recharge::v1::{
    RefundOrderRequest, RefundOrderResponse, ResendOrderRequest, ResendOrderResponse,
};
use kid_platform::{
    auth::{self, StaffRole},
    grpc,
};
use sqlx::PgPool;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::{
    app::{
        characters::Character,
        giftcodes::{GiftcodeError, Giftcodes, Granted, ItemStatus, ZoneChoice},
        orders::{OrderError, Orders},
        support::{self, SupportError},
    },
    db,
    domain::{
        EventKind, OrderState,
        order::{MSG_CHARACTER_UNCHECKED, MSG_KEY_REUSED, MSG_NO_CHARACTER, MSG_ZONE_UNKNOWN, NewOrder},
    },
};
pub use kid_contracts::messages::catalogue::MSG_UNKNOWN_PRODUCT;
use kid_contracts::messages::giftcode::MSG_KEY_REUSED as MSG_GIFTCODE_KEY_REUSED;
use kid_contracts::reasons::{CHARACTER_UNCHECKED, GIFTCODE_ZONE, PRODUCT_CODE};
use kid_platform::validation::FieldErrors;
use tonic_types::{ErrorDetails, StatusExt};

type Answer<T> = Result<Response<T>, Status>;

pub struct Recharge {
    pool: PgPool,
    orders: Orders,
    giftcodes: Giftcodes,
}

impl Recharge {
    pub fn new(orders: Orders, giftcodes: Giftcodes) -> Self {
        Self {
            pool: orders.pool().clone(),
            orders,
            giftcodes,
        }
    }
}

/// The player and the request's idempotency key of a call that changes something, checked.
fn player_and_key(user_id: &str, key: &str) -> Result<(Uuid, String), Status> {
    let user_id = user_id
        .parse()
        .map_err(|_| Status::invalid_argument("user_id is not a UUID"))?;
    let key = IdempotencyKey::parse(key.trim()).ok_or_else(|| {
        Status::invalid_argument("idempotency_key must be 1 to 128 printable ASCII characters")
    })?;
    Ok((user_id, key.into_string()))
}

fn database(error: sqlx::Error) -> Status {
    grpc::internal("recharge database", &error)
}

impl From<SupportError> for Status {
    fn from(error: SupportError) -> Self {
        match error {
            SupportError::NotFound(message) => Status::not_found(message),
            SupportError::Refused(message) => Status::failed_precondition(message),
            SupportError::Invalid(message) => FieldErrors::one("reason", message).into_status(),
            SupportError::Database(error) => database(error),
            SupportError::Outbox(error) => grpc::internal("recharge outbox", &error),
        }
    }
}

fn order_id(value: &str) -> Result<Uuid, Status> {
    Uuid::parse_str(value).map_err(|_| Status::invalid_argument("order_id is not a UUID"))
}

/// A coin order as the data export and the console show it.
fn order_record(order: crate::domain::order::Order) -> pb::OrderRecord {
    pb::OrderRecord {
        id: order.id.to_string(),
        product_code: order.product_code,
        zone_id: order.zone_id,
        username: order.username,
        credit: order.credit,
        coins: order.coins,
        milestone_bonus: order.milestone_bonus,
        event_bonus: order.event_bonus,
        lottery_points: order.lottery_points,
        status: order.status.as_str().to_owned(),
        failure_reason: order.failure_reason.unwrap_or_default(),
        created_at: Some(grpc::timestamp(order.created_at)),
        updated_at: Some(grpc::timestamp(order.updated_at)),
        transaction_id: order.transaction_id.map(|id| id.to_string()).unwrap_or_default(),
        deliver_by: order.deliver_by.map(grpc::timestamp),
    }
}

impl From<OrderError> for Status {
    fn from(error: OrderError) -> Self {
        match error {
            OrderError::UnknownProduct => Status::not_found(MSG_UNKNOWN_PRODUCT),
            OrderError::Invalid(errors) => errors.into_status(),
            OrderError::KeyReused => Status::already_exists(MSG_KEY_REUSED),
            OrderError::InsufficientBalance(message) => Status::failed_precondition(message),
            OrderError::CharacterUnchecked => character_unchecked(),
            OrderError::Database(error) => database(error),
            OrderError::Outbox(error) => grpc::internal("recharge outbox", &error),
        }
    }
}

impl From<GiftcodeError> for Status {
    fn from(error: GiftcodeError) -> Self {
        match error {
            GiftcodeError::Refused(message) => FieldErrors::one("code", message).into_status(),
            GiftcodeError::Zone {
                product_code,
                message,
            } => {
                let mut details = ErrorDetails::with_error_info(
                    GIFTCODE_ZONE,
                    "recharge",
                    [(PRODUCT_CODE.to_owned(), product_code)],
                );
                details.add_bad_request_violation("zoneId", message.clone());
                Status::with_error_details(tonic::Code::InvalidArgument, message, details)
            }
            GiftcodeError::CharacterUnchecked => character_unchecked(),
            GiftcodeError::KeyReused => Status::already_exists(MSG_GIFTCODE_KEY_REUSED),
            GiftcodeError::Database(error) => database(error),
            GiftcodeError::Outbox(error) => grpc::internal("recharge outbox", &error),
        }
    }
}

/// The game did not answer a character check in time: the message is the player's.
fn character_unchecked() -> Status {
    Status::with_error_details(
        tonic::Code::Unavailable,
        MSG_CHARACTER_UNCHECKED,
        ErrorDetails::with_error_info(CHARACTER_UNCHECKED, "recharge", []),
    )
}

fn order_status(status: OrderState) -> pb::OrderStatus {
    match status {
        OrderState::Paying => pb::OrderStatus::Paying,
        OrderState::AwaitingDelivery => pb::OrderStatus::AwaitingDelivery,
        OrderState::Delivered => pb::OrderStatus::Delivered,
        OrderState::Failed => pb::OrderStatus::Failed,
    }
}

#[tonic::async_trait]
impl RechargeService for Recharge {
    async fn list_products(&self, _request: Request<ListProductsRequest>) -> Answer<ListProductsResponse> {
        let products = db::catalogue::products(&mut *self.pool.acquire().await.map_err(database)?)
            .await
            .map_err(database)?;
        Ok(Response::new(ListProductsResponse {
            products: products
                .into_iter()
                .map(|product| pb::ProductSummary {
                    code: product.code,
                    name: product.name,
                    logo_img: product.logo_img,
                })
                .collect(),
        }))
    }

    async fn get_recharge_info(
        &self,
        request: Request<GetRechargeInfoRequest>,
    ) -> Answer<GetRechargeInfoResponse> {
        let code = request.into_inner().product_code;
        let info = db::catalogue::recharge_info(&mut *self.pool.acquire().await.map_err(database)?, &code)
            .await
            .map_err(database)?
            .ok_or_else(|| Status::not_found(MSG_UNKNOWN_PRODUCT))?;
        Ok(Response::new(GetRechargeInfoResponse {
            code: info.product.code,
            name: info.product.name,
            coin_name: info.product.coin_name,
            home_page_url: info.product.home_page_url,
            zones: info
                .zones
                .into_iter()
                .map(|zone| pb::Zone {
                    id: zone.id,
                    description: zone.description,
                })
                .collect(),
            payable_values: info
                .payable_values
                .into_iter()
                .map(|value| pb::PayableValue {
                    credit: value.credit,
                    coins_received: value.coins_received,
                    coins_bonus: value.coins_bonus,
                })
                .collect(),
            recharge_events: info
                .events
                .into_iter()
                .map(|event| pb::RechargeEvent {
                    name: event.name,
                    r#type: match event.kind {
                        EventKind::BonusCoin => pb::RechargeEventType::BonusCoin,
                        EventKind::LotteryPoint => pb::RechargeEventType::BonusLotteryPoint,
                    }
                    .into(),
                    rate: event.rate.normalize().to_string(),
                    starts_at: Some(grpc::timestamp(event.starts_at)),
                    ends_at: Some(grpc::timestamp(event.ends_at)),
                })
                .collect(),
        }))
    }

    async fn redeem_giftcode(
        &self,
        request: Request<RedeemGiftcodeRequest>,
    ) -> Answer<RedeemGiftcodeResponse> {
        let request = request.into_inner();
        let (user_id, key) = player_and_key(&request.user_id, &request.idempotency_key)?;
        let zone = (request.zone_id != 0).then_some(ZoneChoice {
            zone_id: request.zone_id,
            username: request.username,
        });
        let redemption = self.giftcodes.redeem(user_id, &key, &request.code, zone).await?;
        let mut response = RedeemGiftcodeResponse {
            redemption_id: redemption.id.to_string(),
            campaign: redemption.campaign,
            ..RedeemGiftcodeResponse::default()
        };
        match redemption.granted {
            Granted::Kp { kp, transaction_id } => {
                response.kp = kp;
                response.granted = transaction_id.is_some();
                response.transaction_id = transaction_id.map(|id| id.to_string()).unwrap_or_default();
            }
            Granted::Items { to, items, status } => {
                response.items = Some(pb::GiftItems {
                    product_code: to.product_code,
                    product_name: to.product_name,
                    zone_id: to.zone_id,
                    zone_description: to.zone_description,
                    character_name: to.character_name.unwrap_or_default(),
                    items: items
                        .into_iter()
                        .map(|item| pb::GiftItem {
                            item_id: item.item_id,
                            name: item.name,
                            quantity: item.quantity,
                        })
                        .collect(),
                    status: match status {
                        ItemStatus::Sent => pb::ItemGrantStatus::Sent,
                        ItemStatus::Delivered => pb::ItemGrantStatus::Delivered,
                        ItemStatus::Failed => pb::ItemGrantStatus::Failed,
                    }
                    .into(),
                });
            }
        }
        Ok(Response::new(response))
    }

    async fn create_recharge(
        &self,
        request: Request<CreateRechargeRequest>,
    ) -> Answer<CreateRechargeResponse> {
        let request = request.into_inner();
        let (user_id, key) = player_and_key(&request.user_id, &request.idempotency_key)?;
        let placed = self
            .orders
            .place(NewOrder {
                key,
                user_id,
                username: request.username,
                product_code: request.product_code,
                zone_id: request.zone_id,
                credit: request.credit_amount,
            })
            .await?;
        let order = placed.order;
        Ok(Response::new(CreateRechargeResponse {
            order_id: order.id.to_string(),
            transaction_id: order.transaction_id.map(|id| id.to_string()).unwrap_or_default(),
            product_code: order.product_code,
            coin_name: placed.product.coin_name,
            zone_id: order.zone_id,
            zone_description: placed.zone_description,
            credit: order.credit,
            coins: order.coins,
            milestone_bonus: order.milestone_bonus,
            event_bonus: order.event_bonus,
            lottery_points: order.lottery_points,
            status: order_status(order.status).into(),
        }))
    }

    async fn list_orders(&self, request: Request<ListOrdersRequest>) -> Answer<ListOrdersResponse> {
        let user_id = Uuid::parse_str(&request.get_ref().user_id)
            .map_err(|_| Status::invalid_argument("user_id is not a UUID"))?;
        let orders = db::orders::of_user(&mut *self.pool.acquire().await.map_err(database)?, user_id)
            .await
            .map_err(database)?;
        let orders = orders.into_iter().map(order_record).collect();
        Ok(Response::new(ListOrdersResponse { orders }))
    }

    async fn list_redemptions(
        &self,
        request: Request<ListRedemptionsRequest>,
    ) -> Answer<ListRedemptionsResponse> {
        let user_id = Uuid::parse_str(&request.get_ref().user_id)
            .map_err(|_| Status::invalid_argument("user_id is not a UUID"))?;
        let rows = db::giftcodes::of_user(&mut *self.pool.acquire().await.map_err(database)?, user_id)
            .await
            .map_err(database)?;
        let redemptions = rows
            .into_iter()
            .map(|row| pb::RedemptionRecord {
                id: row.id.to_string(),
                campaign: row.campaign,
                kp: row.kp.unwrap_or_default(),
                product_code: row.product_code.unwrap_or_default(),
                zone_id: row.zone_id.unwrap_or_default(),
                username: row.username.unwrap_or_default(),
                character_name: row.character_name.unwrap_or_default(),
                status: row.status,
                failure_reason: row.failure_reason.unwrap_or_default(),
                transaction_id: row.transaction_id.map(|id| id.to_string()).unwrap_or_default(),
                created_at: Some(grpc::timestamp(row.created_at)),
            })
            .collect();
        Ok(Response::new(ListRedemptionsResponse { redemptions }))
    }

    async fn get_character(&self, request: Request<GetCharacterRequest>) -> Answer<GetCharacterResponse> {
        let request = request.into_inner();
        let info = db::catalogue::recharge_info(
            &mut *self.pool.acquire().await.map_err(database)?,
            &request.product_code,
        )
        .await
        .map_err(database)?
        .ok_or_else(|| Status::not_found(MSG_UNKNOWN_PRODUCT))?;
        if info.zone(request.zone_id).is_none() {
            return Err(FieldErrors::one("zoneId", MSG_ZONE_UNKNOWN).into_status());
        }
        match self
            .orders
            .characters()
            .check(&info.product.code, request.zone_id, &request.username)
            .await
        {
            Character::Found(name) => Ok(Response::new(GetCharacterResponse { name })),
            Character::Missing => Err(Status::not_found(MSG_NO_CHARACTER)),
            Character::Unanswered => Err(character_unchecked()),
        }
    }

    async fn resend_order(&self, request: Request<ResendOrderRequest>) -> Answer<ResendOrderResponse> {
        let staff = auth::staff_actor(&request, "ResendOrder", &[StaffRole::Support])?;
        let order_id = order_id(&request.get_ref().order_id)?;
        let (order, message_id) = support::resend(&self.pool, &staff, order_id).await?;
        Ok(Response::new(ResendOrderResponse {
            order: Some(order_record(order)),
            message_id: message_id.to_string(),
        }))
    }

    async fn refund_order(&self, request: Request<RefundOrderRequest>) -> Answer<RefundOrderResponse> {
        let staff = auth::staff_reauthenticated(&request, "RefundOrder", &[StaffRole::Finance])?;
        let request = request.into_inner();
        let order_id = order_id(&request.order_id)?;
        let (order, already) = support::refund(&self.pool, &staff, order_id, &request.reason).await?;
        Ok(Response::new(RefundOrderResponse {
            order: Some(order_record(order)),
            already,
        }))
    }
}
