"""bench/RESULTS.md: each benchmark writes its own section, in place of its previous one."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).parent / "RESULTS.md"


def replace_section(heading: str, text: str) -> None:
    """Remove the section that starts with `## heading` (up to the next `## `) and append
    `text`, which starts with that heading."""
    current = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    marker = f"\n## {heading}\n"
    if marker in current:
        start = current.index(marker)
        end = current.find("\n## ", start + len(marker))
        current = current[:start] + (current[end:] if end != -1 else "")
    RESULTS.write_text(current.rstrip("\n") + "\n" + text)
