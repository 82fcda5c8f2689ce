fn main() -> anyhow::Result<()> {
    kid_platform::service::main(&kid_recharge::SERVICE)
}
