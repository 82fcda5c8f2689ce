//! A password as the forms take it: its length and strength rules (the spec's), and its
//! confirmation. Hashing it is `hasher`'s.

use kid_contracts::messages;
pub use kid_contracts::messages::password::{
    CHANGE, MSG_CONFIRM_MISMATCH, MSG_CONFIRM_REQUIRED, MSG_REQUIRED, MSG_TOO_LONG, MSG_WEAK, Messages, RESET,
};

pub const MIN_LENGTH: usize = 8;
pub const MAX_LENGTH: usize = 128;

pub fn msg_too_short() -> String {
    messages::password::msg_too_short(MIN_LENGTH)
}

/// The spec's strength levels, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    Weak,
    /// At least two character classes, one of them digits.
    Medium,
    /// At least three classes, one of them symbols.
    Strong,
    /// All four: lower case, upper case, digits, symbols.
    VeryStrong,
}

impl Strength {
    pub fn of(password: &str) -> Self {
        let lower = password.chars().any(char::is_lowercase);
        let upper = password.chars().any(char::is_uppercase);
        let digit = password.chars().any(|c| c.is_ascii_digit());
        let symbol = password.chars().any(|c| !c.is_alphanumeric());
        let classes = [lower, upper, digit, symbol]
            .into_iter()
            .filter(|present| *present)
            .count();
        match classes {
            4 => Self::VeryStrong,
            3 if symbol => Self::Strong,
            2.. if digit => Self::Medium,
            _ => Self::Weak,
        }
    }
}

/// A form that sets a password: the strength it asks for and how it words problems.
#[derive(Debug)]
pub struct Form {
    pub required: Strength,
    pub messages: &'static Messages,
}

/// Change password, signed in: a medium password will do.
pub const ON_CHANGE: Form = Form {
    required: Strength::Medium,
    messages: &CHANGE,
};

/// Reset by a mailed link: the spec asks for a strong one.
pub const ON_RESET: Form = Form {
    required: Strength::Strong,
    messages: &RESET,
};

/// A new password: 8 to 128 characters (Unicode code points, never truncated) of at least
/// `required` strength.
#[derive(Clone)]
pub struct Password(String);

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(***)")
    }
}

impl Password {
    /// A new password on a form worded by `messages`.
    pub fn parse_for(raw: &str, required: Strength, messages: &Messages) -> Result<Self, String> {
        let length = raw.chars().count();
        match length {
            0 => Err(messages.required.into()),
            1..MIN_LENGTH => Err(messages.too_short.into()),
            _ if length > MAX_LENGTH => Err(MSG_TOO_LONG.into()),
            _ if Strength::of(raw) < required => Err(messages.weak.into()),
            _ => Ok(Self(raw.to_owned())),
        }
    }

    /// A new password and its confirmation, as `form` sends them: problems are added under
    /// `password` and `passwordConfirm` to those the form's other fields had, and the password
    /// is given only when no field has any.
    pub fn take_confirmed(
        mut errors: super::FieldErrors,
        raw: &str,
        confirmation: &str,
        form: &Form,
    ) -> Result<Self, super::FieldErrors> {
        let password = errors.take("password", Self::parse_for(raw, form.required, form.messages));
        errors.take(
            "passwordConfirm",
            Self::confirm_for(confirmation, raw, form.messages),
        );
        match password {
            Some(password) if errors.is_empty() => Ok(password),
            _ => Err(errors),
        }
    }

    pub fn confirm_for(raw: &str, password: &str, messages: &Messages) -> Result<(), String> {
        if raw.is_empty() {
            Err(messages.confirm_required.into())
        } else if raw != password {
            Err(messages.confirm_mismatch.into())
        } else {
            Ok(())
        }
    }

    pub fn parse(raw: &str, required: Strength) -> Result<Self, String> {
        let length = raw.chars().count();
        if length == 0 {
            return Err(MSG_REQUIRED.into());
        }
        if length < MIN_LENGTH {
            return Err(msg_too_short());
        }
        if length > MAX_LENGTH {
            return Err(MSG_TOO_LONG.into());
        }
        if Strength::of(raw) < required {
            return Err(MSG_WEAK.into());
        }
        Ok(Self(raw.to_owned()))
    }

    /// The confirmation must be present and equal.
    pub fn confirm(raw: &str, password: &str) -> Result<(), String> {
        if raw.is_empty() {
            Err(MSG_CONFIRM_REQUIRED.into())
        } else if raw != password {
            Err(MSG_CONFIRM_MISMATCH.into())
        } else {
            Ok(())
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strength_levels_follow_the_spec() {
        assert_eq!(Strength::of("password"), Strength::Weak);
        assert_eq!(Strength::of("PASSWORD!"), Strength::Weak);
        assert_eq!(Strength::of("password1"), Strength::Medium);
        assert_eq!(Strength::of("Password1"), Strength::Medium);
        assert_eq!(Strength::of("password1!"), Strength::Strong);
        assert_eq!(Strength::of("Password1!"), Strength::VeryStrong);
    }

    #[test]
    fn length_counts_code_points_and_is_never_truncated() {
        assert_eq!(
            Password::parse("", Strength::Medium).err(),
            Some(MSG_REQUIRED.into())
        );
        assert_eq!(
            Password::parse("ab1", Strength::Medium).err(),
            Some(msg_too_short())
        );
        assert!(Password::parse("mậtkhẩu1", Strength::Medium).is_ok());
        let long = format!("{}1", "ậ".repeat(128));
        assert_eq!(
            Password::parse(&long, Strength::Medium).err(),
            Some(MSG_TOO_LONG.into())
        );
        assert_eq!(
            Password::parse("abcdefgh", Strength::Medium).err(),
            Some(MSG_WEAK.into())
        );
    }

    #[test]
    fn confirmation_must_be_present_and_equal() {
        assert_eq!(
            Password::confirm("", "Secret123!"),
            Err(MSG_CONFIRM_REQUIRED.into())
        );
        assert_eq!(
            Password::confirm("Secret123", "Secret123!"),
            Err(MSG_CONFIRM_MISMATCH.into())
        );
        assert_eq!(Password::confirm("Secret123!", "Secret123!"), Ok(()));
    }
}
