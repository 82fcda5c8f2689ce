//! A browser's user agent as a player reads it in the sign-in history and the new-device mail:
//! "Chrome 120 trên Windows 10" (the browser and its major version, then the system).

use woothee::parser::Parser;

const UNKNOWN: &str = "UNKNOWN";

/// What a user agent names, in words; "Thiết bị không xác định" when it names nothing known.
pub fn describe(user_agent: &str) -> String {
    let Some(found) = Parser::new().parse(user_agent) else {
        return "Thiết bị không xác định".to_owned();
    };
    let browser = (found.name != UNKNOWN).then(|| {
        let major = found.version.split('.').next().unwrap_or_default();
        if major.is_empty() || found.version == UNKNOWN {
            found.name.to_owned()
        } else {
            format!("{} {major}", found.name)
        }
    });
    let system = (found.os != UNKNOWN).then_some(found.os);
    match (browser, system) {
        (Some(browser), Some(system)) => format!("{browser} trên {system}"),
        (Some(browser), None) => browser,
        (None, Some(system)) => system.to_owned(),
        (None, None) => "Thiết bị không xác định".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browsers_and_systems_are_named_as_players_know_them() {
        assert_eq!(
            describe(
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                 Chrome/120.0.0.0 Safari/537.36"
            ),
            "Chrome 120 trên Windows 10"
        );
        assert_eq!(
            describe(
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 \
                 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1"
            ),
            "Safari 17 trên iPhone"
        );
        assert_eq!(describe(""), "Thiết bị không xác định");
        assert_eq!(describe("x"), "Thiết bị không xác định");
    }
}
