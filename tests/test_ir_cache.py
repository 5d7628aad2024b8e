"""A rules file's IR is kept once built and read back by later loads (interpreter/language/ir_cache.py):
a load that reads it back gives what a build gives, IR, origin, remembered texts and names alike;
it is never out of date (a base edited, moved or shadowed, another front-end); a damaged, missing
or unwritable cache is a build, never an error; a ruleset with errors is never kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import EXAMPLES, RULESETS, run_cli
from interpreter import errors
from interpreter.errors import RulesetError
from interpreter.language import ir_cache, resolve
from interpreter.loader import ir_from_path

EVERY = sorted(RULESETS.glob("*.rules")) + sorted((EXAMPLES / "classics").glob("*.rules"))
VARIANTS = [EXAMPLES / "poison-kedric-winks-house-agendas.rules", EXAMPLES / "poison-bitter.rules"]


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """A cache folder of this test's own, empty, with the cache on; builds counted in ``builds``."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESET_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULESET_NO_CACHE", raising=False)
    builds.clear()
    built = resolve.resolve

    def counted(program, *args):
        builds.append(program)
        return built(program, *args)

    monkeypatch.setattr(resolve, "resolve", counted)
    return folder


builds: list = []


def entries(folder: Path) -> list[Path]:
    return sorted((folder / "ir").glob("*.json"))


def loaded(path: Path, monkeypatch) -> tuple[str, dict, dict]:
    """The IR of ``path`` (as its repr: a tuple is not a list, 1 is not 1.0), and what the load left
    behind for messages: the texts remembered to quote, the names files are shown by."""
    monkeypatch.setattr(errors, "_SOURCES", {})
    monkeypatch.setattr(errors, "_SHOWN", {})
    return repr(ir_from_path(path)), dict(errors._SOURCES), dict(errors._SHOWN)


@pytest.mark.parametrize("path", EVERY + VARIANTS, ids=lambda p: p.name)
def test_a_kept_ir_is_the_built_one(path, cache, monkeypatch):
    """Every shipped ruleset, classic and variant: the second load reads the IR back (nothing is
    resolved) and gives the same IR, origin included, and leaves the same texts and names behind."""
    built = loaded(path, monkeypatch)
    assert len(builds) == 1 and len(entries(cache)) == 1
    kept = loaded(path, monkeypatch)
    assert len(builds) == 1, "built again"
    assert kept == built


def test_a_shipped_base_named_by_its_name_is_shown_by_it(tmp_path, cache, monkeypatch):
    """A variant that extends a shipped ruleset by its name: read back, its messages still name the
    base as the user knows it (``poison.rules``), not where the package is installed."""
    variant = tmp_path / "mine.rules"
    variant.write_text('extends "poison"\ngame "Mine"\n\nparam limit = 11\n')
    built = loaded(variant, monkeypatch)
    assert "poison.rules" in built[2].values()
    assert loaded(variant, monkeypatch) == built and len(builds) == 1


def variant_of(folder: Path, limit: int) -> Path:
    """A base (Poison, its limit ``limit``) and a variant of it in ``folder``."""
    text = (RULESETS / "poison.rules").read_text()
    (folder / "base.rules").write_text(text.replace("param limit = 13", f"param limit = {limit}"))
    variant = folder / "variant.rules"
    variant.write_text('extends "base.rules"\ngame "Variant"\n\nparam rounds = 1\n')
    return variant


def limit_of(ir: dict) -> int:
    return next(p["default"]["value"] for p in ir["params"] if p["name"] == "limit")


def test_editing_a_base_gives_the_new_ir(tmp_path, cache, monkeypatch):
    variant = variant_of(tmp_path, 13)
    assert limit_of(ir_from_path(variant)) == 13
    (tmp_path / "base.rules").write_text((tmp_path / "base.rules").read_text().replace("= 13", "= 17"))
    assert limit_of(ir_from_path(variant)) == 17 and len(builds) == 2
    assert limit_of(ir_from_path(variant)) == 17 and len(builds) == 2  # (the new IR is kept in turn)


def test_a_chain_of_bases_reads_back_as_built(tmp_path, cache, monkeypatch):
    """A variant of a variant: its origin's digest covers the file, then each base in order."""
    variant_of(tmp_path, 13)
    (tmp_path / "again.rules").write_text('extends "variant.rules"\ngame "Again"\n\nparam limit = 15\n')
    built = loaded(tmp_path / "again.rules", monkeypatch)
    assert len(built[1]) == 3
    assert loaded(tmp_path / "again.rules", monkeypatch) == built and len(builds) == 1


def test_a_base_gone_or_shadowed_is_found_again(tmp_path, cache, monkeypatch):
    """A base that is gone is the build's error, not a kept IR; a file put where `extends` looks
    before the shipped rulesets is the base from then on."""
    variant = variant_of(tmp_path, 13)
    ir_from_path(variant)
    (tmp_path / "base.rules").unlink()
    with pytest.raises(RulesetError, match=r"base file base\.rules not found"):
        ir_from_path(variant)
    variant.write_text('extends "poison"\ngame "Variant"\n')
    assert where_limit(ir_from_path(variant)) == str(RULESETS / "poison.rules")  # the shipped Poison, by its name
    (tmp_path / "poison").write_text((RULESETS / "poison.rules").read_text())  # (the same text, elsewhere)
    assert where_limit(ir_from_path(variant)) == str(tmp_path / "poison")


