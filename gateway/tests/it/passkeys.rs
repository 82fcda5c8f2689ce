//! Passkeys through the real gateway and identity: adding one (after the password), signing in
//! with it alone, removing it, and the attacks on each step. The browser's part is played by
//! webauthn-authenticator-rs's software passkey, on the origin passkeys live on.
//!
//! The software passkey keeps no resident credentials, so this test plays the part a browser
//! and a passkey provider share: it drops the resident-key demand before handing the options
//! over, names the credential it holds at sign-in (a provider finds it itself), and returns the
//! user handle that a resident credential stores (the player's id, from the options it was
//! made with). None of these is signed by the authenticator, so none can change what the
//! server verifies.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use kid_testing::portal::{
    PASSWORD, Portal, client, execute, field_error, get_json, mail_titled, me_status, register, registered,
    send_json, start, status_and_json,
};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use webauthn_authenticator_rs::{WebauthnAuthenticator, softpasskey::SoftPasskey};
use webauthn_rs_proto::{
    AllowCredentials, CreationChallengeResponse, PublicKeyCredential, PublicKeyCredentialCreationOptions,
    PublicKeyCredentialRequestOptions, RequestChallengeResponse,
};

const REFUSED: &str = "Không thể đăng nhập bằng passkey này. Hãy thử lại hoặc đăng nhập bằng mật khẩu.";
const EXPIRED: &str = "Yêu cầu passkey đã hết hạn, hãy thử lại.";

/// A player's device holding their passkey.
struct Device {
    authenticator: WebauthnAuthenticator<SoftPasskey>,
    origin: url::Url,
    /// The credential made, and the user handle it was made for.
    credential_id: Vec<u8>,
    user_handle: Vec<u8>,
}

impl Device {
    fn new(portal: &Portal) -> Self {
        Self {
            authenticator: WebauthnAuthenticator::new(SoftPasskey::new(true)),
            origin: url::Url::parse(&portal.settings.gateway.passkey_origin()).expect("origin"),
            credential_id: Vec::new(),
            user_handle: Vec::new(),
        }
    }

    /// Answers a registration ceremony's options.
    fn create(&mut self, options: &Value) -> Value {
        let mut options: PublicKeyCredentialCreationOptions =
            serde_json::from_value(options.clone()).expect("creation options");
        if let Some(selection) = options.authenticator_selection.as_mut() {
            selection.require_resident_key = false;
        }
        self.user_handle = options.user.id.to_vec();
        let credential = self
            .authenticator
            .do_registration(
                self.origin.clone(),
                CreationChallengeResponse { public_key: options },
            )
            .expect("the passkey is made");
        self.credential_id = credential.raw_id.to_vec();
        serde_json::to_value(credential).expect("json")
    }

    /// Answers a sign-in ceremony's options with the passkey this device holds.
    fn get(&mut self, options: &Value) -> PublicKeyCredential {
        let mut options: PublicKeyCredentialRequestOptions =
            serde_json::from_value(options.clone()).expect("request options");
        options.allow_credentials = vec![AllowCredentials {
            type_: "public-key".to_owned(),
            id: self.credential_id.clone().into(),
            transports: None,
        }];
        let mut assertion = self
            .authenticator
            .do_authentication(
                self.origin.clone(),
                RequestChallengeResponse {
                    public_key: options,
                    mediation: None,
                },
            )
            .expect("the passkey signs");
        assertion.response.user_handle = Some(self.user_handle.clone().into());
        assertion
    }
}

/// Starts adding a passkey with `password`: the answer.
async fn add_options(http: &Client, portal: &Portal, password: &str) -> reqwest::Response {
    send_json(
        http,
        portal,
        Method::POST,
        "/me/passkeys/options",
        &json!({ "password": password }),
    )
    .await
}

