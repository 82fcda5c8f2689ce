//! Giftcodes: a signed-in player redeems a code for its KP, or for in-game items sent to a
//! character on a zone the player chooses.
//!
//! Guessing is stopped here, before the recharge service sees the code: each refused code
//! counts against the player and the client address in Redis, and past the allowance every
//! redemption of the window is refused (429) without being checked, a right code too, so a
//! script learns nothing more. The moment a subject crosses the allowance is logged.

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode},
};
use kid_contracts::{
    messages::giftcode::{MSG_GRANT_PENDING, MSG_ITEMS_FAILED, MSG_ITEMS_SENT},
    recharge::v1::{ItemGrantStatus, RedeemGiftcodeRequest},
};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{auth::require_captcha, idempotency_key};
use crate::{
    client_address::ClientAddress,
    error::{ApiError, ApiResult, ValidJson},
    session::SignedIn,
    state::AppState,
    throttle::{Attempt, PER_GIFTCODE_ADDRESS, PER_GIFTCODE_PLAYER},
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(redeem))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RedeemBody {
    /// As the player typed it: case, spaces and dashes do not matter.
    #[serde(default)]
    code: String,
    #[serde(default)]
    g_re_captcha_token: String,
    /// For a code of in-game items: the zone of its game to send them to (the 422 that asks
    /// for it names the game in `productCode`). Ignored for a KP code.
    #[serde(default)]
    zone_id: Option<i64>,
}

/// How far the gift got.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum GrantStatus {
    /// The KP are in the balance.
    Granted,
    /// The wallet has not confirmed the KP yet; it will, without the player.
    Processing,
    /// The items were sent to the game, which has not acknowledged them yet.
    Sent,
    /// The game put the items on the character.
    Delivered,
    /// The game could not deliver the items; the code can be redeemed again.
    Failed,
}

/// One kind of in-game item.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = GiftItem)]
struct GiftItemBody {
    name: String,
    quantity: i64,
}

/// Where a code's in-game items went.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = GiftDestination)]
struct DestinationBody {
    product_code: String,
    product_name: String,
    zone_id: i64,
    zone_description: String,
    /// The character the game named; null when it did not answer the check in time.
    character_name: Option<String>,
}

/// What a redeemed code gave.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = GiftcodeRedeemed)]
struct RedeemedBody {
    redemption_id: String,
    /// The campaign's name.
    campaign: String,
    /// KP granted (0 for a code of in-game items).
    kp: i64,
    /// In-game items given (empty for a KP code).
    items: Vec<GiftItemBody>,
    /// Where the items went (null for a KP code).
    destination: Option<DestinationBody>,
    status: GrantStatus,
    /// The history's `giftcode` transaction, once granted.
    transaction_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'static str>,
}

/// Refuses a redemption past an allowance, logging the moment a subject crossed it.
fn stopped(attempt: &Attempt, user_id: &str, address: &str, retry_after_seconds: u64) -> ApiError {
    if attempt.first_over {
        tracing::warn!(
            user_id,
            address,
            retry_after_seconds,
            "giftcode guessing stopped: too many refused codes"
        );
    }
    metrics::counter!("gateway_giftcode_guesses_refused_total").increment(1);
    ApiError::TooManyRequests { retry_after_seconds }
}

