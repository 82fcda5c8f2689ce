//! The tonic service. Its RPCs are built by the issue that owns them; until then they answer
//! UNIMPLEMENTED (the generated default), behind the same internal-JWT check as the rest.

use kid_proto::recharge::v1::recharge_service_server::RechargeService;
use sqlx::PgPool;

pub struct Recharge {
    #[allow(dead_code, reason = "the queries arrive with their RPCs")]
    pool: PgPool,
}

impl Recharge {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[tonic::async_trait]
impl RechargeService for Recharge {}
