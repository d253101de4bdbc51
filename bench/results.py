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


def _bounds(current: str, heading: str, sub: str) -> tuple[int, int, int] | None:
    """In `current`: where the section `## heading` ends, and where its part `### sub` starts
    and ends (both at the section's end when it has no such part); None without the section."""
    marker = f"\n## {heading}\n"
    if marker not in current:
        return None
    start = current.index(marker)
    end = current.find("\n## ", start + len(marker))
    end = len(current) if end == -1 else end
    part = current.find(f"\n### {sub}\n", start, end)
    if part == -1:
        return end, end, end
    part_end = current.find("\n### ", part + 1, end)
    return end, part, end if part_end == -1 else part_end


def subsection(heading: str, sub: str) -> str:
    """The text of the part `### sub` of the section `## heading` ("" if there is none), to be
    kept when the section is written anew."""
    current = RESULTS.read_text() if RESULTS.exists() else ""
    found = _bounds(current, heading, sub)
    part = "" if found is None else current[found[1] : found[2]]
    return part.rstrip("\n") + "\n" if part.strip() else ""


def replace_subsection(heading: str, sub: str, text: str) -> None:
    """Put `text` (which starts with `### sub`) in place of the section's part `### sub`, or at
    the section's end; the section is added if there is none."""
    current = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    found = _bounds(current, heading, sub)
    if found is None:
        RESULTS.write_text(current.rstrip("\n") + f"\n\n## {heading}\n" + text)
        return
    end, part, part_end = found
    before = current[:part] + current[part_end:end]
    RESULTS.write_text(before.rstrip("\n") + "\n" + text + current[end:])
