//! The player's own data through the real gateway, identity, wallet and recharge: the download
//! of everything Kid holds about them, and closing the account (refused without the password,
//! then at once, and erased 30 days on with the money records kept).

use std::time::Duration;

use kid_testing::eventually;
use kid_testing::portal::{
    PASSWORD, Portal, buy, client, database, execute, field_error, fund, get, get_json, mail_titled, mailbox,
    me_status, redeem_giftcode, registered, send_json, sign_in, sign_up, start, status_and_json,
};
use reqwest::{Client, Method, StatusCode, header};
use serde_json::{Value, json};

const CLOSED: &str = "Tài khoản này đã được đóng theo yêu cầu xóa của chủ tài khoản. \
     Nếu bạn muốn giữ lại tài khoản, hãy liên hệ bộ phận hỗ trợ trong vòng 30 ngày kể từ ngày đóng.";

async fn delete(http: &Client, portal: &Portal, password: &str) -> reqwest::Response {
    send_json(
        http,
        portal,
        Method::POST,
        "/me/delete",
        &json!({ "password": password }),
    )
    .await
}

#[tokio::test]
async fn a_player_downloads_everything_kid_holds_about_them() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "datasubject").await;
    fund(&portal, player, 50_000).await;
    let order = json!({ "zoneId": 1, "creditAmount": 20_000, "productCode": "fsonline", "gReCaptchaToken": "dev-captcha" });
    let (status, placed) = buy(&http, &portal, "fsonline", "export-order-1", &order).await;
    assert!(status.is_success(), "{status} {placed}");
    let reset = kid_testing::portal::ask_password_reset(&portal, "datasubject").await;
    assert!(reset.status().is_success());
    let reset_subject = "Đặt lại mật khẩu tài khoản Kid";
    mail_titled(&portal, "datasubject@example.com", reset_subject).await;

    let response = get(&http, &portal, "/api/me/export").await;
    assert_eq!(response.status(), StatusCode::OK);
    let disposition = response.headers()[header::CONTENT_DISPOSITION]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"kid-du-lieu-ca-nhan-datasubject-")
            && disposition.ends_with(".json\""),
        "{disposition}"
    );
    assert_eq!(response.headers()[header::CACHE_CONTROL], "no-store");
    let export: Value = response.json().await.expect("json");
    assert_eq!(export["schemaVersion"], 1);
    assert_eq!(export["profile"]["username"], "datasubject");
    assert_eq!(export["profile"]["email"], "datasubject@example.com");
    assert_eq!(export["account"]["id"], player.to_string());
    assert_eq!(export["account"]["twoFactorEnabled"], false);
    assert_eq!(export["signIns"][0]["method"], "password", "{export}");
    let kinds: Vec<&str> = export["transactions"]
        .as_array()
        .expect("transactions")
        .iter()
        .filter_map(|transaction| transaction["type"].as_str())
        .collect();
    assert!(kinds.contains(&"credit.pay"), "{kinds:?}");
    let orders = export["orders"].as_array().expect("orders");
    assert_eq!(orders.len(), 1, "{orders:?}");
    assert_eq!(orders[0]["productCode"], "fsonline");
    assert_eq!(orders[0]["credit"], 20_000);
    assert_eq!(orders[0]["username"], "datasubject");
    let subjects: Vec<&str> = export["mails"]
        .as_array()
        .expect("mails")
        .iter()
        .filter_map(|mail| mail["subject"].as_str())
        .collect();
    assert!(subjects.contains(&reset_subject), "{export}");
    // Subjects and times only: no mail body, link or code leaves in the file.
    assert!(export["mails"][0].get("text").is_none() && export["mails"][0].get("link").is_none());

    // Nobody else's data: another player's export names only them; anonymous callers get none.
    let (other, _) = registered(&portal, "someoneelse").await;
    let (_, theirs) = get_json(&other, &portal, "/me/export").await;
    assert_eq!(theirs["orders"], json!([]));
    assert_eq!(theirs["transactions"], json!([]));
    assert!(!theirs.to_string().contains("datasubject"));
    assert_eq!(
        get(&client(), &portal, "/api/me/export").await.status(),
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn deletion_requested_from_a_stolen_session_without_the_password_is_refused() {
    let portal = start(|_| {}).await;
    let (owner, _) = registered(&portal, "stolenfrom").await;
    // The thief holds a signed-in session, not the password.
    let thief = client();
    assert_eq!(
        sign_in(&thief, &portal, "stolenfrom", PASSWORD).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        field_error(delete(&thief, &portal, "").await, "password").await,
        "Hãy nhập mật khẩu hiện tại của bạn."
    );
    assert_eq!(
        field_error(delete(&thief, &portal, "Guess@12345").await, "password").await,
        "Mật khẩu hiện tại không chính xác."
    );
    // Guessing is throttled as change-password's: five wrong, then 429.
    for guess in 0..4 {
        let response = delete(&thief, &portal, &format!("Guess@{guess}2345")).await;
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    }
    assert_eq!(
        delete(&thief, &portal, "Guess@99999").await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(me_status(&owner, &portal).await, StatusCode::OK);
    assert_eq!(me_status(&thief, &portal).await, StatusCode::OK);
    let identity = database(&portal, "identity").await;
    let closed: Option<time::OffsetDateTime> =
        sqlx::query_scalar("select closed_at from user_account where username = 'stolenfrom'")
            .fetch_one(&identity)
            .await
            .expect("account");
    assert_eq!(closed, None);
}

#[tokio::test]
async fn a_closed_account_cannot_sign_in_and_is_erased_after_thirty_days_keeping_its_ledger() {
    let portal = start(|settings| {
        settings.identity.erase_sweep_interval = Duration::from_millis(200);
    })
    .await;
    let (http, player) = registered(&portal, "leavingkid").await;
    fund(&portal, player, 30_000).await;
    let order = json!({ "zoneId": 1, "creditAmount": 20_000, "productCode": "fsonline", "gReCaptchaToken": "dev-captcha" });
    let (status, placed) = buy(&http, &portal, "fsonline", "before-leaving", &order).await;
    assert!(status.is_success(), "{status} {placed}");
    let phone = client();
    assert_eq!(
        sign_in(&phone, &portal, "leavingkid", PASSWORD).await.status(),
        StatusCode::OK
    );

    let (status, closed) = status_and_json(delete(&http, &portal, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{closed}");
    assert_eq!(closed["closed"], true);
    let erase_after = time::OffsetDateTime::parse(
        closed["eraseAfter"].as_str().expect("eraseAfter"),
        &time::format_description::well_known::Rfc3339,
    )
    .expect("RFC 3339");
    let days = (erase_after - time::OffsetDateTime::now_utc()).whole_hours();
    assert!((29 * 24..=30 * 24).contains(&days), "{closed}");
    mail_titled(
        &portal,
        "leavingkid@example.com",
        "Tài khoản Kid của bạn đã được đóng",
    )
    .await;

    // Every session ended; sign-in refused, saying why only to the password's owner.
    assert_eq!(me_status(&http, &portal).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me_status(&phone, &portal).await, StatusCode::UNAUTHORIZED);
    let again = client();
    assert_eq!(
        field_error(sign_in(&again, &portal, "leavingkid", PASSWORD).await, "username").await,
        CLOSED
    );
    assert_eq!(me_status(&again, &portal).await, StatusCode::UNAUTHORIZED);
    let wrong = field_error(
        sign_in(&again, &portal, "leavingkid", "Wrong@12345").await,
        "username",
    )
    .await;
    assert_ne!(wrong, CLOSED);
    // No reset mail for a closed account.
    let before = mailbox(&portal, "leavingkid@example.com").await.len();
    let reset = kid_testing::portal::ask_password_reset(&portal, "leavingkid").await;
    assert!(reset.status().is_success());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(mailbox(&portal, "leavingkid@example.com").await.len(), before);

    // Thirty days on (the clock moved back for this account), the sweeper erases it.
    execute(
        &portal,
        "identity",
        "update user_account set closed_at = closed_at - interval '31 days' where username = 'leavingkid'",
    )
    .await;
    let identity = database(&portal, "identity").await;
    let mut erased = None;
    for _ in 0..50 {
        erased = sqlx::query_as::<_, (String, String, String)>(
            "select username, email, first_name from user_account where id = $1 and erased_at is not null",
        )
        .bind(player)
        .fetch_optional(&identity)
        .await
        .expect("account");
        if erased.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (username, email, first_name) = erased.expect("erased within ten seconds");
    assert!(
        username.starts_with("xoa_") && !username.contains("leavingkid"),
        "{username}"
    );
    assert_eq!(email, format!("{player}@xoa.invalid"));
    assert_eq!(first_name, "");
    let left: i64 = sqlx::query_scalar(
        "select (select count(*) from sign_in where user_id = $1)
              + (select count(*) from mail_message where to_address = 'leavingkid@example.com')",
    )
    .bind(player)
    .fetch_one(&identity)
    .await
    .expect("counts");
    assert_eq!(left, 0, "history and mail erased");
    // The ledger keeps the money records under the opaque id.
    let wallet = database(&portal, "wallet").await;
    let kept: i64 = sqlx::query_scalar("select count(*) from ledger_transaction where user_id = $1")
        .bind(player)
        .fetch_one(&wallet)
        .await
        .expect("ledger");
    assert!(kept >= 1, "{kept}");
    // Recharge forgets the username its orders kept (the game knew the character by it).
    let recharge = database(&portal, "recharge").await;
    let mut kept_name = String::new();
    for _ in 0..50 {
        kept_name = sqlx::query_scalar("select username from recharge_order where user_id = $1")
            .bind(player)
            .fetch_one(&recharge)
            .await
            .expect("order");
        if kept_name == username {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(kept_name, username, "the order keeps only the placeholder");
    // The username is free again.
    let newcomer = client();
    assert_eq!(
        sign_up(&newcomer, &portal, "leavingkid", PASSWORD).await.status(),
        StatusCode::CREATED
    );
}

/// Counts the rows `query` finds for the player (its one parameter).
async fn rows_of(pool: &sqlx::PgPool, query: &'static str, player: uuid::Uuid) -> i64 {
    sqlx::query_scalar(query)
        .bind(player)
        .fetch_one(pool)
        .await
        .expect(query)
}

/// Before, a support ticket and its image, the giftcodes redeemed, support's lock and the mail
/// sent to an address the player had before escaped both the download of their data and the
/// erasure of a closed account: a player asking what Kid holds was not told, and a player
/// leaving left them behind for good.
#[tokio::test]
async fn tickets_images_giftcodes_a_lock_and_mail_to_an_earlier_address_neither_escape_the_download_nor_outlive_erasure()
 {
    let portal = start(|settings| {
        settings.identity.erase_sweep_interval = Duration::from_millis(200);
    })
    .await;
    let (http, player) = registered(&portal, "leavesnothing").await;
    // A ticket with an image, two giftcodes (KP, and items the reference game delivers to the
    // character it names), and a move to another address, whose notice goes to the old one.
    let (status, opened) = super::support::post_form(
        &http,
        &portal,
        "/support/tickets",
        super::support::ticket_form(
            None,
            Some(super::support::image("anh.png", "image/png", super::support::PNG)),
        ),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{opened}");
    let (status, welcome) = redeem_giftcode(&http, &portal, "KID-WELCOME", None, "export-welcome").await;
    assert_eq!(status, StatusCode::OK, "{welcome}");
    // The same request again answers the grant's state, until the game has acknowledged it.
    let items = eventually("the game acknowledges the items", || async {
        let (status, body) = redeem_giftcode(&http, &portal, "KID-TANTHU", Some(1), "export-items").await;
        assert!(status.is_success(), "{status} {body}");
        Some(body).filter(|body| body["status"] != "sent")
    })
    .await;
    assert_eq!(items["status"], "delivered", "{items}");
    let move_to = json!({
        "email": "moved.on@example.com",
        "securityCode": "",
        "currentPassword": PASSWORD,
        "gReCaptchaToken": "dev-captcha",
    });
    let (status, moved) =
        status_and_json(send_json(&http, &portal, Method::POST, "/me/change-email", &move_to).await).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let notice = "Địa chỉ email tài khoản Kid đã được thay đổi";
    mail_titled(&portal, "leavesnothing@example.com", notice).await;

    let (status, export) = get_json(&http, &portal, "/me/export").await;
    assert_eq!(status, StatusCode::OK, "{export}");
    // The ticket and its conversation, the image as a link this session opens.
    let tickets = export["tickets"].as_array().expect("tickets");
    assert_eq!(tickets.len(), 1, "{export}");
    assert_eq!(tickets[0]["ticket"]["subject"], "Chuyển khoản chưa nhận được KP");
    let link = tickets[0]["messages"][0]["attachmentUrl"]
        .as_str()
        .unwrap_or_else(|| panic!("no image link in {export}"));
    let image = get(&http, &portal, link).await;
    assert_eq!(image.status(), StatusCode::OK, "{link}");
    assert_eq!(image.bytes().await.expect("image").as_ref(), super::support::PNG);
    assert_eq!(
        get(&client(), &portal, link).await.status(),
        StatusCode::UNAUTHORIZED
    );
    // Both giftcodes, by campaign (Kid keeps no code), the items with the character named.
    let redemptions = export["redemptions"].as_array().expect("redemptions");
    assert_eq!(redemptions.len(), 2, "{export}");
    let kp = redemptions
        .iter()
        .find(|r| r["kp"].is_i64())
        .expect("the KP code");
    assert_eq!(kp["status"], "granted");
    assert!(kp["transactionId"].is_string(), "{kp}");
    let given = redemptions
        .iter()
        .find(|r| r["productCode"] == "fsonline")
        .expect("the items");
    assert_eq!(given["status"], "delivered");
    assert_eq!(given["username"], "leavesnothing");
    assert!(given["characterName"].is_string(), "{given}");
    assert!(!export.to_string().contains("KID-WELCOME") && !export.to_string().contains("KID-TANTHU"));
    // The mail to the address the player had before, and none to anyone else.
    let mails = export["mails"].as_array().expect("mails");
    assert!(
        mails
            .iter()
            .any(|mail| mail["to"] == "leavesnothing@example.com" && mail["subject"] == notice),
        "{export}"
    );
    assert_eq!(export["account"]["lockedAt"], Value::Null);
    assert_eq!(export["account"]["lockedReason"], Value::Null);
    assert_eq!(super::support::attachment_files(&portal), 1);

    // The account closes; support locks it meanwhile; thirty days on it is erased.
    let (status, closed) = status_and_json(delete(&http, &portal, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{closed}");
    execute(
        &portal,
        "identity",
        "update user_account set locked_at = now(), locked_reason = 'Nghi bị lừa đảo qua điện thoại',
                closed_at = closed_at - interval '31 days'
          where username = 'leavesnothing'",
    )
    .await;
    let identity = database(&portal, "identity").await;
    eventually("the sweeper erases the account", || async {
        let erased = "select count(*) from user_account where id = $1 and erased_at is not null";
        (rows_of(&identity, erased, player).await == 1).then_some(())
    })
    .await;
    for (what, query) in [
        (
            "tickets",
            "select count(*) from support_ticket where user_id = $1",
        ),
        (
            "images",
            "select count(*) from ticket_attachment where user_id = $1",
        ),
        (
            "the mail to either address",
            "select count(*) from mail_message
              where user_id = $1 or to_address in ('leavesnothing@example.com', 'moved.on@example.com')",
        ),
        (
            "the lock",
            "select count(*) from user_account where id = $1 and (locked_at is not null or locked_reason is not null)",
        ),
    ] {
        assert_eq!(
            rows_of(&identity, query, player).await,
            0,
            "{what} outlived the erasure"
        );
    }
    let messages: i64 = sqlx::query_scalar("select count(*) from ticket_message")
        .fetch_one(&identity)
        .await
        .expect("messages");
    assert_eq!(messages, 0, "the conversation outlived the erasure");
    assert_eq!(
        super::support::attachment_files(&portal),
        0,
        "the image's file outlived the erasure"
    );
    // Recharge keeps the redemptions (what was granted, and the codes' uses) but not the
    // character the game named.
    let recharge = database(&portal, "recharge").await;
    eventually(
        "recharge forgets the character's and the player's names",
        || async {
            let named = "select count(*) from giftcode_redemption
                      where user_id = $1 and (character_name is not null or username = 'leavesnothing')";
            (rows_of(&recharge, named, player).await == 0).then_some(())
        },
    )
    .await;
    let kept = rows_of(
        &recharge,
        "select count(*) from giftcode_redemption where user_id = $1",
        player,
    )
    .await;
    assert_eq!(kept, 2);
}

/// The support centre lists a player's newest 200 tickets, and the download listed only those
/// (asking identity for each one in turn): a player with more was not given the rest. Now
/// identity's export answers every ticket with its conversation, in one call.
#[tokio::test]
async fn a_player_with_more_tickets_than_a_list_holds_downloads_every_one_of_them() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "manytickets").await;
    // 201 tickets of a minute apart, each with the player's message: years of the support
    // centre's own pace, written straight into identity's tables.
    sqlx::query(
        "with ticket as (
             insert into support_ticket (id, user_id, category, subject, created_at, updated_at)
             select gen_random_uuid(), $1, 'other', 'Phiếu ' || n, now() - n * interval '1 minute',
                    now() - n * interval '1 minute'
             from generate_series(1, 201) n
             returning id, subject, created_at)
         insert into ticket_message (id, ticket_id, body, created_at)
         select gen_random_uuid(), id, 'Nội dung của ' || subject, created_at from ticket",
    )
    .bind(player)
    .execute(&database(&portal, "identity").await)
    .await
    .expect("tickets");

    let (status, export) = get_json(&http, &portal, "/me/export").await;
    assert_eq!(status, StatusCode::OK);
    let tickets = export["tickets"].as_array().expect("tickets");
    assert_eq!(tickets.len(), 201);
    // Newest first, each with its own message.
    for (n, ticket) in tickets.iter().enumerate() {
        let subject = format!("Phiếu {}", n + 1);
        assert_eq!(ticket["ticket"]["subject"], subject.as_str());
        let messages = ticket["messages"].as_array().expect("messages");
        assert_eq!(messages.len(), 1, "{ticket}");
        assert_eq!(messages[0]["body"], format!("Nội dung của {subject}").as_str());
    }
}
