//! The REST API's OpenAPI 3.1 document, built from the handlers' own `#[utoipa::path]`
//! annotations (collected by the `/api` router as it routes them) and served at
//! `GET /api/openapi.json`. The SPA's types are generated from the committed copy,
//! `docs/api/openapi.json`; a test fails when that copy is not what the code describes.
//!
//! What every route shares is added here once rather than on each handler: the error answers
//! (all in the one `ErrorBody` shape), the CSRF header of state-changing calls, and the
//! session cookie of signed-in ones.

use utoipa::{
    OpenApi,
    openapi::{
        self, Content, Ref, RefOr, Required, ResponseBuilder, Type,
        header::HeaderBuilder,
        path::{Operation, ParameterBuilder, ParameterIn},
        schema::{ObjectBuilder, Schema},
        security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme},
    },
};

use kid_contracts::limits::{
    ADJUSTMENT_REASON_MAX, EMAIL_MAX, GIFTCODE_MAX, NAME_MAX, PASSKEY_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN,
    SECURITY_CODE_LENGTH, STAFF_PASSWORD_MIN, TICKET_BODY_MAX, TICKET_SUBJECT_MAX, USERNAME_MAX,
    USERNAME_MIN,
};

use crate::{
    error::ErrorBody,
    session::{SESSION_COOKIE, STAFF_SESSION_COOKIE, STAFF_XSRF_COOKIE, XSRF_COOKIE},
};

/// The document's base: the routes' paths are relative to the `/api` server.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Kid portal REST API",
        description = "The player portal's REST API, served by the gateway under /api. Errors \
                       answer {message, errors: {field: [..]}} with a Vietnamese message; \
                       state-changing calls echo the XSRF-TOKEN cookie in X-XSRF-TOKEN \
                       (GET /auth/csrf-cookie issues it)."
    ),
    servers((url = "/api")),
    components(schemas(ErrorBody))
)]
struct Base;

/// Security scheme names (the handlers name "session" in their `security(...)`).
const SESSION: &str = "session";
const XSRF: &str = "xsrf";
/// The support console's (handlers name "staff-session").
const STAFF_SESSION: &str = "staff-session";
const STAFF_XSRF: &str = "staff-xsrf";

/// The error answers, by status, each with when it is given.
const ERRORS: &[(&str, &str, &str)] = &[
    (
        "400",
        "BadRequest",
        "Malformed JSON, a wrong content type or a malformed header.",
    ),
    (
        "401",
        "Unauthenticated",
        "Not signed in, or the session has ended.",
    ),
    (
        "403",
        "Forbidden",
        "A state-changing call from another site; in the console, a role that may not do this, \
         or `code: reauth_required` (an action that moves money needs the password or app code \
         given within the last five minutes).",
    ),
    ("404", "NotFound", "What the call names does not exist."),
    (
        "409",
        "Conflict",
        "The call conflicts with the account's state (a short balance, say).",
    ),
    (
        "419",
        "CsrfMismatch",
        "The X-XSRF-TOKEN header is missing or not the cookie's token.",
    ),
    (
        "422",
        "Validation",
        "Invalid fields: `errors` holds each field's Vietnamese messages.",
    ),
    (
        "429",
        "TooManyRequests",
        "Too many attempts: retry after Retry-After seconds, or solve the captcha.",
    ),
    (
        "503",
        "Unavailable",
        "A service is down or at capacity: retry after Retry-After seconds, if given.",
    ),
];

