//! docs/game-contract/zones.md is the catalogue's zones, per product, as the migrations leave
//! them (and the development zones the launcher adds): a game team reads there what `zoneId`
//! an order may carry. `KID_WRITE_GAME_DOCS=1 cargo nextest run -p kid-recharge --test
//! game_docs` rewrites it after a catalogue change.

use std::fmt::Write as _;

use kid_platform::db;
use kid_recharge::{SERVICE, db::catalogue::seed_test_zones};
use sqlx::PgPool;

type Zone = (String, String, String, i64, String);

async fn zones(pool: &PgPool) -> Vec<Zone> {
    sqlx::query_as(
        "select p.code, p.name, p.coin_name, z.id, z.description
         from zone z join product p on p.code = z.product_code
         order by p.position, p.code, z.id",
    )
    .fetch_all(pool)
    .await
    .expect("zones")
}

fn render(catalogue: &[Zone], development: &[Zone]) -> String {
    let mut text = String::from(
        "<!-- Generated from the catalogue (migrations/recharge and the development launcher's \
         seed_test_zones) by services/recharge/tests/it/game_docs.rs; do not edit: run \
         `KID_WRITE_GAME_DOCS=1 cargo nextest run -p kid-recharge --test it game_docs`. -->\n\n\
         # Zones per product\n\n\
         An order's `zoneId` is one of its product's zones below: the id is your game's own server \
         (zone) id, and the name is what the player chose from. The portal sells only these; a new \
         server is added to the catalogue by the Kid portal team when you ask (see README.md, \
         \"Contact\"), before it opens.\n",
    );
    let mut product = "";
    for (code, name, coins, id, description) in catalogue {
        if code != product {
            product = code;
            let _ = write!(
                text,
                "\n## {name} (`{code}`), coins: {coins}\n\n| zoneId | name players see |\n|---|---|\n"
            );
        }
        let _ = writeln!(text, "| {id} | {description} |");
    }
    text.push_str(
        "\n## Development only\n\nThe development launcher and the tests add these to every product \
         (never in production), for the reference consumer (README.md, \"The reference consumer and \
         zone 99\"):\n\n| zoneId | name players see |\n|---|---|\n",
    );
    let first = development.first().map(|zone| zone.0.clone()).unwrap_or_default();
    for (_, _, _, id, description) in development.iter().filter(|zone| zone.0 == first) {
        let _ = writeln!(text, "| {id} | {description} |");
    }
    text
}

#[tokio::test]
async fn the_zone_table_is_the_catalogue() {
    let settings = kid_testing::isolated_settings().await.expect("settings");
    let pool = db::connect(&settings.database, SERVICE.schema)
        .await
        .expect("pool");
    db::migrate(&pool, SERVICE.schema, SERVICE.migrator)
        .await
        .expect("migrations");
    let catalogue = zones(&pool).await;
    assert!(catalogue.len() >= 3, "the catalogue has zones: {catalogue:?}");
    let mut conn = pool.acquire().await.expect("connection");
    seed_test_zones(&mut conn).await.expect("development zones");
    let development: Vec<Zone> = zones(&pool)
        .await
        .into_iter()
        .filter(|zone| !catalogue.contains(zone))
        .collect();
    let rendered = render(&catalogue, &development);

    let path = format!("{}/../../docs/game-contract/zones.md", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("KID_WRITE_GAME_DOCS").is_some() {
        std::fs::write(&path, &rendered).expect("write zones.md");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == rendered,
        "docs/game-contract/zones.md is not the catalogue: run \
         `KID_WRITE_GAME_DOCS=1 cargo nextest run -p kid-recharge --test it game_docs` and commit it"
    );
}
