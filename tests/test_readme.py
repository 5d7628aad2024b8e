"""The README as a newcomer follows it: its list of classics names every classic shipped in
examples/classics/, and each file a command of its reads (a record to replay) an earlier command
of its writes."""

from __future__ import annotations

import re

from conftest import EXAMPLES, ROOT

README = (ROOT / "README.md").read_text()


def test_the_readme_names_every_classic():
    """Love Letter and Go Fish were once missing: each classic's game name is in the README's list."""
    start = README.index("`examples/classics/` (")
    listed = README[start : README.index(")", start)]
    names = [
        re.search(r'^game "(.*)"$', f.read_text(), re.M)[1] for f in sorted((EXAMPLES / "classics").glob("*.rules"))
    ]
    missing = [name for name in names if name not in listed]
    assert not missing, f"README's classics list lacks {missing}"


def test_every_record_a_readme_command_reads_an_earlier_command_writes():
    """`ruleset replay games.jsonl --seat 2` once needed a record no earlier command had made."""
    commands = re.findall(r"^(?:pip install .*&& )?(ruleset .*?)(?:\s+#.*)?$", README.replace("\\\n", " "), re.M)
    written: set[str] = set()
    for command in commands:
        words = command.split()
        for read in (w for w in words if w.endswith(".jsonl")):
            if words[words.index(read) - 1] == "--record":
                written.add(read)
            else:
                assert read in written, f"`{command}` reads {read}, which no earlier README command writes"
    assert "games.jsonl" in written
