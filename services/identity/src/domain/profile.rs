//! The profile a player edits: name, language and phone (spec section 5, "Name", "Language
//! and phone"). Only the parts a request carries change; a name's parts change together.

use super::FieldErrors;
pub use kid_contracts::messages::profile::{
    MSG_FIRST_NAME_REQUIRED, MSG_LANGUAGE, MSG_LAST_NAME_REQUIRED, MSG_NAME_TOO_LONG, MSG_PHONE_INVALID,
    MSG_PHONE_REQUIRED,
};

const MAX_NAME: usize = kid_contracts::limits::NAME_MAX;
const MAX_PHONE: usize = 15;
/// The locales the portal offers.
pub const LANGUAGES: [&str; 1] = ["vi-VN"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub first: String,
    pub middle: String,
    pub last: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileChange {
    pub name: Option<Name>,
    pub language: Option<String>,
    pub phone_number: Option<String>,
}

fn name_part(
    errors: &mut FieldErrors,
    field: &'static str,
    raw: Option<&str>,
    required: Option<&'static str>,
) -> String {
    let value = raw.unwrap_or_default().trim().to_owned();
    if let Some(message) = required
        && value.is_empty()
    {
        errors.add(field, message);
    } else if value.chars().count() > MAX_NAME {
        errors.add(field, MSG_NAME_TOO_LONG);
    }
    value
}

fn phone(raw: &str) -> Result<String, &'static str> {
    let digits: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.is_empty() {
        return Err(MSG_PHONE_REQUIRED);
    }
    let number = digits.strip_prefix('+').unwrap_or(&digits);
    let valid = digits.chars().count() <= MAX_PHONE
        && number.len() >= 8
        && number.chars().all(|c| c.is_ascii_digit());
    if valid { Ok(digits) } else { Err(MSG_PHONE_INVALID) }
}

impl ProfileChange {
    pub fn parse(
        first: Option<&str>,
        middle: Option<&str>,
        last: Option<&str>,
        language: Option<&str>,
        phone_number: Option<&str>,
    ) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::default();
        let name = (first.is_some() || middle.is_some() || last.is_some()).then(|| Name {
            first: name_part(&mut errors, "firstName", first, Some(MSG_FIRST_NAME_REQUIRED)),
            middle: name_part(&mut errors, "middleName", middle, None),
            last: name_part(&mut errors, "lastName", last, Some(MSG_LAST_NAME_REQUIRED)),
        });
        let language = language.map(str::to_owned);
        if let Some(language) = &language
            && !LANGUAGES.contains(&language.as_str())
        {
            errors.add("language", MSG_LANGUAGE);
        }
        let phone_number =
            phone_number.and_then(|raw| errors.take("phoneNumber", phone(raw).map_err(str::to_owned)));
        if errors.is_empty() {
            Ok(Self {
                name,
                language,
                phone_number,
            })
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(errors: FieldErrors) -> Vec<(String, String)> {
        errors
            .iter()
            .map(|(field, message)| (field.to_owned(), message.clone()))
            .collect()
    }

    #[test]
    fn a_name_needs_its_given_and_family_parts() {
        let errors = ProfileChange::parse(Some(" "), Some("Văn"), None, None, None).expect_err("invalid");
        assert_eq!(
            messages(errors),
            vec![
                ("firstName".into(), MSG_FIRST_NAME_REQUIRED.into()),
                ("lastName".into(), MSG_LAST_NAME_REQUIRED.into())
            ]
        );
        let long = "a".repeat(129);
        let errors = ProfileChange::parse(Some(&long), None, Some("Nguyễn"), None, None).expect_err("long");
        assert_eq!(
            messages(errors),
            vec![("firstName".into(), MSG_NAME_TOO_LONG.into())]
        );
        let change = ProfileChange::parse(Some(" An "), None, Some("Nguyễn"), None, None).expect("valid");
        assert_eq!(change.name.map(|name| name.first), Some("An".into()));
        assert_eq!(change.phone_number, None);
    }

    #[test]
    fn phones_are_digits_with_an_optional_plus_and_at_most_fifteen_characters() {
        for (raw, expected) in [
            ("0901 234 567", Ok("0901234567")),
            ("+84901234567", Ok("+84901234567")),
            ("", Err(MSG_PHONE_REQUIRED)),
            ("0901-234-567", Err(MSG_PHONE_INVALID)),
            ("1234567", Err(MSG_PHONE_INVALID)),
            ("+8490123456789012", Err(MSG_PHONE_INVALID)),
        ] {
            assert_eq!(phone(raw), expected.map(str::to_owned), "{raw}");
        }
    }

    #[test]
    fn only_offered_languages_are_accepted() {
        assert!(ProfileChange::parse(None, None, None, Some("vi-VN"), None).is_ok());
        let errors = ProfileChange::parse(None, None, None, Some("en-US"), None).expect_err("unknown");
        assert_eq!(messages(errors), vec![("language".into(), MSG_LANGUAGE.into())]);
    }
}
