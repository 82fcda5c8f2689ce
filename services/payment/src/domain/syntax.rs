//! A player's transfer content ("payment syntax"): `KID` and seven characters, unique per
//! player, short and unambiguous enough to type into a bank app. Bank apps add spaces,
//! punctuation and their own references around it, so it is looked for inside the text.

use rand::{Rng, distr::slice::Choose};

pub const PREFIX: &str = "KID";
pub const CODE_LENGTH: usize = 7;
/// No 0/O, 1/I/L: they are misread when typed from a screen.
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// A new random transfer content.
pub fn generate() -> String {
    let choose = Choose::new(ALPHABET).expect("the alphabet is not empty");
    let code: String = rand::rng()
        .sample_iter(choose)
        .take(CODE_LENGTH)
        .map(|&b| char::from(b))
        .collect();
    format!("{PREFIX}{code}")
}

/// Every transfer content the text may carry: the text upper-cased with everything but
/// letters and digits removed, then each `KID` followed by seven characters of the alphabet.
pub fn candidates(content: &str) -> Vec<String> {
    let squeezed: Vec<u8> = content
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_uppercase())
        .collect();
    let total = PREFIX.len() + CODE_LENGTH;
    let mut found = Vec::new();
    for start in 0..squeezed.len().saturating_sub(total - 1) {
        let window = &squeezed[start..start + total];
        if window.starts_with(PREFIX.as_bytes())
            && window[PREFIX.len()..].iter().all(|b| ALPHABET.contains(b))
        {
            let candidate = String::from_utf8(window.to_vec()).expect("ASCII");
            if !found.contains(&candidate) {
                found.push(candidate);
            }
        }
    }
    found
}

/// Transfer contents one slip away from a code the text carries after `KID`: one character
/// typed wrong, two swapped, one left out or one added. What support suggests for a transfer
/// that matched nobody.
pub fn near(content: &str) -> Vec<String> {
    let squeezed: Vec<u8> = content
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_uppercase())
        .collect();
    let prefix = PREFIX.as_bytes();
    let mut found = std::collections::BTreeSet::new();
    for start in 0..squeezed.len().saturating_sub(prefix.len() - 1) {
        if !squeezed[start..].starts_with(prefix) {
            continue;
        }
        let rest = &squeezed[start + prefix.len()..];
        for length in [CODE_LENGTH - 1, CODE_LENGTH, CODE_LENGTH + 1] {
            let Some(tail) = rest.get(..length) else {
                continue;
            };
            for variant in one_slip(tail) {
                if variant.len() == CODE_LENGTH && variant.iter().all(|b| ALPHABET.contains(b)) {
                    found.insert(format!("{PREFIX}{}", String::from_utf8_lossy(&variant)));
                }
            }
        }
    }
    found.into_iter().collect()
}

/// Every code one slip away from `tail`, whose length says which slip could have made it.
fn one_slip(tail: &[u8]) -> Vec<Vec<u8>> {
    let mut variants = Vec::new();
    match tail.len().cmp(&CODE_LENGTH) {
        std::cmp::Ordering::Less => {
            for at in 0..=tail.len() {
                for &letter in ALPHABET {
                    let mut variant = tail.to_vec();
                    variant.insert(at, letter);
                    variants.push(variant);
                }
            }
        }
        std::cmp::Ordering::Equal => {
            for at in 0..tail.len() {
                for &letter in ALPHABET {
                    let mut variant = tail.to_vec();
                    variant[at] = letter;
                    variants.push(variant);
                }
                if at + 1 < tail.len() {
                    let mut variant = tail.to_vec();
                    variant.swap(at, at + 1);
                    variants.push(variant);
                }
            }
        }
        std::cmp::Ordering::Greater => {
            for at in 0..tail.len() {
                let mut variant = tail.to_vec();
                variant.remove(at);
                variants.push(variant);
            }
        }
    }
    variants
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slip_of_one_character_is_near() {
        let code = "KIDABCD234";
        // Wrong, swapped, missing, extra; with the bank's own words around it.
        for typed in [
            "CK KIDABCE234 nap",
            "KIDBACD234",
            "KID ABC234",
            "kidabcdd234",
            "KIDABC0234",
        ] {
            assert!(near(typed).contains(&code.to_owned()), "{typed}");
        }
        assert!(!near("KIDWXYZ789").contains(&code.to_owned()));
        assert!(near("no code at all").is_empty());
    }

    #[test]
    fn generated_contents_are_short_ascii_and_found_again() {
        for _ in 0..100 {
            let syntax = generate();
            assert_eq!(syntax.len(), 10);
            assert!(syntax.starts_with("KID"));
            assert_eq!(candidates(&syntax), vec![syntax.clone()]);
        }
    }

    #[test]
    fn finds_the_content_among_what_bank_apps_add() {
        let cases = [
            "KIDAB23CD4",
            "kidab23cd4",
            "KID AB23 CD4",
            "MBVCB.3321.KIDAB23CD4.CT tu 0123 NGUYEN VAN A",
            "IBFT KIDAB23CD4 FT24123",
            "Nap tien-KID-AB23CD4-",
            "123456-0987654321-KIDAB23CD4",
        ];
        for content in cases {
            assert!(
                candidates(content).contains(&"KIDAB23CD4".to_owned()),
                "{content}"
            );
        }
    }

    #[test]
    fn finds_nothing_in_unrelated_text() {
        assert!(candidates("chuyen tien an trua").is_empty());
        assert!(candidates("KIDS PARTY").is_empty());
        assert!(candidates("KIDAB2").is_empty());
    }
}
