//! The full transaction history, beside the spec's latest 10: pages over every top-up and
//! payment of the player (keyset pagination: a page starts after the last one's final
//! transaction, so a deep page costs what the first does), filtered by type, status and
//! dates; one transaction's receipt; and the same filters exported as CSV, streamed page by
//! page so that a player with 100,000 transactions costs the gateway one page of memory.
//!
//! Pages are ordered by creation, newest first: a card top-up that settles while the player
//! pages keeps its place (ordering by `updatedAt`, as the latest 10 do, would move it to the
//! top and skip or repeat rows). Dates are Vietnam's calendar days (UTC+7).

use std::collections::BTreeMap;

use axum::{
    Json,
    body::{Body, Bytes},
    extract::{Path, State},
    http::header,
    response::{IntoResponse, Response},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use futures::{StreamExt, TryStreamExt, stream};
use kid_contracts::{
    messages::history::{MSG_CURSOR, MSG_DATE, MSG_LIMIT, MSG_NOT_FOUND, MSG_RANGE, MSG_STATUS, MSG_TYPE},
    wallet::v1::{self as pb, GetTransactionRequest, HistoryPosition, SearchTransactionsRequest},
};
use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime, UtcOffset, macros::format_description, macros::offset};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::payment::TransactionBody;
use crate::{
    error::{ApiError, ApiResult, ValidQuery},
    session::SignedIn,
    state::AppState,
};

const DEFAULT_LIMIT: i32 = 20;
const MAX_LIMIT: i32 = 100;
/// Transactions per wallet call while exporting.
const EXPORT_BATCH: i32 = 1_000;
/// The players' calendar: Vietnam keeps UTC+7 all year.
const VIETNAM: UtcOffset = offset!(+7);
/// The types the history lists; related transactions show inside them.
const TYPES: &[&str] = &[
    "topup.bank-transfer",
    "topup.e-wallet",
    "topup.card",
    "credit.pay",
    "giftcode",
    "adjustment",
];
/// Excel reads a CSV file as UTF-8 (and so shows Vietnamese) only after this byte order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(history))
        .routes(routes!(export))
        .routes(routes!(receipt))
}

/// Which transactions, and which page of them.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct HistoryQuery {
    /// Transactions per page, 1 to 100 (20 when absent). The export ignores it.
    limit: Option<String>,
    /// The `nextCursor` of the page before; absent for the first page. The export ignores it.
    cursor: Option<String>,
    /// Only this type: `topup.bank-transfer`, `topup.e-wallet`, `topup.card`, `credit.pay`,
    /// `giftcode` or `adjustment`.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    kind: Option<String>,
    /// Only this status: `pending`, `success` or `failed`.
    status: Option<String>,
    /// Only transactions created on or after this day (YYYY-MM-DD, Vietnam time).
    from: Option<String>,
    /// Only transactions created on or before this day (YYYY-MM-DD, Vietnam time).
    to: Option<String>,
}

/// A parameter sent empty (a cleared filter of a form) counts as absent.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|value| !value.is_empty())
}

fn day(value: &str) -> Option<Date> {
    Date::parse(value, format_description!("[year]-[month]-[day]")).ok()
}

/// The start of `date` in Vietnam.
fn start_of(date: Date) -> OffsetDateTime {
    date.midnight().assume_offset(VIETNAM)
}

/// Every field's problems, collected so that a form shows them all at once.
#[derive(Default)]
struct Problems(BTreeMap<String, Vec<String>>);

impl Problems {
    fn add(&mut self, field: &str, message: &str) {
        self.0
            .entry(field.to_owned())
            .or_default()
            .push(message.to_owned());
    }

    fn into_result(self) -> ApiResult<()> {
        let Some(message) = self.0.values().flatten().next().cloned() else {
            return Ok(());
        };
        Err(ApiError::Validation {
            message,
            errors: self.0,
            product_code: None,
        })
    }
}

impl HistoryQuery {
    /// The first page of every transaction, `limit` long.
    pub(super) fn first(limit: u32) -> Self {
        Self {
            limit: Some(limit.to_string()),
            ..Self::default()
        }
    }

