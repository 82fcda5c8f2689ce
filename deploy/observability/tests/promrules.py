#!/usr/bin/env python3
"""Helpers of deploy/observability/tests/run (needs PyYAML).

  promrules.py extract DIR     reads manifests (several YAML documents) on stdin and writes the
                               groups of each PrometheusRule, as the plain rule file promtool
                               reads, to DIR/<metadata.name>.yaml
  promrules.py coverage DIR TEST...
                               checks that the tests name only alerts that exist, and that every
                               alert has a case where it fires (for each severity it has) and a
                               case where it stays quiet
  promrules.py runbooks DIR README
                               checks that every alert's runbook_url ends in #<alert name in
                               lower case> and that README has a section "### <alert name>"
"""

import pathlib
import sys

import yaml


def extract(out_dir: pathlib.Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for doc in yaml.safe_load_all(sys.stdin):
        if not doc or doc.get("kind") != "PrometheusRule":
            continue
        name = doc["metadata"]["name"]
        if name in written:
            sys.exit(f"two PrometheusRules named {name}")
        groups = doc.get("spec", {}).get("groups") or []
        (out_dir / f"{name}.yaml").write_text(yaml.safe_dump({"groups": groups}, sort_keys=False))
        written.append(name)
    if not written:
        sys.exit("no PrometheusRule in the input")
    print(" ".join(f"{name}.yaml" for name in written))


def coverage(rules_dir: pathlib.Path, tests: list[pathlib.Path]) -> None:
    severities: dict[str, set[str]] = {}
    rules = 0
    for path in sorted(rules_dir.glob("*.yaml")):
        for group in yaml.safe_load(path.read_text())["groups"]:
            for rule in group["rules"]:
                if "alert" in rule:
                    rules += 1
                    severity = (rule.get("labels") or {}).get("severity", "")
                    severities.setdefault(rule["alert"], set()).add(severity)

    fires: dict[str, set[str]] = {}
    quiet: set[str] = set()
    cases = 0
    errors = []
    for path in tests:
        for test in yaml.safe_load(path.read_text()).get("tests") or []:
            for case in test.get("alert_rule_test") or []:
                cases += 1
                name = case["alertname"]
                if name not in severities:
                    errors.append(f"{path.name}: no alert named {name}")
                    continue
                expected = case.get("exp_alerts") or []
                if expected:
                    for alert in expected:
                        fires.setdefault(name, set()).add((alert.get("exp_labels") or {}).get("severity", ""))
                else:
                    quiet.add(name)

    for name in sorted(severities):
        missing = severities[name] - fires.get(name, set())
        if missing:
            errors.append(f"{name}: no test where it fires with severity {', '.join(sorted(missing))}")
        if name not in quiet:
            errors.append(f"{name}: no test where it stays quiet")
    if errors:
        sys.exit("\n".join(errors))
    print(f"{len(severities)} alerts ({rules} alerting rules), {cases} alert test cases in "
          f"{len(tests)} files: each alert fires and stays quiet in at least one")


def runbooks(rules_dir: pathlib.Path, readme: pathlib.Path) -> None:
    sections = {line[4:].strip() for line in readme.read_text().splitlines() if line.startswith("### ")}
    errors = []
    for path in sorted(rules_dir.glob("*.yaml")):
        for group in yaml.safe_load(path.read_text())["groups"]:
            for rule in group["rules"]:
                name = rule.get("alert")
                if not name:
                    continue
                url = (rule.get("annotations") or {}).get("runbook_url", "")
                if not url.endswith("#" + name.lower()):
                    errors.append(f"{name}: runbook_url {url!r} does not end in #{name.lower()}")
                if name not in sections:
                    errors.append(f"{name}: no section '### {name}' in {readme}")
    if errors:
        sys.exit("\n".join(sorted(set(errors))))


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "extract":
        extract(pathlib.Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "runbooks":
        runbooks(pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]))
    elif len(sys.argv) >= 4 and sys.argv[1] == "coverage":
        coverage(pathlib.Path(sys.argv[2]), [pathlib.Path(p) for p in sys.argv[3:]])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