/// Adds a passkey on `device` for the signed-in `http`: the passkey as listed.
async fn add_passkey(http: &Client, portal: &Portal, device: &mut Device, name: &str) -> Value {
    let (status, ceremony) = status_and_json(add_options(http, portal, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{ceremony}");
    let credential = device.create(&ceremony["options"]);
    let body = json!({ "ceremonyId": ceremony["ceremonyId"], "credential": credential, "name": name });
    let (status, passkey) =
        status_and_json(send_json(http, portal, Method::POST, "/me/passkeys", &body).await).await;
    assert_eq!(status, StatusCode::CREATED, "{passkey}");
    passkey
}

/// A sign-in ceremony started by `http`: its id and options.
async fn sign_in_ceremony(http: &Client, portal: &Portal) -> (Value, Value) {
    let (status, ceremony) =
        status_and_json(send_json(http, portal, Method::POST, "/auth/passkey/options", &json!({})).await)
            .await;
    assert_eq!(status, StatusCode::OK, "{ceremony}");
    (ceremony["ceremonyId"].clone(), ceremony["options"].clone())
}

async fn answer_sign_in(
    http: &Client,
    portal: &Portal,
    ceremony_id: &Value,
    assertion: &PublicKeyCredential,
) -> reqwest::Response {
    let body = json!({ "ceremonyId": ceremony_id, "credential": assertion });
    send_json(http, portal, Method::POST, "/auth/passkey", &body).await
}

/// Signs in from a fresh browser with the passkey on `device`: the browser and the answer.
async fn sign_in_with(portal: &Portal, device: &mut Device) -> (Client, StatusCode, Value) {
    let http = client();
    let (ceremony_id, options) = sign_in_ceremony(&http, portal).await;
    let assertion = device.get(&options);
    let (status, body) = status_and_json(answer_sign_in(&http, portal, &ceremony_id, &assertion).await).await;
    (http, status, body)
}

#[tokio::test]
async fn a_player_adds_a_passkey_and_signs_in_with_it_alone() {
    let portal = start(|_| {}).await;
    let (http, player) = registered(&portal, "passkeyfan").await;

    // The password first, checked.
    assert_eq!(
        field_error(add_options(&http, &portal, "").await, "password").await,
        "Hãy nhập mật khẩu hiện tại của bạn."
    );
    assert_eq!(
        field_error(add_options(&http, &portal, "Wrong@12345").await, "password").await,
        "Mật khẩu hiện tại không chính xác."
    );
    let (status, ceremony) = status_and_json(add_options(&http, &portal, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{ceremony}");
    let options = &ceremony["options"];
    assert_eq!(options["rp"]["id"], "localhost", "{options}");
    assert_eq!(options["user"]["name"], "passkeyfan");
    assert_eq!(
        options["user"]["id"],
        URL_SAFE_NO_PAD.encode(player.as_bytes()),
        "the handle is the player's id"
    );
    assert_eq!(options["authenticatorSelection"]["residentKey"], "required");
    assert_eq!(options["authenticatorSelection"]["userVerification"], "required");

    let mut device = Device::new(&portal);
    let credential = device.create(options);
    let body =
        json!({ "ceremonyId": ceremony["ceremonyId"], "credential": credential, "name": "  Điện thoại  " });
    let (status, passkey) =
        status_and_json(send_json(&http, &portal, Method::POST, "/me/passkeys", &body).await).await;
    assert_eq!(status, StatusCode::CREATED, "{passkey}");
    assert_eq!(passkey["name"], "Điện thoại");
    assert!(passkey["lastUsedAt"].is_null());
    // A ceremony answers once.
    assert_eq!(
        field_error(
            send_json(&http, &portal, Method::POST, "/me/passkeys", &body).await,
            "credential"
        )
        .await,
        EXPIRED
    );
    let mail = mail_titled(
        &portal,
        "passkeyfan@example.com",
        "Đã thêm passkey vào tài khoản Kid",
    )
    .await;
    assert!(
        mail["text"].as_str().expect("text").contains("Điện thoại"),
        "{mail}"
    );

    // Two-factor on: the passkey is both factors, no code is asked.
    execute(&portal, "identity", "update user_account set mfa_enabled = true").await;
    let (browser, status, body) = sign_in_with(&portal, &mut device).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["username"], "passkeyfan");
    assert_eq!(me_status(&browser, &portal).await, StatusCode::OK);
    let (_, history) = get_json(&browser, &portal, "/me/sign-ins").await;
    assert_eq!(history[0]["method"], "passkey", "{history}");
    assert_eq!(history[0]["succeeded"], true);
    let (_, listed) = get_json(&browser, &portal, "/me/passkeys").await;
    assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
    assert!(listed[0]["lastUsedAt"].is_string(), "{listed}");

    // The same passkey signs in again (its counter moves on).
    let (_, status, body) = sign_in_with(&portal, &mut device).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn a_passkey_assertion_for_another_user_is_refused() {
    let portal = start(|_| {}).await;
    let attacker = register(&portal, "pkattacker").await;
    let (victim, victim_handle) = registered(&portal, "pkvictim").await;
    let mut attacker_device = Device::new(&portal);
    let mut victim_device = Device::new(&portal);
    add_passkey(&attacker, &portal, &mut attacker_device, "").await;
    add_passkey(&victim, &portal, &mut victim_device, "").await;

    // The attacker's own passkey, its user handle rewritten to name the victim.
    let http = client();
    let (ceremony_id, options) = sign_in_ceremony(&http, &portal).await;
    let mut assertion = attacker_device.get(&options);
    assertion.response.user_handle = Some(victim_handle.as_bytes().to_vec().into());
    let refused = answer_sign_in(&http, &portal, &ceremony_id, &assertion).await;
    assert_eq!(field_error(refused, "credential").await, REFUSED);
    assert_eq!(me_status(&http, &portal).await, StatusCode::UNAUTHORIZED);

    // The victim's credential id and handle, signed by the attacker's key.
    let (ceremony_id, options) = sign_in_ceremony(&http, &portal).await;
    let mut assertion = attacker_device.get(&options);
    assertion.response.user_handle = Some(victim_handle.as_bytes().to_vec().into());
    assertion.raw_id = victim_device.credential_id.clone().into();
    assertion.id = URL_SAFE_NO_PAD.encode(&victim_device.credential_id);
    let refused = answer_sign_in(&http, &portal, &ceremony_id, &assertion).await;
    assert_eq!(field_error(refused, "credential").await, REFUSED);

    // A real assertion replayed: its ceremony is used up; answered to another ceremony, its
    // challenge is not that one's.
    let (ceremony_id, options) = sign_in_ceremony(&http, &portal).await;
    let assertion = victim_device.get(&options);
    let (status, body) =
        status_and_json(answer_sign_in(&http, &portal, &ceremony_id, &assertion).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["username"], "pkvictim");
    let thief = client();
    let replayed = answer_sign_in(&thief, &portal, &ceremony_id, &assertion).await;
    assert_eq!(field_error(replayed, "credential").await, EXPIRED);
    let (other_ceremony, _) = sign_in_ceremony(&thief, &portal).await;
    let replayed = answer_sign_in(&thief, &portal, &other_ceremony, &assertion).await;
    assert_eq!(field_error(replayed, "credential").await, REFUSED);
    assert_eq!(me_status(&thief, &portal).await, StatusCode::UNAUTHORIZED);

    // Garbage is refused the same way, and a made-up ceremony is expired.
    let (ceremony_id, _) = sign_in_ceremony(&thief, &portal).await;
    let body = json!({ "ceremonyId": ceremony_id, "credential": { "id": "x" } });
    let garbage = send_json(&thief, &portal, Method::POST, "/auth/passkey", &body).await;
    assert_eq!(field_error(garbage, "credential").await, REFUSED);
    let body = json!({ "ceremonyId": uuid::Uuid::now_v7(), "credential": assertion });
    let unknown = send_json(&thief, &portal, Method::POST, "/auth/passkey", &body).await;
    assert_eq!(field_error(unknown, "credential").await, EXPIRED);
}

#[tokio::test]
async fn a_stolen_session_cannot_plant_or_remove_anothers_passkey() {
    let portal = start(|_| {}).await;
    let owner = register(&portal, "pkowner").await;
    let other = register(&portal, "pkother").await;
    let mut device = Device::new(&portal);
    let passkey = add_passkey(&owner, &portal, &mut device, "Laptop").await;
    let id = passkey["id"].as_str().expect("id");

    // Without the password a session adds nothing; a ceremony is the starter's alone.
    let (status, _) = status_and_json(add_options(&other, &portal, "").await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (_, ceremony) = status_and_json(add_options(&owner, &portal, PASSWORD).await).await;
    let credential = Device::new(&portal).create(&ceremony["options"]);
    let body = json!({ "ceremonyId": ceremony["ceremonyId"], "credential": credential });
    let planted = send_json(&other, &portal, Method::POST, "/me/passkeys", &body).await;
    assert_eq!(field_error(planted, "credential").await, EXPIRED);

    // Another player's passkey is not found; the owner's own is removed, and signs in no more.
    let path = format!("/me/passkeys/{id}");
    let response = send_json(&other, &portal, Method::DELETE, &path, &json!({})).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let (_, status, _) = sign_in_with(&portal, &mut device).await;
    assert_eq!(status, StatusCode::OK);
    let response = send_json(&owner, &portal, Method::DELETE, &path, &json!({})).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    mail_titled(
        &portal,
        "pkowner@example.com",
        "Đã xóa passkey khỏi tài khoản Kid",
    )
    .await;
    let (_, listed) = get_json(&owner, &portal, "/me/passkeys").await;
    assert_eq!(listed, json!([]));
    let (_, status, body) = sign_in_with(&portal, &mut device).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["errors"]["credential"][0], REFUSED);

    // Anonymous callers have no passkeys to list, add or remove.
    let anonymous = client();
    let (status, _) = get_json(&anonymous, &portal, "/me/passkeys").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_closed_accounts_passkey_signs_nobody_in() {
    let portal = start(|_| {}).await;
    let http = register(&portal, "pkleaver").await;
    let mut device = Device::new(&portal);
    add_passkey(&http, &portal, &mut device, "").await;
    let (_, status, _) = sign_in_with(&portal, &mut device).await;
    assert_eq!(status, StatusCode::OK);
    let closed = send_json(
        &http,
        &portal,
        Method::POST,
        "/me/delete",
        &json!({ "password": PASSWORD }),
    )
    .await;
    assert_eq!(closed.status(), StatusCode::OK);
    let (browser, status, body) = sign_in_with(&portal, &mut device).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["errors"]["credential"][0], REFUSED);
    assert_eq!(me_status(&browser, &portal).await, StatusCode::UNAUTHORIZED);
}
