//! Generates a giftcode campaign: stores the campaign and its codes' keyed hashes, and writes
//! the codes themselves to a CSV, the only place they exist (hand it to marketing, not to git).
//!
//!   kid-giftcodes --campaign 'Tết 2027' --kp 5000 --count 100000 --expires 2027-02-28 \
//!       --out tet-2027.csv
//!
//! A campaign of in-game items names the game and its items instead of `--kp`; the game puts
//! them on the character (docs/game-contract, "Giftcode items"):
//!
//!   kid-giftcodes --campaign 'Quà Tết Phong Thần' --product fsonline \
//!       --item 'fs.li-xi:Lì Xì Tết:3' --item 'fs.bua-may-man:Bùa May Mắn:5' \
//!       --count 1000 --expires 2027-02-28 --out qua-tet-fs.csv
//!
//! Codes are single-use unless `--uses` says how many redemptions each allows (`0`: any number,
//! bounded only by `--per-account`). Dates are Vietnam days (UTC+7): the campaign starts at the
//! start of `--starts` (default now) and ends at the end of `--expires`. All or nothing: the
//! database keeps the codes only if the whole CSV was written, and the CSV appears (renamed from
//! a temporary file) only once the database committed them. It reads the database URL and the
//! pepper from the recharge service's settings (`KID_DATABASE__URL`,
//! `KID_RECHARGE__GIFTCODE_PEPPER`).

use std::{collections::HashSet, io::Write, path::PathBuf};

use anyhow::{Context, bail, ensure};
use clap::Parser;
use kid_contracts::game::GiftItem;
use kid_platform::Settings;
use kid_recharge::{
    app::giftcodes::{CodeHasher, generate},
    db::giftcodes::{Gift, NewCampaign, insert_campaign, insert_codes},
};
use time::{Date, OffsetDateTime, Time, UtcOffset, macros::format_description};

/// Codes stored per statement.
const BATCH: usize = 10_000;

#[derive(Debug, Parser)]
#[command(about = "Generates a giftcode campaign and writes its codes to a CSV")]
struct Args {
    /// The campaign's name, shown to players and in their history.
    #[arg(long)]
    campaign: String,
    /// KP each redemption gives (or `--product` with `--item`).
    #[arg(long, required_unless_present = "product", conflicts_with_all = ["product", "item"])]
    kp: Option<i64>,
    /// The game whose items each redemption gives (its product code).
    #[arg(long, requires = "item")]
    product: Option<String>,
    /// An item each redemption gives, `<item id>:<name>:<quantity>` in the game's own id and
    /// name; repeat for each kind (at most 20).
    #[arg(long, requires = "product")]
    item: Vec<String>,
    /// How many codes to generate.
    #[arg(long)]
    count: usize,
    /// Last day (Vietnam time) the codes can be redeemed, YYYY-MM-DD.
    #[arg(long)]
    expires: String,
    /// First day (Vietnam time) the codes can be redeemed, YYYY-MM-DD; default now.
    #[arg(long)]
    starts: Option<String>,
    /// Redemptions each code allows; 0 for any number.
    #[arg(long, default_value_t = 1)]
    uses: i32,
    /// Codes of the campaign one account may redeem.
    #[arg(long, default_value_t = 1)]
    per_account: i32,
    /// The codes' first group.
    #[arg(long, default_value = "KID")]
    prefix: String,
    /// Where to write the CSV (refused if it exists).
    #[arg(long)]
    out: PathBuf,
}

const VIETNAM: UtcOffset = match UtcOffset::from_hms(7, 0, 0) {
    Ok(offset) => offset,
    Err(_) => panic!("UTC+7 is an offset"),
};

fn day(text: &str) -> anyhow::Result<Date> {
    Date::parse(text, format_description!("[year]-[month]-[day]"))
        .with_context(|| format!("{text} is not YYYY-MM-DD"))
}

/// `<item id>:<name>:<quantity>`.
fn item(text: &str) -> anyhow::Result<GiftItem> {
    let mut parts = text.splitn(3, ':');
    let (Some(item_id), Some(name), Some(quantity)) = (parts.next(), parts.next(), parts.next()) else {
        bail!("--item {text:?} is not <item id>:<name>:<quantity>");
    };
    let quantity: i64 = quantity
        .parse()
        .with_context(|| format!("--item {text:?}: the quantity is not a number"))?;
    ensure!(
        !item_id.trim().is_empty() && !name.trim().is_empty() && quantity > 0,
        "--item {text:?}: the id and name must not be empty and the quantity must be positive"
    );
    Ok(GiftItem {
        item_id: item_id.trim().to_owned(),
        name: name.trim().to_owned(),
        quantity,
    })
}