/// Redeems a giftcode. 200 with what it gave; 202 while the KP are being granted or the items
/// are with the game (the same key later returns the outcome); 422 with `errors.code` for an
/// unknown, not yet valid, expired or used code or one already redeemed by this account; 422
/// with `errors.zoneId` and `productCode` for a code of in-game items without a zone of that
/// game, on an unknown zone, or on one where the player has no character; 503 when the game did
/// not answer its character check and the deployment refuses then; 429 once too many codes were
/// refused (per player and per address, 15 minutes).
#[utoipa::path(
    post,
    path = "/giftcode/redeem",
    security(("session" = [])),
    params(
        (
            "Idempotency-Key" = Option<String>,
            Header,
            description = "1 to 128 printable ASCII characters: the same key retried redeems once."
        )
    ),
    request_body = RedeemBody,
    responses(
        (status = 200, description = "Redeemed: the KP are in the balance.", body = RedeemedBody),
        (status = 202, description = "Redeemed; the KP are being granted, or the items are with the game. Retry with the same key for the outcome.", body = RedeemedBody),
        (status = 422, description = "The code is refused (`errors.code`), or an item code needs a zone of the game `productCode` names (`errors.zoneId`).", body = crate::error::ErrorBody),
        (status = 503, description = "The game did not answer its character check in time.", body = crate::error::ErrorBody)
    )
)]
async fn redeem(
    State(state): State<AppState>,
    client: ClientAddress,
    SignedIn { user_id, .. }: SignedIn,
    headers: HeaderMap,
    ValidJson(body): ValidJson<RedeemBody>,
) -> ApiResult<(StatusCode, Json<RedeemedBody>)> {
    let key = idempotency_key(&headers)?;
    let address = client.text();
    require_captcha(&state, &body.g_re_captcha_token, "giftcodeFormSubmit", &address).await?;
    // The game knows the character by the username: asked for only when a zone was chosen,
    // and before the throttle counts the attempt (a failure here is no guess).
    let zone_id = body.zone_id.filter(|zone| *zone > 0).unwrap_or_default();
    let username = if zone_id > 0 {
        super::me::user(&state, user_id.clone()).await?.username
    } else {
        String::new()
    };
    // The player first: one whose guessing is stopped counts no more against the address, so
    // a single guesser cannot stop the other players behind a shared address.
    let player = state.throttle.count(&[(PER_GIFTCODE_PLAYER, &user_id)]).await?;
    if let Some(retry_after_seconds) = player.over_limit {
        return Err(stopped(&player, &user_id, &address, retry_after_seconds));
    }
    let from_address = state.throttle.count(&[(PER_GIFTCODE_ADDRESS, &address)]).await?;
    if let Some(retry_after_seconds) = from_address.over_limit {
        state.throttle.release(player).await?;
        return Err(stopped(&from_address, &user_id, &address, retry_after_seconds));
    }
    let answer = state
        .recharge()
        .redeem_giftcode(RedeemGiftcodeRequest {
            idempotency_key: key,
            user_id,
            code: body.code,
            zone_id,
            username,
        })
        .await;
    let redeemed = match answer {
        // A refused code is a guess: it stays counted. A right code refused only for its zone
        // is not.
        Err(status) if is_refused_code(&status) => return Err(status.into()),
        answer => {
            state.throttle.release(player).await?;
            state.throttle.release(from_address).await?;
            answer?.into_inner()
        }
    };
    let (code, status, message, destination, items) = match redeemed.items {
        None if redeemed.granted => (StatusCode::OK, GrantStatus::Granted, None, None, Vec::new()),
        None => (
            StatusCode::ACCEPTED,
            GrantStatus::Processing,
            Some(MSG_GRANT_PENDING),
            None,
            Vec::new(),
        ),
        Some(gift) => {
            let (code, status, message) = match gift.status() {
                ItemGrantStatus::Delivered => (StatusCode::OK, GrantStatus::Delivered, None),
                ItemGrantStatus::Failed => (StatusCode::OK, GrantStatus::Failed, Some(MSG_ITEMS_FAILED)),
                ItemGrantStatus::Sent | ItemGrantStatus::Unspecified => {
                    (StatusCode::ACCEPTED, GrantStatus::Sent, Some(MSG_ITEMS_SENT))
                }
            };
            let destination = DestinationBody {
                product_code: gift.product_code,
                product_name: gift.product_name,
                zone_id: gift.zone_id,
                zone_description: gift.zone_description,
                character_name: (!gift.character_name.is_empty()).then_some(gift.character_name),
            };
            let items = gift
                .items
                .into_iter()
                .map(|item| GiftItemBody {
                    name: item.name,
                    quantity: item.quantity,
                })
                .collect();
            (code, status, message, Some(destination), items)
        }
    };
    Ok((
        code,
        Json(RedeemedBody {
            redemption_id: redeemed.redemption_id,
            campaign: redeemed.campaign,
            kp: redeemed.kp,
            items,
            destination,
            status,
            transaction_id: (!redeemed.transaction_id.is_empty()).then_some(redeemed.transaction_id),
            message,
        }),
    ))
}

/// A refusal of the code itself (what a guess gets), as opposed to one of the zone for a right
/// code of in-game items.
fn is_refused_code(status: &tonic::Status) -> bool {
    status.code() == tonic::Code::InvalidArgument
        && kid_contracts::reasons::giftcode_zone_product(status).is_none()
}
