#[tokio::main]
async fn main() -> anyhow::Result<()> {
    kid_platform::service::run_binary(&kid_identity::SERVICE).await
}
