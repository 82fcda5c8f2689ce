//! A password as the forms take it: its length and strength rules (the spec's), the common
//! and personal passwords refused, and its confirmation. Hashing it is `hasher`'s.
//!
//! A password is NFKC-normalised before anything else, so the same password typed on two
//! keyboards (a precomposed "ậ" or "a" with two combining marks, full-width digits) is one
//! password, and hashes the same.

use kid_contracts::messages;
pub use kid_contracts::messages::password::{
    CHANGE, MSG_COMMON, MSG_CONFIRM_MISMATCH, MSG_CONFIRM_REQUIRED, MSG_PERSONAL, MSG_REQUIRED, MSG_TOO_LONG,
    MSG_WEAK, Messages, RESET, SIGN_UP, STAFF_ENROL,
};
use unicode_normalization::UnicodeNormalization;

use super::common_passwords;

/// `raw` in Unicode normalisation form KC, as every password is hashed and compared.
pub fn normalise(raw: &str) -> String {
    raw.nfkc().collect()
}

pub const MIN_LENGTH: usize = kid_contracts::limits::PASSWORD_MIN;
pub const MAX_LENGTH: usize = kid_contracts::limits::PASSWORD_MAX;

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

/// A staff member's own password, through their enrolment link: all four kinds of character.
pub const ON_STAFF_ENROL: Form = Form {
    required: Strength::VeryStrong,
    messages: &STAFF_ENROL,
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
        let normalised = normalise(raw);
        let length = normalised.chars().count();
        match length {
            0 => Err(messages.required.into()),
            1..MIN_LENGTH => Err(messages.too_short.into()),
            _ if length > MAX_LENGTH => Err(MSG_TOO_LONG.into()),
            _ if Strength::of(&normalised) < required => Err(messages.weak.into()),
            _ if common_passwords::contains(&normalised) => Err(MSG_COMMON.into()),
            _ => Ok(Self(normalised)),
        }
    }

    /// The password, unless it holds `username` or the name part of `email` (case ignored):
    /// the first guesses of anyone who knows whose account it is. Names shorter than four
    /// characters are too likely to occur by chance to refuse.
    pub fn not_personal(self, username: &str, email: &str) -> Result<Self, String> {
        let password = self.0.to_lowercase();
        let local_part = email.split('@').next().unwrap_or_default();
        let personal = [username, local_part]
            .into_iter()
            .map(|name| normalise(name).to_lowercase())
            .filter(|name| name.chars().count() >= 4)
            .any(|name| password.contains(&name));
        if personal {
            Err(MSG_PERSONAL.into())
        } else {
            Ok(self)
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
        } else if normalise(raw) != normalise(password) {
            Err(messages.confirm_mismatch.into())
        } else {
            Ok(())
        }
    }

    /// A new password on the sign-up form.
    pub fn parse(raw: &str, required: Strength) -> Result<Self, String> {
        Self::parse_for(raw, required, &SIGN_UP)
    }

    /// The sign-up form's confirmation must be present and equal.
    pub fn confirm(raw: &str, password: &str) -> Result<(), String> {
        Self::confirm_for(raw, password, &SIGN_UP)
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

    #[test]
    fn a_common_password_is_refused_on_every_form_whatever_its_case() {
        assert_eq!(
            Password::parse("Password@123", Strength::Medium).err(),
            Some(MSG_COMMON.into())
        );
        assert_eq!(
            Password::parse_for("PASSWORD@123", Strength::Strong, &RESET).err(),
            Some(MSG_COMMON.into())
        );
        assert_eq!(
            Password::parse_for("password1", Strength::Medium, &CHANGE).err(),
            Some(MSG_COMMON.into())
        );
        assert!(Password::parse("Demo@123456", Strength::Medium).is_ok());
    }

    #[test]
    fn the_username_or_the_address_name_in_the_password_is_refused() {
        let password = || Password::parse("Xin-Chao-Minhanh-2024", Strength::Medium).expect("password");
        assert_eq!(
            password().not_personal("minhanh", "someone@example.vn").err(),
            Some(MSG_PERSONAL.into())
        );
        assert_eq!(
            password().not_personal("player01", "MinhAnh@example.vn").err(),
            Some(MSG_PERSONAL.into())
        );
        // Names under four characters are too short to refuse, and an address's domain is
        // nobody's own.
        assert!(password().not_personal("xin", "abc@chao.vn").is_ok());
    }

    #[test]
    fn a_password_is_kept_nfkc_normalised_so_two_keyboards_type_the_same_one() {
        let precomposed = "M\u{1EAD}t-kh\u{1EA9}u-2024";
        let combining = "Ma\u{323}\u{302}t-kha\u{302}\u{309}u-2024";
        assert_ne!(precomposed, combining);
        let a = Password::parse(precomposed, Strength::Medium).expect("password");
        let b = Password::parse(combining, Strength::Medium).expect("password");
        assert_eq!(a.expose(), b.expose());
        assert_eq!(Password::confirm(combining, precomposed), Ok(()));
        // Full-width digits and letters are the ASCII ones.
        let wide = Password::parse("\u{FF24}emo@\u{FF11}23456", Strength::Medium).expect("password");
        assert_eq!(wide.expose(), "Demo@123456");
    }
}
