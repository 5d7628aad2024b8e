"""Tables of figures as data, so that each command prints them as a terminal allows: aligned
plain columns (for files, pipes and tests) or rich tables (interpreter/commands/console.py)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Column:
    """A column's heading, and whether its cells are numbers (aligned right)."""

    name: str
    right: bool = False


@dataclass
class Table:
    """A titled table: columns, rows of cell texts, and a note under it."""

    columns: list[Column]
    rows: list[list[str]] = field(default_factory=list)
    title: str | None = None
    note: str | None = None

    def lines(self) -> list[str]:
        """The table as plain text: each column as wide as its widest cell, two spaces between."""
        cells = [[c.name for c in self.columns], *self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        out = [self.title] if self.title else []
        for row in cells:
            parts = [
                text.rjust(width) if column.right else text.ljust(width)
                for text, width, column in zip(row, widths, self.columns, strict=True)
            ]
            out.append("  ".join(parts).rstrip())
        if self.note:
            out.append(self.note)
        return out


# What a report is made of: lines of text and tables.
Block = str | Table


def plain(blocks: list[Block]) -> str:
    """A report as plain text."""
    out: list[str] = []
    for block in blocks:
        out.extend(block.lines() if isinstance(block, Table) else [block])
    return "\n".join(out)
