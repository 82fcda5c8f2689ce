//! Pure payment rules: signatures, transfer contents, VietQR codes and card arithmetic.

pub mod card;
pub mod signature;
pub mod syntax;
pub mod vietqr;
