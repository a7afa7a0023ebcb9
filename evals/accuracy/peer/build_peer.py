"""Regenerate a peer suite under ``evals/accuracy/peer/data/`` from an upstream checkout (never committed).

Usage::

    python evals/accuracy/peer/build_peer.py SUITE UPSTREAM_PATH [--commit SHA]
    python evals/accuracy/peer/build_peer.py --list

``UPSTREAM_PATH`` is a git checkout, a bare git dir (what the ``fetch`` tool leaves under ``/work/.mirror``)
or a plain copy (then ``--commit`` is required, for the attribution). Files are read at ``--commit``
(default ``HEAD``) with ``git show``; upstream code is parsed with ``ast`` and never imported or run. The
output is deterministic: ``data/<suite>.jsonl`` (one case a line, file order) and
``data/<suite>.manifest.json`` (repository, commit, counts per file, every assert that was not read and why).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # evals/accuracy, for ``import peer``

from peer.sources import SOURCES
from peer.upstream import Upstream, UpstreamError

DATA = Path(__file__).resolve().parent / "data"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", nargs="?", choices=sorted(SOURCES))
    ap.add_argument(
        "upstream", nargs="?", help="checkout, bare git dir or plain copy of the upstream repository"
    )
    ap.add_argument("--commit", default=None, help="commit to read (default HEAD; required for a plain copy)")
    ap.add_argument("--out", type=Path, default=DATA, help=f"output folder (default {DATA})")
    ap.add_argument("--list", action="store_true", help="list the suites and their upstream repositories")
    args = ap.parse_args(argv)
    if args.list or not args.suite:
        for s in SOURCES.values():
            print(f"{s.suite:15s} github.com/{s.repo}  ({s.licence})\n{'':15s} {s.about}")
        return 0 if args.list else 2
    if not args.upstream:
        print(
            f"build_peer: give the path of a {SOURCES[args.suite].repo} checkout or git dir", file=sys.stderr
        )
        return 2
    source = SOURCES[args.suite]
    try:
        up = Upstream.open(args.upstream, args.commit)
        rows, manifest = source.build(up)
    except (UpstreamError, OSError, SyntaxError, LookupError) as e:
        print(f"build_peer: {source.suite}: {e}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / f"{source.suite}.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    manifest = {
        "suite": source.suite,
        "repo": source.repo,
        "commit": up.commit,
        "licence": source.licence,
        "about": source.about,
        **manifest,
    }
    (args.out / f"{source.suite}.manifest.json").write_text(
        json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(
        f"{source.suite}: {manifest['cases']} cases ({manifest['true']} true, {manifest['false']} false) "
        f"from {source.repo}@{up.commit[:12]}; {len(manifest['skipped'])} entries not read (see the "
        f"manifest) -> {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