/// The length limits the services check on what people type (`kid_contracts::limits`), as
/// `(schema, property, minLength, maxLength)`: the SPA's forms read them from the document.
const LENGTHS: &[(&str, &str, Option<usize>, Option<usize>)] = &[
    ("RegisterBody", "email", None, Some(EMAIL_MAX)),
    ("RegisterBody", "username", Some(USERNAME_MIN), Some(USERNAME_MAX)),
    ("RegisterBody", "password", Some(PASSWORD_MIN), Some(PASSWORD_MAX)),
    ("LoginBody", "username", Some(USERNAME_MIN), None),
    ("SendResetBody", "username", Some(USERNAME_MIN), None),
    ("RecoverUsernameBody", "email", None, Some(EMAIL_MAX)),
    ("ResetBody", "password", Some(PASSWORD_MIN), Some(PASSWORD_MAX)),
    (
        "ChangePasswordBody",
        "password",
        Some(PASSWORD_MIN),
        Some(PASSWORD_MAX),
    ),
    ("ChangeEmailBody", "email", None, Some(EMAIL_MAX)),
    (
        "ChangeEmailBody",
        "securityCode",
        Some(SECURITY_CODE_LENGTH),
        Some(SECURITY_CODE_LENGTH),
    ),
    ("ProfileBody", "lastName", None, Some(NAME_MAX)),
    ("ProfileBody", "middleName", None, Some(NAME_MAX)),
    ("ProfileBody", "firstName", None, Some(NAME_MAX)),
    ("NewPasskeyBody", "name", None, Some(PASSKEY_NAME_MAX)),
    ("RedeemBody", "code", None, Some(GIFTCODE_MAX)),
    ("TicketForm", "subject", None, Some(TICKET_SUBJECT_MAX)),
    ("TicketForm", "body", None, Some(TICKET_BODY_MAX)),
    ("AnswerForm", "body", None, Some(TICKET_BODY_MAX)),
    ("ReplyBody", "body", None, Some(TICKET_BODY_MAX)),
    ("AskBody", "reason", None, Some(ADJUSTMENT_REASON_MAX)),
    ("StaffEnrolBody", "password", Some(STAFF_PASSWORD_MIN), None),
];

/// Writes `LENGTHS` into the schemas they name; a schema or property that is not there is a
/// programming error (a renamed body), caught by the document's tests.
fn length_limits(document: &mut openapi::OpenApi) {
    let schemas = &mut document
        .components
        .as_mut()
        .expect("the document has components")
        .schemas;
    for (schema, property, min, max) in LENGTHS {
        let Some(RefOr::T(Schema::Object(body))) = schemas.get_mut(*schema) else {
            panic!("no object schema {schema} for its length limits");
        };
        let Some(RefOr::T(Schema::Object(field))) = body.properties.get_mut(*property) else {
            panic!("no string property {schema}.{property} for its length limits");
        };
        field.min_length = *min;
        field.max_length = *max;
    }
}

/// The base document with `paths` (from the router) and what every route shares.
pub fn document(paths: openapi::OpenApi) -> openapi::OpenApi {
    let mut document = Base::openapi().merge_from(paths);
    let components = document.components.get_or_insert_with(Default::default);
    components.security_schemes.insert(
        SESSION.to_owned(),
        SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
            SESSION_COOKIE,
            "The session cookie set by sign-in or registration.",
        ))),
    );
    components.security_schemes.insert(
        STAFF_SESSION.to_owned(),
        SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
            STAFF_SESSION_COOKIE,
            "The support console's session cookie, set by staff sign-in (a player's is refused).",
        ))),
    );
    components.security_schemes.insert(
        STAFF_XSRF.to_owned(),
        SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
            "X-XSRF-TOKEN",
            &format!("On console calls, the {STAFF_XSRF_COOKIE} cookie's value."),
        ))),
    );
    components.security_schemes.insert(
        XSRF.to_owned(),
        SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
            "X-XSRF-TOKEN",
            &format!("The {XSRF_COOKIE} cookie's value, echoed by every state-changing call."),
        ))),
    );
    for (status, name, description) in ERRORS {
        let mut response = ResponseBuilder::new().description(*description).content(
            "application/json",
            Content::new(Some(Ref::from_schema_name("ErrorBody"))),
        );
        if matches!(*status, "429" | "503") {
            response = response.header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(ObjectBuilder::new().schema_type(Type::Integer))
                    .description(Some("Seconds to wait before trying again."))
                    .build(),
            );
        }
        components
            .responses
            .insert((*name).to_owned(), RefOr::T(response.build()));
    }
    for (path, item) in document.paths.paths.iter_mut() {
        // No CSRF header: a webhook answers in its own shape, a beacon as its handler says.
        if crate::csrf::is_exempt(path) {
            if path.starts_with("/webhooks/")
                && let Some(operation) = item.post.as_mut()
            {
                webhook_answers(operation, path == "/webhooks/bank-transfer");
            }
            continue;
        }
        let has_parameter = path.contains('{');
        let operations = [
            (false, item.get.as_mut()),
            (true, item.post.as_mut()),
            (true, item.put.as_mut()),
            (true, item.patch.as_mut()),
            (true, item.delete.as_mut()),
        ];
        let staff = path.starts_with("/staff/");
        for (changes_state, operation) in operations {
            if let Some(operation) = operation {
                shared_answers(operation, changes_state, has_parameter, staff);
            }
        }
    }
    length_limits(&mut document);
    document
}