    /// The wallet search this query asks for; `paged` reads `limit` and `cursor` too.
    fn search(&self, user_id: String, paged: bool) -> ApiResult<SearchTransactionsRequest> {
        let mut problems = Problems::default();
        let mut search = SearchTransactionsRequest {
            user_id,
            limit: DEFAULT_LIMIT,
            ..Default::default()
        };
        if paged {
            if let Some(limit) = given(&self.limit) {
                match limit.parse::<i32>() {
                    Ok(limit) if (1..=MAX_LIMIT).contains(&limit) => search.limit = limit,
                    _ => problems.add("limit", MSG_LIMIT),
                }
            }
            if let Some(cursor) = given(&self.cursor) {
                match decode_cursor(cursor) {
                    Some(position) => search.after = Some(position),
                    None => problems.add("cursor", MSG_CURSOR),
                }
            }
        }
        if let Some(kind) = given(&self.kind) {
            if TYPES.contains(&kind) {
                kind.clone_into(&mut search.r#type);
            } else {
                problems.add("type", MSG_TYPE);
            }
        }
        if let Some(status) = given(&self.status) {
            match status {
                "pending" => search.set_status(pb::TransactionStatus::Pending),
                "success" => search.set_status(pb::TransactionStatus::Success),
                "failed" => search.set_status(pb::TransactionStatus::Failed),
                _ => problems.add("status", MSG_STATUS),
            }
        }
        let from = given(&self.from).map(|from| day(from).ok_or(()));
        let to = given(&self.to).map(|to| day(to).ok_or(()));
        match from {
            Some(Ok(from)) => search.created_from = Some(kid_platform::grpc::timestamp(start_of(from))),
            Some(Err(())) => problems.add("from", MSG_DATE),
            None => {}
        }
        match to {
            // The whole of the last day: before the start of the next.
            Some(Ok(to)) => {
                search.created_before = to
                    .next_day()
                    .map(|next| kid_platform::grpc::timestamp(start_of(next)));
            }
            Some(Err(())) => problems.add("to", MSG_DATE),
            None => {}
        }
        if let (Some(Ok(from)), Some(Ok(to))) = (from, to)
            && to < from
        {
            problems.add("to", MSG_RANGE);
        }
        problems.into_result()?;
        Ok(search)
    }
}

/// A position as the client carries it: opaque, URL-safe.
fn encode_cursor(position: &HistoryPosition) -> Option<String> {
    let at = position.created_at.as_ref()?;
    Some(URL_SAFE_NO_PAD.encode(format!("{}.{}.{}", at.seconds, at.nanos, position.id)))
}

fn decode_cursor(cursor: &str) -> Option<HistoryPosition> {
    let decoded = String::from_utf8(URL_SAFE_NO_PAD.decode(cursor).ok()?).ok()?;
    let mut parts = decoded.splitn(3, '.');
    let at = prost_types::Timestamp {
        seconds: parts.next()?.parse().ok()?,
        nanos: parts.next()?.parse().ok()?,
    };
    kid_platform::grpc::instant(&at)?;
    let id = Uuid::parse_str(parts.next()?).ok()?;
    Some(HistoryPosition {
        created_at: Some(at),
        id: id.to_string(),
    })
}

/// A page of the history.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = TransactionPage)]
pub(super) struct PageBody {
    /// Newest created first, each as the latest-10 call shows it.
    pub(super) items: Vec<TransactionBody>,
    /// Pass as `cursor` for the next page; null on the last page.
    #[schema(required = true)]
    pub(super) next_cursor: Option<String>,
}

/// Every top-up and payment of the player, a page at a time, newest first.
#[utoipa::path(
    get,
    path = "/transactions",
    security(("session" = [])),
    params(HistoryQuery),
    responses(
        (status = 200, description = "A page of the history.", body = PageBody),
        (status = 422, description = "A filter, the limit or the cursor is invalid: `errors` names it.", body = crate::error::ErrorBody),
    )
)]
async fn history(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    ValidQuery(query): ValidQuery<HistoryQuery>,
) -> ApiResult<Json<PageBody>> {
    Ok(Json(page(&state, user_id, &query).await?))
}

/// The page of `user_id`'s history that `query` asks for: the player's own, or a player's for
/// the support console.
pub(super) async fn page(state: &AppState, user_id: String, query: &HistoryQuery) -> ApiResult<PageBody> {
    let search = query.search(user_id, true)?;
    let page = state.wallet().search_transactions(search).await?.into_inner();
    Ok(PageBody {
        next_cursor: page.next.as_ref().and_then(encode_cursor),
        items: page.transactions.into_iter().map(Into::into).collect(),
    })
}

