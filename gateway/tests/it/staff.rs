//! The support console's staff through the real gateway, identity and Redis: signing in with a
//! password and an app code, the console's own session, roles checked by the services, the
//! admin's management of staff, and the append-only audit log. Attack tests are named for the
//! attack.

use std::time::Duration;

use kid_contracts::identity::v1::{CreateStaffRequest, identity_service_client::IdentityServiceClient};
use kid_platform::auth::{self, InternalJwt, StaffActor, StaffRole};
use kid_testing::portal::{
    PASSWORD, Portal, STAFF_PASSWORD, client, client_at, database, get, get_json, link_in, mail_for, mailbox,
    register, seed_staff, send_json, staff, staff_code, staff_send, staff_sign_in_at, start, status_and_json,
};
use reqwest::{Client, Method, StatusCode, header};
use serde_json::{Value, json};

async fn staff_portal() -> Portal {
    let portal = start(|_| {}).await;
    seed_staff(&portal).await;
    portal
}

async fn me(http: &Client, portal: &Portal) -> (StatusCode, Value) {
    get_json(http, portal, "/staff/me").await
}

/// Identity's gRPC endpoint, called with a token `caller` signs, acting for `actor`.
async fn identity_as(
    portal: &Portal,
    caller: &str,
    actor: Option<StaffActor>,
) -> (IdentityServiceClient<tonic::transport::Channel>, String) {
    let address = portal
        .stack
        .services
        .iter()
        .find(|(name, _)| *name == "identity")
        .map(|(_, address)| format!("http://{address}"))
        .expect("identity runs");
    let token = InternalJwt::new(&portal.settings.jwt)
        .expect("keys")
        .mint_acting(caller, actor)
        .expect("mint");
    let client = IdentityServiceClient::connect(address).await.expect("identity");
    (client, token)
}

fn with_token<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().expect("ascii"));
    request
}

fn actor(role: StaffRole) -> StaffActor {
    StaffActor {
        id: uuid::Uuid::now_v7(),
        username: "forged".into(),
        role,
        reauthenticated_at: time::OffsetDateTime::now_utc().unix_timestamp(),
        ip: "127.0.0.1".into(),
    }
}

#[tokio::test]
async fn staff_sign_in_with_password_and_app_code_and_me_answers_the_role() {
    let portal = staff_portal().await;
    for (username, role) in [
        ("staff-admin", "admin"),
        ("staff-finance", "finance"),
        ("staff-finance2", "finance"),
        ("staff-support", "support"),
        ("staff-viewer", "viewer"),
    ] {
        let http = staff(&portal, username).await;
        let (status, body) = me(&http, &portal).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["username"], username);
        assert_eq!(body["role"], role);
        assert_eq!(body["idleTimeoutSeconds"], 900);
        assert!(
            body["reauthenticatedUntil"].is_string(),
            "a sign-in counts as re-authentication: {body}"
        );
    }

    // A wrong code, a wrong password, an unknown member: one message for all, on `username`.
    let message = "Tên đăng nhập, mật khẩu hoặc mã xác thực không đúng";
    for body in [
        json!({ "username": "staff-viewer", "password": STAFF_PASSWORD, "code": "000000" }),
        json!({ "username": "staff-viewer", "password": "Wrong@123456", "code": staff_code(1) }),
        json!({ "username": "nobody-here", "password": STAFF_PASSWORD, "code": staff_code(1) }),
    ] {
        let (status, answer) =
            status_and_json(staff_send(&client(), &portal, Method::POST, "/staff/auth/sign-in", &body).await)
                .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{answer}");
        assert_eq!(answer["errors"]["username"][0], message, "{answer}");
    }
    // Nothing typed: each field says so.
    let (status, answer) = status_and_json(
        staff_send(
            &client(),
            &portal,
            Method::POST,
            "/staff/auth/sign-in",
            &json!({}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    for field in ["username", "password", "code"] {
        assert!(answer["errors"][field][0].is_string(), "{answer}");
    }

    // Signing out ends the console session, and the audit log keeps both steps.
    // Each member's code of this step is used: the next step's signs in once more.
    let http = client();
    assert_eq!(
        staff_sign_in_at(&http, &portal, "staff-support", 1)
            .await
            .status(),
        StatusCode::OK
    );
    let signed_out = staff_send(&http, &portal, Method::POST, "/staff/auth/sign-out", &json!({})).await;
    assert_eq!(signed_out.status(), StatusCode::NO_CONTENT);
    assert_eq!(me(&http, &portal).await.0, StatusCode::UNAUTHORIZED);
    let admin = client();
    assert_eq!(
        staff_sign_in_at(&admin, &portal, "staff-admin", 1).await.status(),
        StatusCode::OK
    );
    let (status, log) = get_json(&admin, &portal, "/staff/audit?limit=200").await;
    assert_eq!(status, StatusCode::OK, "{log}");
    let actions: Vec<(&str, &str)> = log
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            (
                row["staffUsername"].as_str().unwrap_or(""),
                row["action"].as_str().unwrap_or(""),
            )
        })
        .collect();
    for expected in [
        ("staff-support", "staff.sign_out"),
        ("staff-support", "staff.sign_in"),
        ("staff-viewer", "staff.sign_in_refused"),
    ] {
        assert!(actions.contains(&expected), "{expected:?} in {actions:?}");
    }
    assert_eq!(log[0]["action"], "staff.sign_in", "newest first: {log}");
    assert_eq!(log[0]["staffUsername"], "staff-admin");
    assert_eq!(log[0]["ip"], "127.0.0.1");
}

