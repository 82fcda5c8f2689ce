//! The 100,000 most common passwords our length and strength rules would otherwise admit, from
//! SecLists' list of the top million of ten million leaked passwords (how the file was made,
//! and its licence: `data/README.md`). Lower-cased, NFKC-normalised and sorted, so a lookup is
//! a binary search over the lines of the file compiled into the binary.

use std::sync::LazyLock;

static FILE: &str = include_str!("../../data/common-passwords.txt");

static SORTED: LazyLock<Vec<&'static str>> = LazyLock::new(|| FILE.lines().collect());

/// Whether `normalised` (NFKC, as [`super::Password`] keeps it) is on the list, case ignored.
pub fn contains(normalised: &str) -> bool {
    SORTED.binary_search(&normalised.to_lowercase().as_str()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_sorted_unique_and_whole() {
        assert_eq!(SORTED.len(), 100_000);
        assert!(SORTED.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn common_passwords_are_found_whatever_their_case() {
        assert!(contains("Password@123"));
        assert!(contains("PASSWORD1"));
        assert!(contains("p@ssw0rd"));
        assert!(!contains("Demo@123456"));
        assert!(!contains("Zx9#mPq2vL-kid"));
    }
}
