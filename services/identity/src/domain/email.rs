use kid_contracts::limits::EMAIL_MAX;
pub use kid_contracts::messages::email::{MSG_INVALID, MSG_REQUIRED};

/// An address of at most 128 characters with one `@`, a local part and a dotted domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(MSG_REQUIRED.into());
        }
        if raw.chars().count() > EMAIL_MAX || !email_address::EmailAddress::is_valid(raw) {
            return Err(MSG_INVALID.into());
        }
        let domain = raw.rsplit_once('@').map_or("", |(_, domain)| domain);
        if !domain.contains('.') || domain.starts_with('.') || domain.ends_with('.') {
            return Err(MSG_INVALID.into());
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses_with_any_top_level_domain() {
        for address in [
            "player@example.com",
            "nguyen.van.a+kid@mail.example.vn",
            "a@b.games",
        ] {
            assert!(Email::parse(address).is_ok(), "{address}");
        }
    }

    #[test]
    fn rejects_with_the_specs_messages() {
        assert_eq!(Email::parse(""), Err(MSG_REQUIRED.into()));
        assert_eq!(Email::parse("not-an-email"), Err(MSG_INVALID.into()));
        assert_eq!(Email::parse("a@localhost"), Err(MSG_INVALID.into()));
        assert_eq!(
            Email::parse(&format!("{}@example.com", "a".repeat(120))),
            Err(MSG_INVALID.into())
        );
    }
}
