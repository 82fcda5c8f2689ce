//! Giftcodes: a signed-in player redeems a code for its KP.
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
use kid_contracts::{messages::giftcode::MSG_GRANT_PENDING, recharge::v1::RedeemGiftcodeRequest};
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
}

/// Whether the KP are in the balance yet.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
enum GrantStatus {
    Granted,
    /// The wallet has not confirmed the grant yet; it will be, without the player.
    Processing,
}

/// What a redeemed code gave.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = GiftcodeRedeemed)]
struct RedeemedBody {
    redemption_id: String,
    /// The campaign's name.
    campaign: String,
    /// KP granted.
    kp: i64,
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

/// Redeems a giftcode. 200 with what it gave; 202 while the KP are being granted (the same
/// key later returns the outcome); 422 with `errors.code` for an unknown, not yet valid,
/// expired or used code or one already redeemed by this account; 429 once too many codes were
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
        (status = 202, description = "Redeemed; the KP are being granted. Retry with the same key for the outcome.", body = RedeemedBody)
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
        })
        .await;
    let redeemed = match answer {
        // A refused code is a guess: it stays counted.
        Err(status) if status.code() == tonic::Code::InvalidArgument => return Err(status.into()),
        answer => {
            state.throttle.release(player).await?;
            state.throttle.release(from_address).await?;
            answer?.into_inner()
        }
    };
    let (code, status, message) = if redeemed.granted {
        (StatusCode::OK, GrantStatus::Granted, None)
    } else {
        (
            StatusCode::ACCEPTED,
            GrantStatus::Processing,
            Some(MSG_GRANT_PENDING),
        )
    };
    Ok((
        code,
        Json(RedeemedBody {
            redemption_id: redeemed.redemption_id,
            campaign: redeemed.campaign,
            kp: redeemed.kp,
            status,
            transaction_id: (!redeemed.transaction_id.is_empty()).then_some(redeemed.transaction_id),
            message,
        }),
    ))
}
