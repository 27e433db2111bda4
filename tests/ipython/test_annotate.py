"""The annotated view: the embeddable fragment ``%%moshjit -a`` shows, and the page the CLI writes around it."""
from __future__ import annotations

import re
import textwrap

from moshjit.annotate import annotate_fragment, annotate_html
from moshjit.cli import main as cli_main

SOURCE = textwrap.dedent("""\
    from __future__ import annotations

    def loops(text: str, items: list[float], n: int, unknown: NotDefinedAnywhere = None):
        total = 0.0
        for ch in text:
            if ch.isdigit():
                total += 1.0
        for item in items:
            total += item
        for i in range(n):
            total += 2.0
        return total
""")


def load(tmp_path):
    path = tmp_path / "sample.py"
    path.write_text(SOURCE)
    namespace: dict = {}
    exec(compile(SOURCE, str(path), "exec", dont_inherit=True), namespace)
    return path, namespace["loops"]


def object_ops(page: str, line_text: str) -> int:
    found = re.search(re.escape(line_text) + r"</code> <small>\((\d+) object ops?\)", page)
    assert found, line_text
    return int(found.group(1))


def test_index_loops_are_native_and_object_work_is_counted(tmp_path):
    _, loops = load(tmp_path)
    page = annotate_fragment(loops)
    assert "text: str, items: list[object], n: int64, unknown: object" in page     # text annotations evaluated
    assert object_ops(page, "for ch in text:") == 0              # an index loop over the str's characters
    assert object_ops(page, "for i in range(n):") == 0
    assert object_ops(page, "for item in items:") == 1           # the item is a Python object
    assert object_ops(page, "total += item") >= 1
    assert object_ops(page, "total += 1.0") == 0


def test_signature_overrides_annotations(tmp_path):
    _, loops = load(tmp_path)
    assert "text: char, items: list[object], n: float, unknown: object" in \
        annotate_fragment(loops, ("char", list, float, object))


def test_fragment_styles_stay_inside_it(tmp_path):
    _, loops = load(tmp_path)
    fragment = annotate_fragment(loops)
    assert fragment.startswith('<div class="moshjit-annotate">') and fragment.rstrip().endswith("</div>")
    assert "<html" not in fragment and "<body" not in fragment
    style = re.search(r"<style>(.*?)</style>", fragment, re.S).group(1)
    selectors = [rule.split("{")[0] for rule in style.split("}") if rule.strip()]
    assert selectors and all(part.strip().startswith(".moshjit-annotate")
                             for selector in selectors for part in selector.split(","))


def test_the_cli_writes_the_page_around_the_fragment(tmp_path, capsys):
    path, loops = load(tmp_path)
    out = tmp_path / "out.html"
    assert cli_main(["annotate", f"{path}:loops", "-o", str(out), "--args", "str,list,int,None"]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert annotate_fragment(loops, (str, list, int, type(None))) in page
    assert page == annotate_html(loops, (str, list, int, type(None)))
    assert "   5     for ch in text:" in page                   # the file's own line numbers