/// What each redemption gives, from `--kp` or `--product` with `--item`.
fn gift(args: &Args) -> anyhow::Result<Gift> {
    match (args.kp, &args.product) {
        (Some(kp), None) => {
            ensure!(kp > 0, "--kp must be positive");
            Ok(Gift::Kp(kp))
        }
        (None, Some(product_code)) => {
            ensure!(
                (1..=20).contains(&args.item.len()),
                "--item must be given 1 to 20 times"
            );
            Ok(Gift::Items {
                product_code: product_code.clone(),
                items: args
                    .item
                    .iter()
                    .map(|text| item(text))
                    .collect::<anyhow::Result<_>>()?,
            })
        }
        _ => bail!("give either --kp, or --product with --item"),
    }
}

/// The CSV's `gift` column: the KP, or the items as `<quantity> × <name>` joined by ", ".
fn gift_text(gift: &Gift) -> String {
    match gift {
        Gift::Kp(kp) => format!("{kp} KP"),
        Gift::Items { items, .. } => items
            .iter()
            .map(|item| format!("{} × {}", item.quantity, item.name))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let gift = gift(&args)?;
    ensure!(
        (1..=1_000_000).contains(&args.count),
        "--count must be 1 to 1,000,000"
    );
    ensure!(
        args.uses >= 0 && args.per_account > 0,
        "--uses must be 0 or more, --per-account 1 or more"
    );
    ensure!(
        !args.prefix.is_empty()
            && args.prefix.len() <= 8
            && args.prefix.bytes().all(|b| b.is_ascii_uppercase()),
        "--prefix must be 1 to 8 letters A-Z"
    );
    ensure!(
        !args.out.exists(),
        "{} exists; not overwriting it",
        args.out.display()
    );
    let expires_at = day(&args.expires)?
        .next_day()
        .context("--expires is too far")?
        .with_time(Time::MIDNIGHT)
        .assume_offset(VIETNAM);
    let starts_at = match &args.starts {
        Some(text) => day(text)?.with_time(Time::MIDNIGHT).assume_offset(VIETNAM),
        None => OffsetDateTime::now_utc(),
    };
    ensure!(expires_at > starts_at, "the campaign must end after it starts");

    let mut settings = Settings::load().context("loading settings")?;
    if !settings.is_development() {
        settings = Settings::load_for(&["environment", "database.url", "recharge.giftcode_pepper"])
            .context("loading settings")?;
    }
    let hasher = CodeHasher::new(settings.recharge.giftcode_pepper.clone());
    let pool = kid_platform::db::connect(&settings.database, "recharge").await?;

    let mut codes = HashSet::with_capacity(args.count);
    while codes.len() < args.count {
        codes.insert(generate(&args.prefix));
    }
    let codes: Vec<String> = codes.into_iter().collect();

    let partial = args.out.with_extension("csv.partial");
    let mut writer =
        csv::Writer::from_path(&partial).with_context(|| format!("writing {}", partial.display()))?;
    writer.write_record(["code", "campaign", "gift", "starts_at", "expires_at"])?;
    let rfc3339 = &time::format_description::well_known::Rfc3339;
    let (starts, expires) = (
        starts_at.to_offset(VIETNAM).format(rfc3339)?,
        expires_at.to_offset(VIETNAM).format(rfc3339)?,
    );
    let gift_text = gift_text(&gift);
    for code in &codes {
        writer.write_record([
            code.as_str(),
            args.campaign.as_str(),
            &gift_text,
            &starts,
            &expires,
        ])?;
    }
    writer.into_inner()?.sync_all()?;

    let stored = async {
        let mut tx = pool.begin().await?;
        if let Gift::Items { product_code, .. } = &gift {
            ensure!(
                kid_recharge::db::catalogue::product(&mut tx, product_code)
                    .await?
                    .is_some(),
                "--product {product_code:?} is not a product of the catalogue"
            );
        }
        let campaign = NewCampaign {
            name: &args.campaign,
            gift: gift.clone(),
            per_account: args.per_account,
            starts_at,
            expires_at,
        };
        let Some(campaign_id) = insert_campaign(&mut tx, &campaign).await? else {
            bail!("a campaign named {:?} exists", args.campaign);
        };
        let max_uses = (args.uses > 0).then_some(args.uses);
        for batch in codes.chunks(BATCH) {
            let hashes: Vec<Vec<u8>> = batch
                .iter()
                .map(|code| {
                    hasher.hash(
                        &kid_recharge::app::giftcodes::normalise(code).expect("generated codes are valid"),
                    )
                })
                .collect();
            let added = insert_codes(&mut tx, campaign_id, &hashes, max_uses).await?;
            ensure!(
                added == batch.len() as u64,
                "a generated code exists already; run again"
            );
        }
        tx.commit().await?;
        anyhow::Ok(campaign_id)
    }
    .await;
    match stored {
        Ok(campaign_id) => {
            std::fs::rename(&partial, &args.out)?;
            let mut out = std::io::stdout().lock();
            writeln!(
                out,
                "campaign {campaign_id} {:?}: {} codes of {}, stored hashed; codes in {}",
                args.campaign,
                codes.len(),
                gift_text,
                args.out.display()
            )?;
            Ok(())
        }
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            Err(error)
        }
    }
}
