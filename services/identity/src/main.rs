fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        // The first admin of the support console, where no staff exists yet (production seeds
        // none): `kid-identity create-admin <username>` prints the password and authenticator
        // secret once. Run it in the identity pod (`kubectl exec`), with the pod's settings.
        [command, username] if command == "create-admin" => {
            let created = kid_platform::service::runtime()?.block_on(kid_identity::create_admin(username))?;
            println!("staff {} (admin) created", created.staff.row.username);
            println!("password: {}", created.password);
            println!("authenticator secret: {}", created.totp_secret);
            println!("otpauth: {}", created.otpauth_url);
            Ok(())
        }
        [] => kid_platform::service::main(&kid_identity::SERVICE),
        _ => anyhow::bail!("usage: kid-identity [create-admin <username>]"),
    }
}
