//! VietQR: the NAPAS EMVCo payload bank apps scan to fill in a transfer (see
//! `design/money.md`): fields as a two-digit id, a two-digit length and the value, ending with
//! a CRC-16/CCITT-FALSE over everything before it.

use crc::{CRC_16_IBM_3740, Crc};

/// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor.
const CCITT_FALSE: Crc<u16> = Crc::<u16>::new(&CRC_16_IBM_3740);
const NAPAS_GUID: &str = "A000000727";
/// "Fast transfer to account" service code.
const TO_ACCOUNT: &str = "QRIBFTTA";
const VND: &str = "704";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VietQrError {
    #[error("field {0} is longer than 99 characters")]
    TooLong(&'static str),
    #[error("field {0} must be printable ASCII")]
    NotAscii(&'static str),
    #[error("the payload is not a sequence of id, length and value")]
    Malformed,
    #[error("the CRC does not match")]
    BadCrc,
}

/// A transfer to an account, optionally with the amount set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transfer<'a> {
    pub bank_bin: &'a str,
    pub account_number: &'a str,
    pub amount_vnd: Option<i64>,
    /// What the player writes in the transfer: ASCII, no diacritics.
    pub content: &'a str,
}

fn field(id: &str, name: &'static str, value: &str) -> Result<String, VietQrError> {
    if !value.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(VietQrError::NotAscii(name));
    }
    if value.len() > 99 {
        return Err(VietQrError::TooLong(name));
    }
    Ok(format!("{id}{:02}{value}", value.len()))
}

pub fn crc(data: &str) -> String {
    format!("{:04X}", CCITT_FALSE.checksum(data.as_bytes()))
}

impl Transfer<'_> {
    pub fn encode(&self) -> Result<String, VietQrError> {
        let beneficiary =
            field("00", "bank BIN", self.bank_bin)? + &field("01", "account number", self.account_number)?;
        let merchant = field("00", "GUID", NAPAS_GUID)?
            + &field("01", "beneficiary", &beneficiary)?
            + &field("02", "service", TO_ACCOUNT)?;
        let mut payload = field("00", "version", "01")?;
        payload += &field(
            "01",
            "initiation",
            if self.amount_vnd.is_some() { "12" } else { "11" },
        )?;
        payload += &field("38", "merchant account", &merchant)?;
        payload += &field("53", "currency", VND)?;
        if let Some(amount) = self.amount_vnd {
            payload += &field("54", "amount", &amount.to_string())?;
        }
        payload += &field("58", "country", "VN")?;
        payload += &field(
            "62",
            "additional data",
            &field("08", "transfer content", self.content)?,
        )?;
        payload += "6304";
        let crc = crc(&payload);
        Ok(payload + &crc)
    }
}

/// Splits an EMVCo template into its (id, value) fields, in order.
pub fn fields(data: &str) -> Result<Vec<(&str, &str)>, VietQrError> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let id = rest.get(..2).ok_or(VietQrError::Malformed)?;
        let len: usize = rest
            .get(2..4)
            .and_then(|l| l.parse().ok())
            .ok_or(VietQrError::Malformed)?;
        let value = rest.get(4..4 + len).ok_or(VietQrError::Malformed)?;
        out.push((id, value));
        rest = &rest[4 + len..];
    }
    Ok(out)
}

/// Checks a whole payload's CRC (its last field, id 63) and returns its fields.
pub fn decode(data: &str) -> Result<Vec<(&str, &str)>, VietQrError> {
    let fields = fields(data)?;
    let Some(("63", crc_value)) = fields.last().copied() else {
        return Err(VietQrError::Malformed);
    };
    let signed = &data[..data.len() - crc_value.len()];
    if crc(signed) != crc_value {
        return Err(VietQrError::BadCrc);
    }
    Ok(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published NAPAS example (design/money.md).
    const NAPAS_EXAMPLE: &str = "00020101021238570010A00000072701270006970403011300110123456780208QRIBFTTA530370454061800005802VN62340107NPS68690819thanh toan don hang63042E2E";

    fn value<'a>(fields: &[(&str, &'a str)], id: &str) -> &'a str {
        fields.iter().find(|(i, _)| *i == id).map(|(_, v)| *v).unwrap()
    }

    #[test]
    fn crc_check_value() {
        assert_eq!(crc("123456789"), "29B1");
    }

    #[test]
    fn decodes_the_napas_example_and_checks_its_crc() {
        let fields = decode(NAPAS_EXAMPLE).unwrap();
        assert_eq!(value(&fields, "00"), "01");
        assert_eq!(value(&fields, "01"), "12");
        let merchant = super::fields(value(&fields, "38")).unwrap();
        assert_eq!(value(&merchant, "00"), "A000000727");
        let beneficiary = super::fields(value(&merchant, "01")).unwrap();
        assert_eq!(value(&beneficiary, "00"), "970403");
        assert_eq!(value(&beneficiary, "01"), "0011012345678");
        assert_eq!(value(&merchant, "02"), "QRIBFTTA");
        assert_eq!(value(&fields, "53"), "704");
        assert_eq!(value(&fields, "54"), "180000");
        assert_eq!(value(&fields, "58"), "VN");
        let additional = super::fields(value(&fields, "62")).unwrap();
        assert_eq!(value(&additional, "08"), "thanh toan don hang");
        assert_eq!(value(&fields, "63"), "2E2E");
    }

    #[test]
    fn a_changed_character_fails_the_crc() {
        let tampered = NAPAS_EXAMPLE.replace("180000", "990000");
        assert_eq!(decode(&tampered), Err(VietQrError::BadCrc));
    }

    #[test]
    fn encodes_a_transfer_that_decodes_to_its_fields() {
        let qr = Transfer {
            bank_bin: "970436",
            account_number: "1023456789",
            amount_vnd: None,
            content: "KIDAB23CD4",
        }
        .encode()
        .unwrap();
        let fields = decode(&qr).unwrap();
        assert_eq!(value(&fields, "01"), "11");
        assert!(!fields.iter().any(|(id, _)| *id == "54"));
        let merchant = super::fields(value(&fields, "38")).unwrap();
        let beneficiary = super::fields(value(&merchant, "01")).unwrap();
        assert_eq!(value(&beneficiary, "00"), "970436");
        assert_eq!(value(&beneficiary, "01"), "1023456789");
        let additional = super::fields(value(&fields, "62")).unwrap();
        assert_eq!(value(&additional, "08"), "KIDAB23CD4");
    }

    #[test]
    fn reproduces_the_napas_example() {
        let qr = Transfer {
            bank_bin: "970403",
            account_number: "0011012345678",
            amount_vnd: Some(180_000),
            content: "thanh toan don hang",
        };
        // The example also carries a bill number (62/01), which a transfer to a player's
        // account does not; everything before field 62 is the same.
        let encoded = qr.encode().unwrap();
        let prefix = &NAPAS_EXAMPLE[..NAPAS_EXAMPLE.find("5802VN").unwrap() + 6];
        assert!(encoded.starts_with(prefix), "{encoded}");
    }

    #[test]
    fn refuses_content_with_diacritics() {
        let qr = Transfer {
            bank_bin: "970436",
            account_number: "1",
            amount_vnd: None,
            content: "nạp tiền",
        };
        assert_eq!(qr.encode(), Err(VietQrError::NotAscii("transfer content")));
    }
}
