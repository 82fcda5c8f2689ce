//! The tonic service. Its RPCs are built by the issue that owns them; until then they answer
//! UNIMPLEMENTED (the generated default), behind the same internal-JWT check as the rest.

use kid_proto::wallet::v1::wallet_service_server::WalletService;
use sqlx::PgPool;

pub struct Wallet {
    #[allow(dead_code, reason = "the queries arrive with their RPCs")]
    pool: PgPool,
}

impl Wallet {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[tonic::async_trait]
impl WalletService for Wallet {}
