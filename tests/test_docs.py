"""The docs do what they say: their runnable commands run, their links lead somewhere.

A command block in README.md or docs/*.md is run when the line before it is
`<!-- runnable -->` (or `<!-- runnable: contains "TEXT" -->`, which also checks
the output); it runs from the checkout's top folder with bash, every line
having to succeed. Blocks that need a board, a display or minutes stay
unmarked. Every relative link (Markdown links and images) must name a file or
folder of the checkout, and a `#fragment` into a Markdown file one of its
headings.
"""

import glob
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
MARKER = re.compile(
    r'^<!-- runnable(?:: contains "(?P<text>[^"]*)")? -->\n```(?:sh|bash|console)\n(?P<code>.*?)^```', re.M | re.S
)
FENCE = re.compile(r"^(`{3,}).*?^\1", re.M | re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def name(path):
    return os.path.relpath(path, ROOT)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def runnable_blocks():
    blocks = []
    for page in PAGES:
        text = read(page)
        for _n, match in enumerate(MARKER.finditer(text)):
            line = text.count("\n", 0, match.start()) + 2
            blocks.append(pytest.param(match.group("code"), match.group("text"), id="%s:%d" % (name(page), line)))
    return blocks


def test_the_pages_have_runnable_commands():
    # The marker is what this file looks for: a typo in it would leave every block unrun, silently.
    assert len(runnable_blocks()) >= 5
    for page in PAGES:
        for line in read(page).splitlines():
            if "runnable" in line and line.startswith("<!--"):
                assert re.fullmatch(r'<!-- runnable(?:: contains "[^"]*")? -->', line), (name(page), line)


@pytest.mark.parametrize("code,expected", runnable_blocks())
def test_a_runnable_command_runs(code, expected):
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, "exit %d\n%s\n%s" % (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    if expected:
        assert expected in done.stdout, done.stdout[-2000:]


def anchors(text):
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to hyphens."""
    found = set()
    for heading in re.findall(r"^#{1,6}\s+(.*)$", FENCE.sub("", text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", "")).replace(" ", "-")
        found.add(slug)
    return found


def links():
    found = []
    for page in PAGES:
        text = FENCE.sub("", read(page))  # links inside code blocks are examples, not links
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
                continue
            found.append(pytest.param(page, target, id="%s->%s" % (name(page), target)))
    return found


@pytest.mark.parametrize("page,target", links())
def test_a_relative_link_leads_to_a_file_of_the_checkout(page, target):
    path, _, fragment = target.partition("#")
    path = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
    assert os.path.exists(path), "%s links to %s, which does not exist" % (name(page), target)
    if fragment and path.endswith(".md"):
        assert fragment in anchors(read(path)), "%s links to #%s, not a heading of %s" % (
            name(page),
            fragment,
            name(path),
        )


def test_the_readme_starts_with_the_two_commands_and_stays_one_page():
    text = read(os.path.join(ROOT, "README.md"))
    first = FENCE.search(text).group(0).splitlines()
    assert first[1].startswith("python3 tasks.py sim") and first[2].startswith("python3 tasks.py test"), first
    assert len(text.splitlines()) <= 200


def bench_tasks():
    import importlib.util

    spec = importlib.util.spec_from_file_location("tasks", os.path.join(ROOT, "tasks.py"))
    tasks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tasks)
    return tasks


def command_of(tasks, entry):
    return " ".join((".venv/bin/python", "benchmarks/" + entry[0]) + entry[1:])


def test_performance_md_is_the_benchmarks_output_with_how_to_reproduce_it():
    tasks = bench_tasks()
    text = read(tasks.PERFORMANCE)
    commands = {command_of(tasks, entry) for entry in tasks.BENCHMARKS}
    sections = tasks.read_sections()
    assert sections, "docs/performance.md has no benchmark's section: run `python3 tasks.py bench`"
    for command, body in sections.items():
        assert command in commands, "a section for %s, which tasks.py's BENCHMARKS does not run" % command
        assert "```sh\n%s\n```" % command in body and re.search(r"Run \d{4}-\d\d-\d\d .* at commit \w+", body), command
        assert "```text\n" in body, command
    for command in commands - set(sections):  # not run yet: said so
        assert "- `%s`" % command in text


def test_a_bench_run_of_one_benchmark_keeps_the_sections_of_the_others(tmp_path, monkeypatch):
    tasks = bench_tasks()
    monkeypatch.setattr(tasks, "PERFORMANCE", str(tmp_path / "performance.md"))
    first, second = tasks.BENCHMARKS[0], tasks.BENCHMARKS[1]
    monkeypatch.setattr(tasks, "machine", lambda: "a test machine")
    sections = {command_of(tasks, first): tasks.section(first, command_of(tasks, first), "figures 1\n", 1.0)}
    tasks.write_performance(sections)
    sections = tasks.read_sections()
    sections[command_of(tasks, second)] = tasks.section(second, command_of(tasks, second), "figures 2\n", 2.0)
    tasks.write_performance(sections)
    text = (tmp_path / "performance.md").read_text()
    assert "```text\nfigures 1\n```" in text and "```text\nfigures 2\n```" in text
    assert text.index("figures 1") < text.index("figures 2")  # in BENCHMARKS' order
    assert "- `%s`" % command_of(tasks, first) not in text and "- `%s`" % command_of(tasks, tasks.BENCHMARKS[2]) in text
    assert "## " + tasks.about(first[0])[0].rstrip(".") + "\n" in text  # the benchmark's own title


def test_performance_md_opens_with_the_targets_figures_read_from_its_sections():
    """The summary is made from the benchmarks' own rows: rewritten with them, never by hand."""
    tasks = bench_tasks()
    with open(tasks.PERFORMANCE) as f:
        text = f.read()
    rows = tasks.summary(tasks.read_sections())
    assert "\n".join(rows) in text.split("<!-- bench: ", 1)[0]
    measured = [row for row in rows[2:] if "not measured" not in row]
    assert measured, "no figure of the summary was found in its section"


def test_the_summary_reads_the_row_it_names(tmp_path, monkeypatch):
    tasks = bench_tasks()
    body = "```text\nheap free with the device booted (drivers)   12345 B\nother  1 B\n```"
    assert tasks.figure({tasks.PICO: body}, tasks.PICO, "heap free with the device booted") == "12345 B"
    assert tasks.figure({tasks.PICO: body}, tasks.PICO, "tap released") is None
    assert tasks.figure({}, tasks.PICO, "heap free") is None


def test_a_missed_figure_says_what_holds_it_as_its_benchmark_printed_it():
    """A summary row that misses its target quotes the line its benchmark printed about what holds it (the
    heap map's modules at that point, the profile's slowest); a row that meets it says nothing more."""
    tasks = bench_tasks()
    pico = "```text\nheap free with the device booted (drivers)   135328 B\nlowest heap free during a full 4-player battleworld game (x)   120000 B\n```"
    heap_map = (
        "```text\nstart menu: 106528 B held\n  h other   88208 B\n  modules held: 40, 54495 B of .mpy; the largest ui.flow 6056\n"
        "\nlow battleworld after action 39: 125760 B held\n  modules held: 50, 60000 B of .mpy; the largest x 1\n```"
    )
    rows = tasks.summary({tasks.PICO: pico, tasks.PICO_MAP: heap_map})
    start = next(row for row in rows if row.startswith("| heap free at the start menu, Pico |"))
    assert "| modules held: 40, 54495 B of .mpy; the largest ui.flow 6056 |" in start
    battleworld = next(row for row in rows if row.startswith("| lowest heap free, a 4-player Battleworld game"))
    assert "| 120000 B | >= 100,000 B |  |" in battleworld  # met: nothing said
    pico = pico.replace("120000 B", "90000 B")  # missed: the map's line at that game's lowest
    rows = tasks.summary({tasks.PICO: pico, tasks.PICO_MAP: heap_map})
    battleworld = next(row for row in rows if row.startswith("| lowest heap free, a 4-player Battleworld game"))
    assert "| 90000 B | >= 100,000 B | modules held: 50, 60000 B of .mpy; the largest x 1 |" in battleworld
    assert tasks.missed("22.9 / 155.2 ms", "<= 25 / 50 ms") and not tasks.missed("22.9 / 45.0 ms", "<= 25 / 50 ms")
    assert not tasks.missed("4790 us", "<= 50 ms with its cut")


def test_the_longest_pass_says_its_slowest_pass_and_the_floor_an_import_sets():
    """A blind pass over its target names the slowest pass the profile printed, then what one import at
    idle costs on the chip (--imports: the lookups 4 folders deep, the load per KB), the two together."""
    tasks = bench_tasks()
    pico = (
        "```text\nlongest the main loop went without polling the buttons (example games)   79.5 ms\n"
        "  passes over 20 ms without polling the buttons (example games)   474\n"
        "    79.5 ms in battlerealm, after line 5: keys caac\n```"
    )
    imports = (
        "```text\nan import's own lookups, 1 folder deep (a folder of its name): dicetower/device   6.0 ms\n"
        "an import's own lookups, 4 folders deep (a folder of its name): dicetower/core/x/y/z   21.5 ms\n"
        "  dicetower.core.games.battlerealm.tracker (7947 B)   77.9 ms\n"
        "  beyond its lookups and its read, an import's load and run per KB of .mpy (the median of 11)   6.5 ms\n```"
    )

    def row(sections):
        return next(r for r in tasks.summary(sections) if r.startswith("| longest loop pass"))

    both = row({tasks.PICO: pico, tasks.PICO_IMPORTS: imports})
    assert (
        "| 79.5 ms in battlerealm, after line 5: keys caac; an import 4 folders deep (a game's module) is 21.5 ms "
        "of the flash's lookups, then 6.5 ms a KB of .mpy |" in both
    )
    assert "| 79.5 ms in battlerealm, after line 5: keys caac |" in row({tasks.PICO: pico})  # no --imports run yet