/// One of the player's transactions, for its receipt.
#[utoipa::path(
    get,
    path = "/transactions/{id}",
    security(("session" = [])),
    params(("id" = String, Path, description = "The transaction's id.")),
    responses(
        (status = 200, description = "The transaction with what it caused.", body = TransactionBody),
        (status = 404, description = "The player has no such transaction.", body = crate::error::ErrorBody),
    )
)]
async fn receipt(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    Path(id): Path<String>,
) -> ApiResult<Json<TransactionBody>> {
    let id = Uuid::parse_str(&id).map_err(|_| ApiError::NotFound(MSG_NOT_FOUND.to_owned()))?;
    let transaction = state
        .wallet()
        .get_transaction(GetTransactionRequest {
            user_id,
            id: id.to_string(),
        })
        .await?
        .into_inner()
        .transaction
        .ok_or_else(|| ApiError::NotFound(MSG_NOT_FOUND.to_owned()))?;
    Ok(Json(transaction.into()))
}

/// The history with the same filters as CSV: every matching transaction, newest first,
/// streamed as the wallet pages it.
#[utoipa::path(
    get,
    path = "/transactions/export.csv",
    security(("session" = [])),
    params(HistoryQuery),
    responses(
        (status = 200, description = "UTF-8 with a byte order mark, a header row, one row per transaction.", content_type = "text/csv", body = String),
        (status = 422, description = "A filter is invalid: `errors` names it.", body = crate::error::ErrorBody),
    )
)]
async fn export(
    State(state): State<AppState>,
    SignedIn { user_id, .. }: SignedIn,
    ValidQuery(query): ValidQuery<HistoryQuery>,
) -> ApiResult<Response> {
    let mut search = query.search(user_id, false)?;
    search.limit = EXPORT_BATCH;
    let mut wallet = state.wallet();
    // The first page before the answer's status: a failure then is an error answer, not a
    // cut-off file.
    let first = wallet.search_transactions(search.clone()).await?.into_inner();
    let mut head = UTF8_BOM.to_vec();
    head.extend(csv_rows(Some(&HEADER), &first.transactions)?);
    // The wallet is asked for the next page while this one is written out: its query overlaps
    // the CSV and the network instead of waiting for them. One page ahead at most, so memory
    // stays two pages; a client that goes away drops the receiver, which ends the task.
    let (pages, mut received) = tokio::sync::mpsc::channel::<ApiResult<pb::SearchTransactionsResponse>>(1);
    tokio::spawn(async move {
        let mut next = first.next;
        while let Some(position) = next {
            search.after = Some(position);
            let page = wallet
                .search_transactions(search.clone())
                .await
                .map(tonic::Response::into_inner)
                .map_err(ApiError::from);
            next = page.as_ref().ok().and_then(|page| page.next.clone());
            if pages.send(page).await.is_err() {
                return;
            }
        }
    });
    let rest = stream::poll_fn(move |context| received.poll_recv(context))
        .map(|page| page.and_then(|page| csv_rows(None, &page.transactions).map(Bytes::from)))
        .inspect_err(|error| tracing::warn!(%error, "the CSV export stopped part-way"))
        .map_err(std::io::Error::other);
    let body = Body::from_stream(stream::once(async { Ok(Bytes::from(head)) }).chain(rest));
    Ok(csv_download(
        &format!("kid-lich-su-giao-dich-{}.csv", today_in_vietnam()),
        body,
    ))
}

/// A CSV file to download under `filename`, never cached.
pub(super) fn csv_download(filename: &str, body: impl axum::response::IntoResponse) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        body,
    )
        .into_response()
}

/// Today in Vietnam as `YYYYMMDD`, for the names of downloaded files.
pub(super) fn today_in_vietnam() -> String {
    OffsetDateTime::now_utc()
        .to_offset(VIETNAM)
        .date()
        .format(format_description!("[year][month][day]"))
        .unwrap_or_default()
}

const HEADER: [&str; 9] = [
    "Mã giao dịch",
    "Mã loại",
    "Loại",
    "Giá trị giao dịch",
    "Đơn vị",
    "Chi tiết",
    "Trạng thái",
    "Thời gian tạo (giờ Việt Nam)",
    "Thời gian cập nhật (giờ Việt Nam)",
];