#[tokio::test]
async fn a_replayed_app_code_signs_nobody_in() {
    let portal = staff_portal().await;
    let code = staff_code(0);
    let body = json!({ "username": "staff-finance", "password": STAFF_PASSWORD, "code": code });
    let first = staff_send(&client(), &portal, Method::POST, "/staff/auth/sign-in", &body).await;
    assert_eq!(first.status(), StatusCode::OK);
    let replayed = staff_send(&client(), &portal, Method::POST, "/staff/auth/sign-in", &body).await;
    assert_eq!(replayed.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // The next step's code is good once.
    assert_eq!(
        staff_sign_in_at(&client(), &portal, "staff-finance", 1)
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_player_session_calling_any_staff_route_is_refused() {
    let portal = staff_portal().await;
    let player = register(&portal, "notstaff").await;
    let (_, document) = get_json(&client(), &portal, "/openapi.json").await;
    let paths = document["paths"].as_object().expect("paths");
    let mut tried = 0;
    for (path, item) in paths.iter().filter(|(path, _)| path.starts_with("/staff/")) {
        // Calls made with no session at all (signing in, enrolling through a mailed link) are
        // anyone's; a player's session adds nothing to them.
        if path == "/staff/auth/csrf-cookie"
            || kid_gateway::csrf::ANONYMOUS_STAFF_CALLS.contains(&path.as_str())
        {
            continue;
        }
        let concrete = path.replace("{id}", &uuid::Uuid::now_v7().to_string());
        for method in ["get", "post", "patch", "delete"] {
            if item.get(method).is_none() {
                continue;
            }
            let method = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
            let response = if method == Method::GET {
                get(&player, &portal, &format!("/api{concrete}")).await
            } else {
                // With the player's own XSRF token, as their browser would send it.
                send_json(&player, &portal, method.clone(), &concrete, &json!({})).await
            };
            assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{method} {concrete}");
            tried += 1;
        }
    }
    assert!(tried >= 6, "only {tried} staff operations tried");
    // The player's session id put in the console's cookie names no staff session.
    let session = player_session_id(&portal, "notstaff").await;
    let forged = Client::new()
        .get(format!("{}/api/staff/me", portal.base))
        .header(header::COOKIE, format!("kid_staff_session={session}"))
        .send()
        .await
        .expect("me");
    assert_eq!(forged.status(), StatusCode::UNAUTHORIZED);
    // And the player's own API does not take a staff session.
    let console = staff(&portal, "staff-admin").await;
    assert_eq!(
        get(&console, &portal, "/api/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
}

/// The id of `username`'s one session, read from Redis as a thief of the cookie would have it.
async fn player_session_id(portal: &Portal, username: &str) -> String {
    let http = client();
    let body = json!({ "username": username, "password": PASSWORD, "remember": false });
    let response = send_json(&http, portal, Method::POST, "/auth/login", &body).await;
    assert_eq!(response.status(), StatusCode::OK);
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|cookie| cookie.strip_prefix("kid_session="))
        .and_then(|rest| rest.split(';').next())
        .expect("session cookie")
        .to_owned()
}

#[tokio::test]
async fn a_viewer_managing_staff_is_refused_by_identity_itself() {
    let portal = staff_portal().await;
    let viewer = staff(&portal, "staff-viewer").await;
    let (status, body) = get_json(&viewer, &portal, "/staff/staff").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(
        body["message"],
        "Vai trò của bạn không được phép thực hiện thao tác này"
    );
    let created = staff_send(
        &viewer,
        &portal,
        Method::POST,
        "/staff/staff",
        &json!({ "username": "sneaky", "role": "admin", "email": "sneaky@staff.kid.test" }),
    )
    .await;
    assert_eq!(created.status(), StatusCode::FORBIDDEN);

    // Straight to identity's gRPC method, past the gateway: a viewer's, a support's and a
    // finance member's claim are refused; so is a call acting for nobody, and an admin's claim
    // signed with another caller's key (only the gateway acts for staff).
    let create = || CreateStaffRequest {
        username: "sneaky".into(),
        role: "admin".into(),
        email: "sneaky@staff.kid.test".into(),
    };
    for role in [StaffRole::Viewer, StaffRole::Support, StaffRole::Finance] {
        let (mut identity, token) = identity_as(&portal, auth::GATEWAY, Some(actor(role))).await;
        let refused = identity
            .create_staff(with_token(create(), &token))
            .await
            .expect_err("refused");
        assert_eq!(
            refused.code(),
            tonic::Code::PermissionDenied,
            "{role:?}: {refused:?}"
        );
    }
    let (mut identity, token) = identity_as(&portal, auth::GATEWAY, None).await;
    let refused = identity
        .create_staff(with_token(create(), &token))
        .await
        .expect_err("refused");
    assert_eq!(refused.code(), tonic::Code::PermissionDenied);
    let (mut identity, token) = identity_as(&portal, auth::OPERATOR, Some(actor(StaffRole::Admin))).await;
    let refused = identity
        .create_staff(with_token(create(), &token))
        .await
        .expect_err("refused");
    assert_eq!(refused.code(), tonic::Code::Unauthenticated);
    let staff_rows: i64 = sqlx::query_scalar("select count(*) from staff_account where username = 'sneaky'")
        .fetch_one(&database(&portal, "identity").await)
        .await
        .expect("count");
    assert_eq!(staff_rows, 0);
}

/// The subject of the mail that carries an enrolment link.
const ENROLMENT_MAIL: &str = "Đăng ký tài khoản nhân viên Kid";

/// The token of the newest enrolment link mailed to `email` once it has `count` messages (it
/// is in the link's fragment, which no browser sends to a server).
async fn enrolment_token(portal: &Portal, email: &str, count: usize) -> String {
    let inbox = mail_for(portal, email, count).await;
    let mail = inbox
        .iter()
        .find(|mail| mail["subject"] == ENROLMENT_MAIL)
        .unwrap_or_else(|| panic!("an enrolment mail to {email}: {inbox:?}"));
    let link = link_in(mail).expect("a link");
    let (page, token) = link.split_once('#').expect("the token in the fragment");
    assert!(page.ends_with("/staff/enrol"), "{link}");
    assert!(mail["text"].as_str().expect("text").contains(link), "{mail}");
    token.to_owned()
}

/// What the link of `token` offers, from a browser with no session.
async fn enrolment_offer(portal: &Portal, token: &str) -> (StatusCode, Value) {
    let anonymous = client();
    status_and_json(
        staff_send(
            &anonymous,
            portal,
            Method::POST,
            "/staff/enrolment/check",
            &json!({ "token": token }),
        )
        .await,
    )
    .await
}

/// The authenticator app of an offer: its secret read from the `otpauth://` URI.
fn app_of(offer: &Value) -> totp_rs::Totp {
    let app =
        totp_rs::Totp::from_url(offer["otpauthUrl"].as_str().expect("otpauthUrl")).expect("an otpauth URI");
    assert_eq!(
        app.secret().to_base32(),
        offer["totpSecret"].as_str().expect("totpSecret")
    );
    app
}

/// The app's code `steps` 30-second steps from now.
fn code_at(app: &totp_rs::Totp, steps: i64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    app.generate(now.saturating_add_signed(steps * 30)).to_string()
}

/// Enrols through `token` from a browser with no session: the answer whatever it is.
async fn enrol(portal: &Portal, token: &str, password: &str, code: &str) -> (StatusCode, Value) {
    let anonymous = client();
    let body = json!({ "token": token, "password": password, "passwordConfirm": password, "code": code });
    let response = staff_send(&anonymous, portal, Method::POST, "/staff/enrolment", &body).await;
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A new member made by `admin`, enrolled with `password` through the mailed link: their app.
async fn enrolled_member(
    portal: &Portal,
    admin: &Client,
    username: &str,
    role: &str,
    password: &str,
) -> (String, totp_rs::Totp) {
    let email = format!("{username}@staff.kid.test");
    let response = staff_send(
        admin,
        portal,
        Method::POST,
        "/staff/staff",
        &json!({ "username": username, "role": role, "email": email }),
    )
    .await;
    let (status, created) = status_and_json(response).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let token = enrolment_token(portal, &email, 1).await;
    let (status, offer) = enrolment_offer(portal, &token).await;
    assert_eq!(status, StatusCode::OK, "{offer}");
    let app = app_of(&offer);
    // The code of the step before: the member's first sign-in takes the current one.
    let (status, body) = enrol(portal, &token, password, &code_at(&app, -1)).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    (created["staff"]["id"].as_str().expect("id").to_owned(), app)
}

/// Signs `username` in with `password` and their app's code `steps` from now.
async fn member_sign_in(
    http: &Client,
    portal: &Portal,
    username: &str,
    password: &str,
    code: String,
) -> StatusCode {
    let body = json!({ "username": username, "password": password, "code": code });
    staff_send(http, portal, Method::POST, "/staff/auth/sign-in", &body)
        .await
        .status()
}

#[tokio::test]
async fn an_admin_creates_a_member_who_enrols_signs_in_and_is_disabled_at_once() {
    let portal = staff_portal().await;
    let admin = staff(&portal, "staff-admin").await;
    const PASSWORD: &str = "Quay#Thu9Tien";
    let (id, app) = enrolled_member(&portal, &admin, "thu-ngan", "support", PASSWORD).await;
    let member = client();
    let signed_in = member_sign_in(&member, &portal, "thu-ngan", PASSWORD, code_at(&app, 0)).await;
    assert_eq!(signed_in, StatusCode::OK);
    let (_, me_body) = me(&member, &portal).await;
    assert_eq!(me_body["role"], "support");
    assert_eq!(me_body["email"], "thu-ngan@staff.kid.test");
    assert_eq!(me_body["enrolmentPending"], false);

    // The same username again is refused; so are an unknown role, another member's address
    // and no address.
    for (username, role, email, field) in [
        ("thu-ngan", "viewer", "khac@staff.kid.test", "username"),
        ("ke-toan", "boss", "ke-toan@staff.kid.test", "role"),
        ("ke-toan", "viewer", "THU-NGAN@staff.kid.test", "email"),
        ("ke-toan", "viewer", "staff-admin@staff.kid.test", "email"),
        ("ke-toan", "viewer", "", "email"),
    ] {
        let response = staff_send(
            &admin,
            &portal,
            Method::POST,
            "/staff/staff",
            &json!({ "username": username, "role": role, "email": email }),
        )
        .await;
        let (status, body) = status_and_json(response).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(body["errors"][field][0].is_string(), "{field}: {body}");
    }

    // Promoted, the member is signed out and signs in again under the new role (with the next
    // step's code: each step signs in once); disabled, their session is over.
    let path = format!("/staff/staff/{id}");
    let promoted = staff_send(
        &admin,
        &portal,
        Method::PATCH,
        &path,
        &json!({ "role": "finance" }),
    )
    .await;
    assert_eq!(promoted.status(), StatusCode::OK);
    assert_eq!(
        me(&member, &portal).await.0,
        StatusCode::UNAUTHORIZED,
        "a role change ends the member's session"
    );
    let signed_in = member_sign_in(&member, &portal, "thu-ngan", PASSWORD, code_at(&app, 1)).await;
    assert_eq!(signed_in, StatusCode::OK);
    assert_eq!(me(&member, &portal).await.1["role"], "finance");
    let disabled = staff_send(
        &admin,
        &portal,
        Method::PATCH,
        &path,
        &json!({ "role": "finance", "disabled": true }),
    )
    .await;
    assert_eq!(disabled.status(), StatusCode::OK);
    assert_eq!(me(&member, &portal).await.0, StatusCode::UNAUTHORIZED);

    // An admin cannot demote themselves.
    let (_, admin_me) = me(&admin, &portal).await;
    let own = format!("/staff/staff/{}", admin_me["id"].as_str().expect("id"));
    let demoted = staff_send(&admin, &portal, Method::PATCH, &own, &json!({ "role": "viewer" })).await;
    assert_eq!(demoted.status(), StatusCode::UNPROCESSABLE_ENTITY);

    // Each change is in the log with its before and after, and in the CSV download.
    let (_, log) = get_json(&admin, &portal, &format!("/staff/audit?subject=staff:{id}")).await;
    let update = log
        .as_array()
        .expect("rows")
        .iter()
        .find(|row| row["action"] == "staff.update" && row["after"]["disabled"] == true)
        .unwrap_or_else(|| panic!("the disabling is logged: {log}"));
    assert_eq!(update["before"], json!({ "role": "finance", "disabled": false }));
    assert_eq!(update["staffUsername"], "staff-admin");
    let csv = get(&admin, &portal, "/api/staff/audit.csv").await;
    assert_eq!(csv.status(), StatusCode::OK);
    assert!(
        csv.headers()[header::CONTENT_DISPOSITION]
            .to_str()
            .expect("ascii")
            .contains("kid-nhat-ky-nhan-vien-")
    );
    let text = csv.text().await.expect("csv");
    assert!(
        text.starts_with("id,occurred_at,staff_id,staff_username"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|line| line.contains("staff.create") && line.contains(id.as_str())),
        "{text}"
    );
}

/// Issue 44: an admin was shown a new member's password and app secret, so one admin could make
/// a finance member and be both maker and checker. Now nothing an admin can read holds a
/// credential, and the member's link sets them once.
#[tokio::test]
async fn an_admin_never_sees_a_new_members_credentials_and_an_enrolment_link_works_once() {
    let portal = staff_portal().await;
    let admin = staff(&portal, "staff-admin").await;
    let email = "tai-chinh-moi@staff.kid.test";
    let response = staff_send(
        &admin,
        &portal,
        Method::POST,
        "/staff/staff",
        &json!({ "username": "tai-chinh-moi", "role": "finance", "email": email }),
    )
    .await;
    let (status, created) = status_and_json(response).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    // The answer is the member and nothing else; so is the list, and the audit log's entry.
    assert_eq!(
        created.as_object().expect("object").keys().collect::<Vec<_>>(),
        ["staff"]
    );
    assert_eq!(created["staff"]["enrolmentPending"], true);
    assert_eq!(created["staff"]["email"], email);
    let id = created["staff"]["id"].as_str().expect("id");
    let (_, members) = get_json(&admin, &portal, "/staff/staff").await;
    let listed = members
        .as_array()
        .expect("members")
        .iter()
        .find(|member| member["id"] == id)
        .expect("listed");
    assert_eq!(listed, &created["staff"]);
    let (_, log) = get_json(&admin, &portal, &format!("/staff/audit?subject=staff:{id}")).await;
    assert_eq!(
        log[0]["after"],
        json!({ "username": "tai-chinh-moi", "role": "finance", "disabled": false, "email": email })
    );

    // Only the member's mailbox has the link; the admin's has nothing of it.
    let token = enrolment_token(&portal, email, 1).await;
    assert!(
        mailbox(&portal, "staff-admin@staff.kid.test")
            .await
            .iter()
            .all(|mail| !mail.to_string().contains(&token))
    );
    let (status, offer) = enrolment_offer(&portal, &token).await;
    assert_eq!(status, StatusCode::OK, "{offer}");
    assert_eq!(offer["username"], "tai-chinh-moi");
    let app = app_of(&offer);

    // A wrong code, a weak password or one holding the username is refused, and the link still
    // works.
    let (status, body) = enrol(&portal, &token, "Kho@Bac2026!x", "000000").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["errors"]["code"][0].is_string(), "{body}");
    let (status, body) = enrol(&portal, &token, "khobac2026", &code_at(&app, 0)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["errors"]["password"][0].is_string(), "{body}");
    let (status, body) = enrol(&portal, &token, "Tai-Chinh-Moi#1", &code_at(&app, 0)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["errors"]["password"][0].is_string(), "{body}");
    assert_eq!(enrolment_offer(&portal, &token).await.0, StatusCode::OK);

    // Used once, the link works no more, not even to read the secret again.
    let (status, body) = enrol(&portal, &token, "Kho@Bac2026!x", &code_at(&app, -1)).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let (status, body) = enrolment_offer(&portal, &token).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(
        body["message"],
        "Đường dẫn đăng ký không hợp lệ hoặc đã hết hạn. Hãy nhờ quản trị viên gửi lại."
    );
    let (status, body) = enrol(&portal, &token, "Other@Pass2026!", &code_at(&app, 0)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");

    // The member's own password and app sign them in; the admin's answer never held them.
    let member = client();
    let signed_in = member_sign_in(
        &member,
        &portal,
        "tai-chinh-moi",
        "Kho@Bac2026!x",
        code_at(&app, 0),
    )
    .await;
    assert_eq!(signed_in, StatusCode::OK);
    assert_eq!(me(&member, &portal).await.1["enrolmentPending"], false);
    assert!(!created.to_string().contains("Kho@Bac2026!x"));
    assert!(
        !created
            .to_string()
            .contains(offer["totpSecret"].as_str().expect("secret"))
    );
}

/// An admin who could give any address could make a finance member whose link comes to a
/// mailbox of their own, enrol it, and be maker and checker both. A staff address must be in
/// the organisation's mail domain (`identity.staff_email_domain`), whose mailboxes no console
/// admin reads for another member: outside it, nothing is made and no link is mailed.
/// (`services/identity/tests/it/mail.rs` shows production's identity will not start without one.)
#[tokio::test]
async fn an_admin_cannot_mail_a_new_finance_members_link_to_a_mailbox_outside_the_organisation() {
    // As production has it (which refuses to start without a domain); development takes any.
    let portal =
        start(|settings| "staff.kid.test".clone_into(&mut settings.identity.staff_email_domain)).await;
    seed_staff(&portal).await;
    let admin = staff(&portal, "staff-admin").await;
    for email in [
        "tai-chinh-ao@gmail.com",
        "tai-chinh-ao@staff.kid.test.evil.example",
        "tai-chinh-ao@evil-staff.kid.test",
    ] {
        let response = staff_send(
            &admin,
            &portal,
            Method::POST,
            "/staff/staff",
            &json!({ "username": "tai-chinh-ao", "role": "finance", "email": email }),
        )
        .await;
        let (status, body) = status_and_json(response).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{email}: {body}");
        let message = body["errors"]["email"][0].as_str().expect("a message");
        assert!(message.ends_with("@staff.kid.test"), "{message}");
        assert!(mailbox(&portal, email).await.is_empty(), "{email}");
    }
    let (_, members) = get_json(&admin, &portal, "/staff/staff").await;
    assert!(
        members
            .as_array()
            .expect("members")
            .iter()
            .all(|member| member["username"] != "tai-chinh-ao"),
        "{members}"
    );
    // In the domain (its case aside), the member is made and the link goes there.
    let response = staff_send(
        &admin,
        &portal,
        Method::POST,
        "/staff/staff",
        &json!({ "username": "tai-chinh-ao", "role": "finance", "email": "tai-chinh-ao@Staff.Kid.Test" }),
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    enrolment_token(&portal, "tai-chinh-ao@Staff.Kid.Test", 1).await;
}

/// A guesser of enrolment links (or of a link's app code) from one address is stopped after ten
/// failures in the window: 429, even for a link that works.
#[tokio::test]
async fn guessing_enrolment_links_from_one_address_is_stopped_after_ten_failures() {
    let portal = staff_portal().await;
    let admin = staff(&portal, "staff-admin").await;
    let email = "doan-ma@staff.kid.test";
    let created = staff_send(
        &admin,
        &portal,
        Method::POST,
        "/staff/staff",
        &json!({ "username": "doan-ma", "role": "viewer", "email": email }),
    )
    .await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let token = enrolment_token(&portal, email, 1).await;
    for guess in 0..10 {
        let (status, body) = enrolment_offer(&portal, &format!("guess-{guess}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "guess {guess}: {body}");
    }
    let (status, body) = enrolment_offer(&portal, "guess-10").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let (status, body) = enrolment_offer(&portal, &token).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let (status, _) = enrol(&portal, &token, "Doan#Ma2026xyz", "000000").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

/// Issue 44: resetting a member's credentials ends their sessions, their old password and app,
/// and any earlier link; it needs an admin who re-authenticated, and never one's own.
#[tokio::test]
async fn a_reset_ends_the_members_sessions_old_credentials_and_links() {
    let portal = staff_portal().await;
    let admin = staff(&portal, "staff-admin").await;
    const OLD: &str = "Kiem#Soat2026";
    let (id, app) = enrolled_member(&portal, &admin, "kiem-soat", "support", OLD).await;
    let member = client();
    assert_eq!(
        member_sign_in(&member, &portal, "kiem-soat", OLD, code_at(&app, 0)).await,
        StatusCode::OK
    );
    let path = format!("/staff/staff/{id}/reset-credentials");

    // Past identity's re-authentication window, or as a support member, the reset is refused.
    let (mut identity, token) = identity_as(
        &portal,
        auth::GATEWAY,
        Some(StaffActor {
            reauthenticated_at: 0,
            ..actor(StaffRole::Admin)
        }),
    )
    .await;
    let stale = kid_contracts::identity::v1::ResetStaffCredentialsRequest { staff_id: id.clone() };
    let refused = identity
        .reset_staff_credentials(with_token(stale, &token))
        .await
        .expect_err("refused");
    assert_eq!(refused.code(), tonic::Code::PermissionDenied, "{refused:?}");
    let support = staff(&portal, "staff-support").await;
    let refused = staff_send(&support, &portal, Method::POST, &path, &json!({})).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert_eq!(me(&member, &portal).await.0, StatusCode::OK);

    // An admin's own credentials are another admin's to reset.
    let (_, admin_me) = me(&admin, &portal).await;
    let own = format!(
        "/staff/staff/{}/reset-credentials",
        admin_me["id"].as_str().expect("id")
    );
    let (status, body) =
        status_and_json(staff_send(&admin, &portal, Method::POST, &own, &json!({})).await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    let (status, reset) =
        status_and_json(staff_send(&admin, &portal, Method::POST, &path, &json!({})).await).await;
    assert_eq!(status, StatusCode::OK, "{reset}");
    assert_eq!(reset["enrolmentPending"], true);
    assert_eq!(me(&member, &portal).await.0, StatusCode::UNAUTHORIZED);
    let again = client();
    assert_eq!(
        member_sign_in(&again, &portal, "kiem-soat", OLD, code_at(&app, 1)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "the old password and app sign in no more"
    );

    // A second reset before enrolling: only the newest link works.
    let first = enrolment_token(&portal, "kiem-soat@staff.kid.test", 2).await;
    let (status, body) =
        status_and_json(staff_send(&admin, &portal, Method::POST, &path, &json!({})).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let second = enrolment_token(&portal, "kiem-soat@staff.kid.test", 3).await;
    assert_ne!(first, second);
    assert_eq!(enrolment_offer(&portal, &first).await.0, StatusCode::NOT_FOUND);
    let (status, offer) = enrolment_offer(&portal, &second).await;
    assert_eq!(status, StatusCode::OK, "{offer}");
    let new_app = app_of(&offer);
    assert_ne!(new_app.secret().to_base32(), app.secret().to_base32());
    let (status, body) = enrol(&portal, &second, "Moi#Kiem2027", &code_at(&new_app, -1)).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(
        member_sign_in(&again, &portal, "kiem-soat", "Moi#Kiem2027", code_at(&new_app, 0)).await,
        StatusCode::OK
    );
    let (_, log) = get_json(&admin, &portal, &format!("/staff/audit?subject=staff:{id}")).await;
    let actions: Vec<&str> = log
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|row| row["action"].as_str())
        .collect();
    assert_eq!(
        actions
            .iter()
            .filter(|action| **action == "staff.reset_credentials")
            .count(),
        2,
        "{actions:?}"
    );
    assert_eq!(
        actions.iter().filter(|action| **action == "staff.enrol").count(),
        2,
        "{actions:?}"
    );
}

#[tokio::test]
async fn the_audit_log_cannot_be_rewritten_by_the_services_database_role() {
    let portal = staff_portal().await;
    staff(&portal, "staff-viewer").await;
    for service in ["identity", "wallet", "payment", "recharge"] {
        let pool = database(&portal, service).await;
        sqlx::query(
            "insert into staff_action (id, staff_id, staff_username, staff_role, ip, action, subject)
             values (gen_random_uuid(), gen_random_uuid(), 'x', 'viewer', '127.0.0.1', 'test.row', 'x')",
        )
        .execute(&pool)
        .await
        .expect("rows are added");
        for statement in [
            "update staff_action set action = 'nothing'",
            "delete from staff_action",
            "truncate staff_action",
        ] {
            let refused = sqlx::query(statement).execute(&pool).await.expect_err(statement);
            assert!(
                refused.to_string().contains("append-only"),
                "{service}: {statement}: {refused}"
            );
        }
    }
}

#[tokio::test]
async fn an_idle_console_session_ends() {
    let portal = start(|settings| settings.gateway.staff_session_idle_seconds = 2).await;
    seed_staff(&portal).await;
    let http = staff(&portal, "staff-viewer").await;
    assert_eq!(me(&http, &portal).await.0, StatusCode::OK);
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(me(&http, &portal).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn reauthentication_takes_the_password_or_an_app_code() {
    let portal = staff_portal().await;
    let http = staff(&portal, "staff-finance").await;
    let reauth = |secret: String| {
        let http = http.clone();
        let portal = &portal;
        async move {
            status_and_json(
                staff_send(
                    &http,
                    portal,
                    Method::POST,
                    "/staff/auth/reauthenticate",
                    &json!({ "secret": secret }),
                )
                .await,
            )
            .await
        }
    };
    let (status, body) = reauth("Wrong@123456".into()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["errors"]["secret"][0],
        "Mật khẩu hoặc mã xác thực không đúng"
    );
    let (status, body) = reauth(STAFF_PASSWORD.into()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["reauthenticatedUntil"].is_string());
    let (status, body) = reauth(staff_code(1)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn ten_wrong_sign_ins_from_one_address_do_not_keep_the_member_out_from_another() {
    let portal =
        start(|settings| settings.gateway.client_ip_source = "RightmostXForwardedFor".to_owned()).await;
    seed_staff(&portal).await;
    // A player who read a member's username guesses from their own address.
    let guesser = client_at("203.0.113.7");
    let wrong = json!({ "username": "staff-finance", "password": "Guess@123456", "code": "000000" });
    let mut statuses = Vec::new();
    for _ in 0..10 {
        let response = staff_send(&guesser, &portal, Method::POST, "/staff/auth/sign-in", &wrong).await;
        statuses.push(response.status());
    }
    assert_eq!(statuses[..5], [StatusCode::UNPROCESSABLE_ENTITY; 5]);
    assert_eq!(
        statuses[5..],
        [StatusCode::TOO_MANY_REQUESTS; 5],
        "the guesser is stopped"
    );
    // The member, from their own desk, signs in with the right password and code.
    let member = client_at("198.51.100.20");
    assert_eq!(
        staff_sign_in_at(&member, &portal, "staff-finance", 0)
            .await
            .status(),
        StatusCode::OK
    );
    assert_eq!(me(&member, &portal).await.0, StatusCode::OK);
    // The guesser's address still waits, even with the right password and code.
    assert_eq!(
        staff_sign_in_at(&guesser, &portal, "staff-finance", 1)
            .await
            .status(),
        StatusCode::TOO_MANY_REQUESTS
    );
}
