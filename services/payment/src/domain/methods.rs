//! What a player can top up with, as the tables describe it: banks and e-wallets, card brands
//! with their face values, and the card fee table.

use rust_decimal::Decimal;

use super::vietqr;

/// A bank or e-wallet account players transfer to.
#[derive(Debug, Clone)]
pub struct TransferMethod {
    pub code: String,
    /// `bank-transfer` or `e-wallet`.
    pub kind: String,
    pub name: String,
    pub exchange_rate: String,
    pub account_name: String,
    pub account_number: String,
    pub mobile_account_number: String,
    pub bank_bin: Option<String>,
}

impl TransferMethod {
    pub fn rate(&self) -> Decimal {
        self.exchange_rate.parse().unwrap_or(Decimal::ZERO).normalize()
    }

    /// The VietQR payload for a transfer to this account carrying `content`, when the method
    /// takes VietQR.
    pub fn qr_code_data(&self, content: &str) -> Option<String> {
        let bin = self.bank_bin.as_deref()?;
        vietqr::Transfer {
            bank_bin: bin,
            account_number: &self.account_number,
            amount_vnd: None,
            content,
        }
        .encode()
        .inspect_err(|error| tracing::error!(method = %self.code, %error, "cannot build the VietQR code"))
        .ok()
    }

    /// Whether `account` (as a bank writes it, with spaces or dashes) is this method's account.
    pub fn is_account(&self, account: &str) -> bool {
        digits(&self.account_number) == digits(account)
    }
}

fn digits(account: &str) -> String {
    account.chars().filter(char::is_ascii_digit).collect()
}

/// A phone-card brand and the face values it takes.
#[derive(Debug, Clone)]
pub struct CardProvider {
    pub code: String,
    pub name: String,
    pub exchange_rate: String,
    pub payable_values: Vec<i64>,
    pub pin_length: i32,
    pub serial_length: i32,
    pub enabled: bool,
}

impl CardProvider {
    pub fn rate(&self) -> Decimal {
        self.exchange_rate.parse().unwrap_or(Decimal::ZERO).normalize()
    }
}

/// One row of the card fee table.
#[derive(Debug, Clone)]
pub struct CardFee {
    pub provider: String,
    pub value: i64,
    pub fee_percent: String,
}
