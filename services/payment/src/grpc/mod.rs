//! The tonic service. Its RPCs are built by the issue that owns them; until then they answer
//! UNIMPLEMENTED (the generated default), behind the same internal-JWT check as the rest.

use kid_proto::payment::v1::payment_service_server::PaymentService;
use sqlx::PgPool;

pub struct Payment {
    #[allow(dead_code, reason = "the queries arrive with their RPCs")]
    pool: PgPool,
}

impl Payment {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }
}

#[tonic::async_trait]
impl PaymentService for Payment {}