/// Rows of the export, the header first when given. Values stay plain numbers, for the
/// spreadsheet to sum; the texts are the history screen's.
fn csv_rows(header: Option<&[&str; 9]>, transactions: &[pb::Transaction]) -> ApiResult<Vec<u8>> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let failed = |error: csv::Error| ApiError::Internal(format!("writing CSV: {error}"));
    if let Some(header) = header {
        writer.write_record(header).map_err(failed)?;
    }
    for transaction in transactions {
        writer.write_record(csv_row(transaction)).map_err(failed)?;
    }
    writer
        .into_inner()
        .map_err(|error| ApiError::Internal(format!("writing CSV: {error}")))
}

fn local_time(at: Option<&prost_types::Timestamp>) -> String {
    at.and_then(kid_platform::grpc::instant)
        .and_then(|at| {
            at.to_offset(VIETNAM)
                .format(format_description!(
                    "[year]-[month]-[day] [hour]:[minute]:[second]"
                ))
                .ok()
        })
        .unwrap_or_default()
}

/// A text cell a spreadsheet will not run: one starting with a formula character (a product
/// name an operator typed, say) is prefixed with an apostrophe (OWASP, "CSV injection").
fn text_cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

fn csv_row(transaction: &pb::Transaction) -> [String; 9] {
    let payload = transaction.payload.clone().unwrap_or_default();
    let paid = transaction.r#type == "credit.pay";
    let label = match (transaction.r#type.as_str(), &payload.metadata) {
        ("credit.pay", Some(metadata)) => format!("Nạp {}", metadata.product_name),
        (kind, _) if kind.starts_with("topup.") => "Nạp KP".to_owned(),
        ("giftcode", _) => "Nhận quà giftcode".to_owned(),
        ("adjustment", _) if payload.direction == "clawback" => "Thu hồi KP".to_owned(),
        ("adjustment", _) => "Điều chỉnh cộng KP".to_owned(),
        _ => "Không rõ".to_owned(),
    };
    // No detail starts with a sign: a spreadsheet reads a cell starting with + or - as a
    // formula ("+2000 Vàng" is #NAME?). The words say which way the KP went.
    let mut details = Vec::new();
    if let Some(metadata) = payload.metadata.as_ref().filter(|_| paid) {
        details.push(format!("{} {}", metadata.coin, metadata.coin_name));
        if metadata.coin_bonus > 0 {
            details.push(format!("{} {} thưởng", metadata.coin_bonus, metadata.coin_name));
        }
    }
    if !payload.reason.is_empty() {
        details.push(format!("Lý do: {}", payload.reason));
    }
    if !payload.campaign.is_empty() {
        details.push(format!("Chương trình: {}", payload.campaign));
        details.push(format!("Nhận {} KP", transaction.real_value));
    }
    if !payload.serial.is_empty() {
        details.push(format!("Seri: {}", payload.serial));
    }
    match payload.error_code.as_str() {
        "WRONG_AMOUNT" => details.push("Sai mệnh giá thực".to_owned()),
        "NOT_FOUND" => details.push("Thẻ không tồn tại".to_owned()),
        "INVALID" => details.push("Thẻ sai".to_owned()),
        _ => {}
    }
    for related in &transaction.related_transactions {
        let value = related.real_value;
        match related.r#type.as_str() {
            "credit.recharge" => details.push(format!("Nhận {value} KP")),
            "credit.bonus" => details.push(format!("{value} KP thưởng")),
            "credit.recall" => details.push(format!("{value} KP bị thu hồi")),
            "credit.refund" => details.push(format!("{value} KP được hoàn trả")),
            _ => {}
        }
    }
    let status = match transaction.status() {
        pb::TransactionStatus::Pending => "Đang xử lý",
        pb::TransactionStatus::Success => "Thành công",
        pb::TransactionStatus::Failed => "Thất bại",
        pb::TransactionStatus::Unspecified => "Chưa rõ",
    };
    [
        transaction.id.clone(),
        text_cell(&transaction.r#type),
        text_cell(&label),
        if paid {
            format!("-{}", transaction.real_value)
        } else {
            transaction.real_value.to_string()
        },
        text_cell(&transaction.currency),
        text_cell(&details.join("; ")),
        status.to_owned(),
        local_time(transaction.created_at.as_ref()),
        local_time(transaction.updated_at.as_ref()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> HistoryQuery {
        let encoded = serde_urlencoded::to_string(pairs).unwrap();
        serde_urlencoded::from_str(&encoded).unwrap()
    }

    fn field_errors(result: ApiResult<SearchTransactionsRequest>) -> Vec<String> {
        match result {
            Err(ApiError::Validation { errors, .. }) => errors.into_keys().collect(),
            other => panic!("expected a 422, got {other:?}"),
        }
    }

    #[test]
    fn a_cursor_survives_the_round_trip_and_a_forged_one_is_refused() {
        let position = HistoryPosition {
            created_at: Some(prost_types::Timestamp {
                seconds: 1_790_000_000,
                nanos: 123_456_000,
            }),
            id: Uuid::now_v7().to_string(),
        };
        let cursor = encode_cursor(&position).unwrap();
        assert_eq!(decode_cursor(&cursor), Some(position));
        for forged in ["", "abc", "!!!", &URL_SAFE_NO_PAD.encode("1.2.not-a-uuid")] {
            assert_eq!(decode_cursor(forged), None, "{forged}");
        }
    }

    #[test]
    fn dates_are_whole_days_in_vietnam() {
        let search = query(&[("from", "2026-11-01"), ("to", "2026-11-30")])
            .search("u".into(), true)
            .unwrap();
        // 2026-11-01 00:00 +07:00 is 2026-10-31 17:00 UTC; the end is the start of December.
        assert_eq!(search.created_from.unwrap().seconds, 1_793_466_000);
        assert_eq!(search.created_before.unwrap().seconds, 1_796_058_000);
    }

    #[test]
    fn every_bad_field_is_named() {
        let errors = field_errors(
            query(&[
                ("limit", "0"),
                ("cursor", "x"),
                ("type", "credit.bonus"),
                ("status", "done"),
                ("from", "26-11-01"),
            ])
            .search("u".into(), true),
        );
        assert_eq!(errors, ["cursor", "from", "limit", "status", "type"]);
        assert_eq!(
            field_errors(query(&[("from", "2026-11-02"), ("to", "2026-11-01")]).search("u".into(), true)),
            ["to"]
        );
        assert_eq!(
            field_errors(query(&[("limit", "101")]).search("u".into(), true)),
            ["limit"]
        );
    }

    #[test]
    fn a_cell_a_spreadsheet_would_run_as_a_formula_is_defused() {
        for formula in ["=HYPERLINK(\"http://x\")", "+1", "-1+2", "@SUM(A1)"] {
            assert_eq!(text_cell(formula), format!("'{formula}"));
        }
        assert_eq!(text_cell("Nạp Kiếm Thế 2"), "Nạp Kiếm Thế 2");
        let row = csv_row(&pb::Transaction {
            id: "t".into(),
            r#type: "credit.pay".into(),
            real_value: 20_000,
            payload: Some(pb::TransactionPayload {
                metadata: Some(pb::CoinMetadata {
                    coin: 2_000,
                    coin_bonus: 100,
                    product_name: "=cmd|' /C calc'!A0".into(),
                    coin_name: "Vàng".into(),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            related_transactions: vec![pb::RelatedTransaction {
                id: "r".into(),
                r#type: "credit.refund".into(),
                real_value: 20_000,
            }],
            ..Default::default()
        });
        assert_eq!(row[2], "Nạp =cmd|' /C calc'!A0", "the label starts with Nạp");
        assert_eq!(row[3], "-20000");
        assert_eq!(row[5], "2000 Vàng; 100 Vàng thưởng; 20000 KP được hoàn trả");
    }

    #[test]
    fn empty_filters_are_absent_and_the_export_ignores_paging() {
        let search = query(&[("type", ""), ("status", ""), ("limit", "")])
            .search("u".into(), true)
            .unwrap();
        assert_eq!(
            (search.r#type.as_str(), search.status, search.limit),
            ("", 0, DEFAULT_LIMIT)
        );
        assert!(
            query(&[("limit", "0"), ("cursor", "x")])
                .search("u".into(), false)
                .is_ok()
        );
    }
}
