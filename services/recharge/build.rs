// sqlx::migrate! embeds the migrations at compile time: rebuild when one is added or changed
// (what `sqlx migrate build-script` generates).
fn main() {
    println!("cargo:rerun-if-changed=../../migrations/recharge");
}
