//! The bank feed's simulator: sends the portal a signed notification of an incoming transfer,
//! as the bank-feed provider (SePay's webhook shape) would, for a player, an amount and a bank
//! or e-wallet.
//!
//! ```text
//! cargo run -p kid-launcher --bin kid-bank-feed -- --username demo --amount 500000 [--bank vietcombank]
//!     [--content "<transfer content>"] [--id <provider transaction id>] [--portal http://127.0.0.1:8080]
//! ```
//!
//! Without `--content` the player's own transfer content is used (read from the portal's
//! database, as shown on /payment/bank-transfer), inside the extra text bank apps add. The
//! same `--id` twice sends the same transfer twice. It reads `KID_…` settings like the
//! portal: the database, the webhook secret and the portal's address.

use anyhow::{Context, bail};
use kid_launcher::bank_feed::Transfer;
use kid_payment::domain::bank_feed::BankFeed;
use kid_platform::Settings;
use uuid::Uuid;

struct Args {
    username: Option<String>,
    amount: i64,
    bank: String,
    content: Option<String>,
    id: Option<String>,
    portal: Option<String>,
}

fn usage() -> &'static str {
    "usage: kid-bank-feed --username <name> --amount <VND> [--bank vietcombank|techcombank|momo|viettelpay] \
     [--content <text>] [--id <provider transaction id>] [--portal <url>]"
}

fn parse_args() -> anyhow::Result<Args> {
    let mut args = Args {
        username: None,
        amount: 0,
        bank: "vietcombank".into(),
        content: None,
        id: None,
        portal: None,
    };
    let mut raw = std::env::args().skip(1);
    while let Some(flag) = raw.next() {
        let mut value = || {
            raw.next()
                .with_context(|| format!("{flag} needs a value\n{}", usage()))
        };
        match flag.as_str() {
            "--username" => args.username = Some(value()?),
            "--amount" => {
                args.amount = value()?
                    .replace([',', '.', '_'], "")
                    .parse()
                    .context("--amount is a whole number of VND")?
            }
            "--bank" => args.bank = value()?,
            "--content" => args.content = Some(value()?),
            "--id" => args.id = Some(value()?),
            "--portal" => args.portal = Some(value()?),
            "-h" | "--help" => {
                println!("{}", usage());
                std::process::exit(0);
            }
            other => bail!("unknown argument {other}\n{}", usage()),
        }
    }
    if args.amount <= 0 {
        bail!("--amount must be positive\n{}", usage());
    }
    if args.username.is_none() && args.content.is_none() {
        bail!("give --username or --content\n{}", usage());
    }
    Ok(args)
}

/// The player's transfer content, drawn now if they never opened the bank-transfer page.
async fn content_for(settings: &Settings, username: &str) -> anyhow::Result<String> {
    let identity = kid_platform::db::connect(&settings.database, "identity").await?;
    let user_id: Option<Uuid> = sqlx::query_scalar("select id from user_account where username = lower($1)")
        .bind(username)
        .fetch_optional(&identity)
        .await?;
    let user_id = user_id.with_context(|| format!("no player named {username}"))?;
    let payment = kid_platform::db::connect(&settings.database, "payment").await?;
    Ok(kid_payment::app::methods::payment_syntax(&mut *payment.acquire().await?, user_id).await?)
}

/// Our account at that bank or e-wallet, as the notification names it.
async fn account_for(settings: &Settings, bank: &str) -> anyhow::Result<(String, String)> {
    let payment = kid_platform::db::connect(&settings.database, "payment").await?;
    let mut conn = payment.acquire().await?;
    let method = kid_payment::db::methods::transfer_method(&mut conn, bank)
        .await?
        .with_context(|| format!("no bank or e-wallet {bank}"))?;
    Ok((method.name, method.account_number))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = parse_args()?;
    kid_platform::install_tls_provider();
    let settings = Settings::load().context("loading settings")?;
    let content = match (&args.content, &args.username) {
        (Some(content), _) => content.clone(),
        (None, Some(username)) => Transfer::content_from_app(&content_for(&settings, username).await?),
        (None, None) => unreachable!("checked by parse_args"),
    };
    let (gateway, account_number) = account_for(&settings, &args.bank).await?;
    let transfer = Transfer {
        gateway,
        account_number,
        content,
        amount: args.amount,
        id: args
            .id
            .clone()
            .unwrap_or_else(|| Uuid::now_v7().simple().to_string()),
    };
    let portal = args.portal.unwrap_or(settings.gateway.public_url.clone());
    let (status, answer) = transfer
        .send(&portal, &BankFeed::from_settings(&settings.payment))
        .await?;
    println!("{status} {answer}");
    if !status.is_success() {
        bail!("the portal refused the notification");
    }
    Ok(())
}
