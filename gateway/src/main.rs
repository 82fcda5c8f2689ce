use anyhow::Context;
use kid_platform::{Settings, shutdown, telemetry};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = Settings::load_for(kid_gateway::NEEDS).context("loading settings")?;
    let _telemetry = telemetry::init("gateway")?;
    let shutdown = shutdown::on_signal();
    kid_gateway::Gateway::build(settings, shutdown)
        .await?
        .run_until_stopped()
        .await
}
