use anyhow::Context;
use kid_launcher::Stack;
use kid_platform::{Settings, shutdown, telemetry};

// Not `#[tokio::main]`: identity alone runs on the runtime `kid_platform::service::main` builds,
// whose future is compiled once in kid-platform rather than again here.
fn main() -> anyhow::Result<()> {
    let settings = Settings::load().context("loading settings")?;
    // It seeds a demo player and runs simulators of outside parties: development only.
    anyhow::ensure!(
        settings.is_development(),
        "kid-launcher is the development portal (demo player, simulators); production runs each binary on its own"
    );
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => kid_platform::service::runtime()?.block_on(portal(settings)),
        // Identity on its own, as the development portal runs it: the production `kid-identity`
        // but with mail going to the development mailbox when no SMTP URL is set. For the
        // performance harness and the reliability suite, which run each service as its own
        // process with no SMTP server.
        [service] if service == "identity" => {
            kid_platform::service::main(&kid_identity::events::mailbox::SERVICE)
        }
        _ => anyhow::bail!("usage: kid-launcher [identity]"),
    }
}

/// The whole portal in this process, seeded, until a signal.
async fn portal(settings: Settings) -> anyhow::Result<()> {
    let _telemetry = telemetry::init("kid-dev")?;
    let shutdown = shutdown::on_signal();
    let public_url = settings.gateway.public_url.clone();
    let stack = Stack::start(settings.clone(), shutdown).await?;
    let demo = kid_identity::seed_demo(&settings)
        .await
        .context("seeding the demo player")?;
    kid_wallet::seed::seed_demo(&settings, demo)
        .await
        .context("seeding the demo wallet")?;
    kid_identity::seed_staff(&settings)
        .await
        .context("seeding the console's staff")?;
    tracing::info!(url = %public_url, gateway = %stack.gateway, "Kid portal is up");
    stack.wait().await
}
