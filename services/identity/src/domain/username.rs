use kid_contracts::limits::{USERNAME_MAX, USERNAME_MIN};
pub use kid_contracts::messages::username::{MSG_CHARACTERS, MSG_LENGTH, MSG_REQUIRED};

/// 4 to 32 of a-z, 0-9 and `_`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Username(String);

impl Username {
    pub fn parse(raw: &str) -> Result<Self, String> {
        if raw.is_empty() {
            return Err(MSG_REQUIRED.into());
        }
        if !raw
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(MSG_CHARACTERS.into());
        }
        if !(USERNAME_MIN..=USERNAME_MAX).contains(&raw.len()) {
            return Err(MSG_LENGTH.into());
        }
        Ok(Self(raw.to_owned()))
    }

    /// How a sign-in name is looked up: usernames are unique regardless of case.
    pub fn normalise_for_lookup(raw: &str) -> String {
        raw.trim().to_lowercase()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_lower_case_letters_digits_and_underscores_of_4_to_32() {
        for name in ["demo".to_owned(), "player_2026".to_owned(), "a".repeat(32)] {
            assert!(Username::parse(&name).is_ok(), "{name}");
        }
    }

    #[test]
    fn rejects_with_the_specs_messages() {
        assert_eq!(Username::parse(""), Err(MSG_REQUIRED.into()));
        assert_eq!(Username::parse("abc"), Err(MSG_LENGTH.into()));
        assert_eq!(Username::parse(&"a".repeat(33)), Err(MSG_LENGTH.into()));
        assert_eq!(Username::parse("Demo"), Err(MSG_CHARACTERS.into()));
        assert_eq!(Username::parse("nguyễn"), Err(MSG_CHARACTERS.into()));
        assert_eq!(Username::parse("a b c d"), Err(MSG_CHARACTERS.into()));
    }
}
