"""What the commands print on a terminal: rich tables, colours and progress bars; plain text when
the stream is not a terminal, when NO_COLOR is set or TERM is dumb (what scripts and tests read).

rich is imported only when something is drawn with it, so that `ruleset --help` starts at once.
JSON output never comes through here: it is written as it is.
"""

from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Callable
from typing import IO, Any

from ..simulation.table import Block, Table, plain


def styled(stream: IO[str]) -> bool:
    """Whether to draw with rich on ``stream``: a terminal, NO_COLOR not set, TERM not dumb."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def console(stream: IO[str]) -> Any:
    """A rich Console writing to ``stream`` (rich imported here, on first use)."""
    from rich.console import Console

    return Console(file=stream, highlight=False, soft_wrap=False)


# A message line's parts and their colours: the position, the severity, the hint, the caret.
MESSAGE_STYLES = (
    (r"^\S+:\d+:\d+:", "bold"),
    (r"\berror:", "bold red"),
    (r"\bwarning:", "bold yellow"),
    (r"\binfo:", "blue"),
    (r"^\s+hint:", "cyan"),
    (r"^\s+\^$", "bold red"),
    (r"\b\d+ errors?\b", "red"),
    (r"\b\d+ warnings?\b", "yellow"),
    (r"^note:", "yellow"),
    (r"^interrupted", "bold yellow"),
)


# A change of `diff`: added, removed, changed, and the note under it.
DIFF_STYLES = ((r"^added\b", "green"), (r"^removed\b", "red"), (r"^changed\b", "yellow"), (r"^\s+note:.*", "dim"))


# The table at the terminal (`ruleset play`): headers, your moves, what the rules did, the scores.
PLAY_STYLES = (
    (r"^===.*===$", "bold"),
    (r"^--- .* ---$", "bold cyan"),
    (r"^  you: .*", "green"),
    (r"^  (you take|seat \d+ takes) .*", "yellow"),
    (r"^revealed: [^:]*:", "magenta"),
    (r"^your (hand|moves):", "bold"),
    (r"^your (only )?move, .*", "bold green"),
    (r"\b(total|this round)$", "bold"),
)


class StyledLines:
    """A text stream that colours each line it is given with ``styles`` on a terminal (as
    ``message`` does) and passes the text through unchanged elsewhere."""

    def __init__(self, stream: IO[str], styles: tuple[tuple[str, str], ...]) -> None:
        self.stream, self.styles, self.on = stream, styles, styled(stream)

    def write(self, text: str) -> int:
        """Write text; whole lines are coloured."""
        if not self.on:
            return self.stream.write(text)
        lines = text.split("\n")
        for i, line in enumerate(lines):
            end = "\n" if i < len(lines) - 1 else ""
            if line or end:
                message_line(line, self.stream, self.styles, end)
        return len(text)

    def flush(self) -> None:
        """Flush the stream beneath."""
        self.stream.flush()


def message_line(line: str, stream: IO[str], styles: tuple[tuple[str, str], ...], end: str = "\n") -> None:
    """One line coloured with ``styles`` (rich imported here)."""
    from rich.text import Text

    shown = Text(line)
    for pattern, style in styles:
        shown.highlight_regex(pattern, style)
    console(stream).print(shown, soft_wrap=True, end=end)


def message(text: str, stream: IO[str] | None = None, styles: tuple[tuple[str, str], ...] = MESSAGE_STYLES) -> None:
    """Print an error, a warning or a report of findings: coloured by severity on a terminal
    (or by other ``styles``: regular expressions and the rich style of what they match)."""
    stream = stream or sys.stderr
    if not styled(stream):
        print(text, file=stream)
        return
    for line in text.split("\n"):  # (soft wrap: the terminal wraps, as it would plain text; carets stay put)
        message_line(line, stream, styles)


def blocks(items: list[Block], stream: IO[str] | None = None) -> None:
    """Print lines and tables: rich tables on a terminal, aligned plain columns elsewhere."""
    stream = stream or sys.stdout
    if not styled(stream):
        print(plain(items), file=stream)
        return
    out = console(stream)
    for item in items:
        if not isinstance(item, Table):
            out.print(item, markup=False)
            continue
        if needed_width(item) <= out.width:
            out.print(rich_table(item))
        else:  # too wide for this terminal: aligned plain columns rather than cut cells
            out.print("\n".join(item.lines()), markup=False, crop=False, soft_wrap=True)


def needed_width(table: Table) -> int:
    """The terminal width a table needs without cutting a cell (a last column of words may wrap)."""
    cells = [[c.name for c in table.columns], *table.rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]
    if not table.columns[-1].right:
        widths[-1] = min(widths[-1], 20)
    return sum(widths) + 3 * len(widths)


def rich_table(table: Table) -> Any:
    """A Table as rich draws it: a title, a header row, right-aligned numbers, marked cells bold."""
    from rich import box
    from rich.table import Table as RichTable
    from rich.text import Text

    out = RichTable(title=table.title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    last = len(table.columns) - 1
    for i, column in enumerate(table.columns):  # (only a last column of words may wrap)
        wrap = i == last and not column.right
        out.add_column(column.name, justify="right" if column.right else "left", no_wrap=not wrap)
    for row in table.rows:
        out.add_row(*(Text(cell, style="bold" if cell.rstrip().endswith("*") else "") for cell in row))
    if table.note:
        out.caption, out.caption_justify = table.note, "left"
    return out


def syntax(text: str, lexer: Any, stream: IO[str] | None = None) -> None:
    """Print source text, coloured with a Pygments lexer on a terminal, as it is elsewhere."""
    stream = stream or sys.stdout
    if not styled(stream):
        stream.write(text)
        return
    from rich.syntax import Syntax

    shown = Syntax(text, lexer, theme="ansi_dark", background_color="default").highlight(text)
    shown.rstrip()
    console(stream).print(shown, soft_wrap=True)  # (whole lines, never cut at the terminal's width)


def markdown(text: str, stream: IO[str] | None = None) -> None:
    """Print markdown, drawn as a page on a terminal, as it is elsewhere."""
    stream = stream or sys.stdout
    if not styled(stream):
        stream.write(text)
        return
    from rich.markdown import Markdown

    out = console(stream)
    try:
        with out.capture() as page:  # drawn whole first: a failure leaves nothing half-printed
            out.print(Markdown(text))
    except Exception:  # e.g. a broken Pygments plugin met while colouring a code block
        stream.write(text)
        return
    stream.write(page.get())


def done(text: str, stream: IO[str] | None = None) -> None:
    """Print a closing line of success (green on a terminal)."""
    stream = stream or sys.stdout
    if not styled(stream):
        print(text, file=stream)
        return
    console(stream).print(text, style="green", markup=False)


def progress_bar(enabled: bool, unit: str = "games") -> Callable[[int, int, float], None] | None:
    """A progress bar on stderr (only on a terminal), with the rate and the time left: rich's
    when styled, a plain line otherwise (NO_COLOR); None when disabled or not on a terminal."""
    if not enabled or not sys.stderr.isatty():
        return None
    if styled(sys.stderr):
        return _rich_bar(unit)

    def show(count: int, total: int, seconds: float) -> None:
        if seconds < 1 and count < total:
            return
        rate = count / seconds if seconds else 0.0
        left = (total - count) / rate if rate else 0.0
        width = 30
        filled = int(width * count / total) if total else width
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if count == total else ""
        sys.stderr.write(f"\r[{bar}] {count}/{total} {unit}  {rate:,.0f} {unit}/s  {left:,.0f}s left {end}")
        sys.stderr.flush()

    return show


def _rich_bar(unit: str) -> Callable[[int, int, float], None]:
    """rich's progress bar, started at the first report after a second and stopped at the last."""
    state: dict[str, Any] = {}

    def show(count: int, total: int, seconds: float) -> None:
        if "bar" not in state:
            if seconds < 1 and count < total:
                return
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            bar = Progress(
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(unit),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                console=console(sys.stderr),
                transient=False,
            )
            bar.start()
            atexit.register(bar.stop)  # (an interrupted run leaves the terminal as it found it)
            state["bar"], state["task"] = bar, bar.add_task("", total=total, rate="")
        rate = count / seconds if seconds else 0.0
        state["bar"].update(state["task"], completed=count, rate=f"{rate:,.0f} {unit}/s")
        if count >= total:
            state["bar"].stop()
            del state["bar"]

    return show
