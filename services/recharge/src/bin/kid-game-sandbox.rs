//! The game sandbox: plays the portal's side of the game contract on a local RabbitMQ, for a
//! game team to test its consumer without a portal (docs/game-contract, "Testing without the
//! portal"). Start the consumer against the same broker, then:
//!
//!   kid-game-sandbox fsonline
//!
//! It publishes example orders (normal, delivered twice, past `deliverBy`, zone 99), validates
//! each result the consumer publishes, prints the outcome the portal would give it, and ends
//! with PASS (exit 0) or FAIL and why (exit 1). Only the broker is needed.

use std::{process::ExitCode, time::Duration};

use clap::Parser;
use kid_recharge::sandbox::{self, Options};

#[derive(Debug, Parser)]
#[command(about = "Plays the Kid portal's side of the game contract against your consumer")]
struct Args {
    /// Your product code (the routing keys' last part), e.g. fsonline.
    product: String,
    /// The broker, as an AMQP URL.
    #[arg(
        long,
        env = "KID_AMQP_URL",
        default_value = "amqp://guest:guest@127.0.0.1:5672/%2f"
    )]
    amqp_url: String,
    /// The topic exchange orders and results go through.
    #[arg(long, env = "KID_EXCHANGE", default_value = "kid.events")]
    exchange: String,
    /// Seconds to wait for your consumer's answers.
    #[arg(long, default_value_t = 15)]
    wait: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    kid_platform::install_tls_provider();
    let report = sandbox::run(&Options {
        amqp_url: args.amqp_url,
        exchange: args.exchange,
        product: args.product,
        wait: Duration::from_secs(args.wait),
    })
    .await?;
    print!("{}", report.text);
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