def where_limit(ir: dict) -> str:
    """The file the limit parameter was read from."""
    return next(p["default"]["at"] for p in ir["params"] if p["name"] == "limit").rsplit(":", 2)[0]


def test_a_damaged_entry_is_built_again_and_replaced(cache, monkeypatch):
    path = RULESETS / "poison.rules"
    built = loaded(path, monkeypatch)
    (entry,) = entries(cache)
    for damage in ('{"format": 1, "text": ', "garbage", "", '{"ir": [], "bases": 3}', "\x00\xff"):
        entry.write_text(damage, "latin-1")
        assert loaded(path, monkeypatch) == built
        assert json.loads(entry.read_text())["ir"]  # written anew, whole


def test_a_cache_that_cannot_be_written_still_loads(tmp_path, monkeypatch):
    """A cache folder that cannot be made (its parent is a file) or read: each load builds."""
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("RULESET_CACHE_DIR", str(tmp_path / "file" / "cache"))
    path = RULESETS / "poison-kedric-winks.rules"
    assert ir_from_path(path) == ir_from_path(path)


def test_another_front_end_does_not_read_this_ones_ir(cache, monkeypatch):
    path = RULESETS / "poison.rules"
    ir_from_path(path)
    monkeypatch.setattr(ir_cache, "code_digest", lambda: "another front-end")
    ir_from_path(path)
    assert len(builds) == 2 and len(entries(cache)) == 2


def test_the_code_digest_reads_the_grammar_and_the_front_end(tmp_path, monkeypatch):
    """A change of the grammar's bytes (or of any file of the front-end) is another digest."""
    ours = ir_cache.code_digest.__wrapped__()
    assert ours == ir_cache.code_digest()
    grammar = tmp_path / "rules.lark"
    grammar.write_bytes(ir_cache.grammar_path().read_bytes() + b"\n// a comment\n")
    monkeypatch.setattr(ir_cache, "grammar_path", lambda: grammar)
    assert ir_cache.code_digest.__wrapped__() != ours


def test_a_ruleset_with_errors_is_never_kept(tmp_path, cache, monkeypatch):
    broken = tmp_path / "broken.rules"
    broken.write_text((RULESETS / "poison.rules").read_text() + "\ndefine bad = no_such_name + 1\n")
    messages = []
    for _ in range(2):
        with pytest.raises(RulesetError) as err:
            ir_from_path(broken)
        messages.append(err.value.format())
    assert "unknown name 'no_such_name'" in messages[0]
    assert messages[0] == messages[1] and len(builds) == 2
    assert entries(cache) == []


def test_no_cache_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("RULESET_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("RULESET_NO_CACHE", "1")
    ir_from_path(RULESETS / "poison.rules")
    assert not (tmp_path / "cache").exists()


def test_a_command_prints_the_same_from_a_kept_ir(tmp_path, monkeypatch):
    """Through the command, as a user runs it: `show` prints the same IR, built then read back."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULESET_CACHE_DIR", str(folder))
    monkeypatch.delenv("RULESET_NO_CACHE", raising=False)
    shown = [run_cli("show", str(RULESETS / "poison-five-card.rules"), "--format", "json") for _ in range(2)]
    assert shown[0].returncode == 0 and shown[0].stdout == shown[1].stdout
    assert len(entries(folder)) == 1


def test_the_cache_keeps_at_most_its_bound_the_least_recently_used_going_first(tmp_path, cache, monkeypatch):
    """Past ``KEEP`` entries, a store deletes those used least recently: a ruleset read back (a hit)
    stays, one neither built nor read since goes; what is deleted is only built again."""
    monkeypatch.setattr(ir_cache, "KEEP", 3)
    text = (EXAMPLES / "classics" / "war.rules").read_text()
    paths = []
    for i in range(5):
        p = tmp_path / f"game{i}.rules"
        p.write_text(text)
        paths.append(p)
    clock = iter(range(1_000, 2_000, 10))
    real_utime = ir_cache.os.utime

    def ticking(where, *args, **kw):  # each touch a distinct, later time (file times may be coarse)
        t = next(clock)
        real_utime(where, (t, t))

    monkeypatch.setattr(ir_cache.os, "utime", ticking)
    for p in paths[:3]:
        ir_from_path(p)
        ticking(ir_cache._entry(p))  # built in this order, each a tick after the last
    ir_from_path(paths[0])  # read back: used most recently now
    assert len(builds) == 3 and len(entries(cache)) == 3
    ir_from_path(paths[3])  # a fourth entry: the least recently used (paths[1]) goes
    ticking(ir_cache._entry(paths[3]))
    assert len(entries(cache)) == 3
    assert not ir_cache._entry(paths[1]).exists()
    assert all(ir_cache._entry(p).exists() for p in (paths[0], paths[2], paths[3]))
    ir_from_path(paths[0])
    assert len(builds) == 4  # still kept: read back, not built
    ir_from_path(paths[1])
    assert len(builds) == 5 and len(entries(cache)) == 3  # built again, and the folder still bounded


def test_pruning_a_folder_at_or_under_its_bound_deletes_nothing(tmp_path):
    for i in range(3):
        (tmp_path / f"{i}.json").write_text("{}")
    ir_cache.prune(tmp_path, keep=3)
    assert len(list(tmp_path.glob("*.json"))) == 3
    ir_cache.prune(tmp_path, keep=1)
    assert len(list(tmp_path.glob("*.json"))) == 1
