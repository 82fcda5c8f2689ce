fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        // The first admin of the support console, where no staff exists yet (production seeds
        // none): `kid-identity create-admin <username> <email>` mails the new admin their
        // enrolment link. Run it in the identity pod (`kubectl exec`), with the pod's settings.
        [command, username, email] if command == "create-admin" => {
            let runtime = kid_platform::service::runtime()?;
            let staff = runtime.block_on(kid_identity::create_admin(username, email))?;
            println!(
                "staff {} (admin) created; the enrolment link is mailed to {email} and works for {} hours",
                staff.row.username,
                kid_identity::app::staff::ENROLMENT_HOURS
            );
            Ok(())
        }
        [] => kid_platform::service::main(&kid_identity::SERVICE),
        _ => anyhow::bail!("usage: kid-identity [create-admin <username> <email>]"),
    }
}
