//! One build script for every service's protos. `protox` parses them in pure Rust, so the
//! build needs no `protoc` on the machine.

use std::path::PathBuf;

const SERVICES: [&str; 5] = ["identity", "wallet", "payment", "recharge", "staff"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Read when the script runs, not when it was compiled: one compiled script serves every
    // clone that shares the target directory, each with its own protos.
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let files: Vec<PathBuf> = SERVICES
        .iter()
        .map(|service| root.join(format!("kid/{service}/v1/{service}_service.proto")))
        .collect();
    let descriptors = protox::compile(&files, [&root])?;
    tonic_prost_build::configure()
        // RPCs a service has not built yet answer UNIMPLEMENTED instead of failing to compile.
        .generate_default_stubs(true)
        .compile_fds(descriptors)?;
    println!("cargo:rerun-if-changed=kid");
    Ok(())
}