/// An outside party's webhook: proven by the provider's own credential instead of
/// CSRF-protected, and answered in its own `WebhookAnswer` shape. The bank feed's credential
/// is in headers (which ones, the provider `payment.bank_feed` names decides); the card
/// aggregator's is `callback_sign` in the body.
fn webhook_answers(operation: &mut Operation, bank_feed: bool) {
    let credentials: &[(&str, &str)] = if bank_feed {
        &[
            ("Authorization", "SePay's API key: `Apikey <key>`."),
            (
                "X-SePay-Signature",
                "SePay's HMAC: `sha256=<hex HMAC-SHA256 of \"<X-SePay-Timestamp>.<body>\">`.",
            ),
            (
                "X-SePay-Timestamp",
                "SePay's HMAC: unix seconds, within 5 minutes.",
            ),
            (
                "X-Casso-Signature",
                "Casso's webhook v2: `t=<unix ms>,v1=<hex HMAC-SHA512 of \"<t>.<body, keys sorted>\">`.",
            ),
        ]
    } else {
        &[]
    };
    for (name, description) in credentials {
        let header = ParameterBuilder::new()
            .name(*name)
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some(format!(
                "{description} At most 1 KiB; checked before the body is read."
            )))
            .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
            .build();
        operation.parameters.get_or_insert_with(Vec::new).push(header);
    }
    let refusals = [
        ("400", "Malformed, or a credential header over its bounds."),
        ("401", "The credential is missing or wrong."),
        ("503", "Retry later."),
    ];
    for (status, description) in refusals {
        let response = ResponseBuilder::new().description(description).content(
            "application/json",
            Content::new(Some(Ref::from_schema_name("WebhookAnswer"))),
        );
        operation
            .responses
            .responses
            .insert(status.to_owned(), RefOr::T(response.build()));
    }
    let too_large = ResponseBuilder::new().description("The body is over 64 KiB.");
    operation
        .responses
        .responses
        .insert("413".to_owned(), RefOr::T(too_large.build()));
}

/// Adds the error answers `operation` can give, and the CSRF header a state-changing call
/// must carry (with the session cookie where the handler asked for one).
fn shared_answers(operation: &mut Operation, csrf: bool, has_parameter: bool, staff: bool) {
    let signed_in = operation.security.is_some();
    let (session, xsrf) = if staff {
        (STAFF_SESSION, STAFF_XSRF)
    } else {
        (SESSION, XSRF)
    };
    let mut statuses = vec!["400", "409", "422", "429", "503"];
    if signed_in {
        statuses.push("401");
    }
    if staff && signed_in {
        statuses.push("403");
    }
    if csrf {
        statuses.extend(["403", "419"]);
        let requirement = if signed_in {
            SecurityRequirement::new(session, [""; 0]).add(xsrf, [""; 0])
        } else {
            SecurityRequirement::new(xsrf, [""; 0])
        };
        operation.security = Some(vec![requirement]);
    }
    if signed_in || has_parameter {
        statuses.push("404");
    }
    for status in statuses {
        let (_, name, _) = ERRORS
            .iter()
            .find(|(code, ..)| *code == status)
            .expect("every status listed has its error answer");
        operation
            .responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| RefOr::Ref(Ref::from_response_name(*name)));
    }
}
