use kid_contracts::messages;
pub use kid_contracts::messages::dob::MSG_INVALID;
use time::{Date, Month};

pub const MIN_AGE: i32 = 13;
pub const MAX_AGE: i32 = 100;

pub fn msg_too_young() -> String {
    messages::dob::msg_too_young(MIN_AGE)
}

/// A date of birth of someone at least 13 and at most 100 years old on `today`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dob(Date);

/// The same day `years` earlier; 29 February falls back to 28 February in common years.
fn years_before(today: Date, years: i32) -> Date {
    let year = today.year() - years;
    Date::from_calendar_date(year, today.month(), today.day())
        .or_else(|_| Date::from_calendar_date(year, Month::February, 28))
        .unwrap_or(today)
}

impl Dob {
    /// `raw` is `YYYY-MM-DD`.
    pub fn parse(raw: &str, today: Date) -> Result<Self, String> {
        let format = time::macros::format_description!("[year]-[month]-[day]");
        let date = Date::parse(raw.trim(), format).map_err(|_| MSG_INVALID.to_owned())?;
        if date > today || date < years_before(today, MAX_AGE) {
            return Err(MSG_INVALID.into());
        }
        if date > years_before(today, MIN_AGE) {
            return Err(msg_too_young());
        }
        Ok(Self(date))
    }

    pub fn date(self) -> Date {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    const TODAY: Date = date!(2026 - 11 - 22);

    #[test]
    fn accepts_a_player_of_thirteen_and_a_leap_day_birthday() {
        assert!(Dob::parse("2013-11-22", TODAY).is_ok());
        assert!(Dob::parse("2000-02-29", TODAY).is_ok());
        assert!(Dob::parse("1926-11-22", TODAY).is_ok());
    }

    #[test]
    fn rejects_impossible_dates_and_the_future() {
        assert_eq!(Dob::parse("2001-02-29", TODAY), Err(MSG_INVALID.into()));
        assert_eq!(Dob::parse("2000-13-01", TODAY), Err(MSG_INVALID.into()));
        assert_eq!(Dob::parse("2000-04-31", TODAY), Err(MSG_INVALID.into()));
        assert_eq!(Dob::parse("", TODAY), Err(MSG_INVALID.into()));
        assert_eq!(Dob::parse("2030-01-01", TODAY), Err(MSG_INVALID.into()));
        assert_eq!(Dob::parse("1926-11-21", TODAY), Err(MSG_INVALID.into()));
    }

    #[test]
    fn rejects_players_under_thirteen_with_the_age_message() {
        assert_eq!(Dob::parse("2013-11-23", TODAY), Err(msg_too_young()));
        assert_eq!(Dob::parse("2020-01-01", TODAY), Err(msg_too_young()));
    }
}
