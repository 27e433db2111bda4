"""The BERT benchmark and ``make demo`` on the shipped slice: engines checked against CPython, table and chart
written, Numba's refusals reported, wrong output caught, HF differences explained, the demo end to end."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("MOSHJIT_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"moshjit-test-cache-{os.getuid()}"))

from benchmarks.bert import bench, cythonize_pipeline, data, engines, pipeline  # noqa: E402  (bench sets tokenizers' env)

DATA = Path(__file__).resolve().parent / "data"
REPO = Path(__file__).resolve().parents[2]
SLICE = ["--corpus", str(DATA / "corpus_slice.txt"), "--vocab", str(DATA / "vocab.txt")]


def test_bench_on_a_tiny_subset_writes_the_table_and_the_chart(tmp_path, capsys):
    doc, chart = tmp_path / "bench.md", tmp_path / "chart.png"
    status = bench.main(SLICE + ["--limit", "40", "--rounds", "1", "--engines", "cpython,jit-cython,jit-llvm,tokenizers",
                                 "--no-cold", "--doc", str(doc), "--chart", str(chart)])
    assert status == 0
    table = doc.read_text()
    rows = {line.split(" | ")[0].lstrip("| "): line for line in table.splitlines() if line.startswith("| ")}
    assert rows["CPython (plain pipeline.py)"].split(" | ")[2] == "1.00×"
    jitted = rows["@jit, backend='cython'"].split(" | ")
    assert float(jitted[1].replace(",", "")) > 0 and jitted[-1].strip(" |") == "equal"
    assert jitted[4] != "—"                                  # cached load measured in a second process
    llvm = rows["@jit, backend='llvm'"]
    assert "not available" in llvm or llvm.rstrip(" |").endswith("equal")
    assert rows["HF tokenizers (Rust, 1 thread)"].rstrip(" |").endswith("equal")
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| engine | tokens/s |" in capsys.readouterr().out


def test_an_engine_with_wrong_output_is_reported_and_not_trusted(vocab, slice_lines):
    batches = bench.batches_of(slice_lines[:64])
    expected = bench.run_all(pipeline.encode_batch, batches, vocab)

    def off_by_one(texts, vocab):
        batch = pipeline.encode_batch(texts, vocab)
        batch["input_ids"][-1][-1] += 1
        return batch

    correct, check = bench.check_engine(engines.Engine("jit-cython", off_by_one), batches, expected, vocab, None)
    assert not correct and check == "WRONG: 2 of 2 batches differ from CPython"


def test_tokenizers_differences_are_explained_by_the_documented_rules(vocab, explainer):
    batches = [["ΟΔΟΣ ΚΑΙ", "hello"], ["plain text"]]
    expected = bench.run_all(pipeline.encode_batch, batches, vocab)
    reference = engines.tokenizers_engine(vocab, ["warm up"])
    correct, check = bench.check_engine(reference, batches, expected, vocab, explainer)
    assert correct
    assert check == ("equal except documented differences: 1 rows final sigma, "
                     "1 rows padding of a batch holding a differing row")


def test_numba_compiles_what_it_can_and_says_why_it_refuses_the_rest(vocab, slice_lines):
    sample = slice_lines[:4]
    engine = engines.numba_engine(vocab, sample, cache=False, functions=[
        "is_whitespace", "is_cjk", "tokenize_cjk", "clean_text", "truncate_pair", "wordpiece"])
    assert engine.details["compiled"] == ["is_cjk", "tokenize_cjk"]
    assert engine.details["refused"] == {
        "is_whitespace": "unicodedata.category is not supported",
        "clean_text": "calls is_control(), a plain Python function",
        "wordpiece": "a Python dict argument (the vocab) cannot be typed",
        "truncate_pair": "an empty list argument cannot be typed",
    }
    assert engine.run(slice_lines[:50], vocab) == pipeline.encode_batch(slice_lines[:50], vocab)


def test_cython_compiles_an_unchanged_py_file_once(tmp_path, monkeypatch):
    monkeypatch.setenv(data.DATA_DIR_ENV, str(tmp_path / "data"))
    source = tmp_path / "plain.py"
    source.write_text("import unicodedata\n\ndef categories(text):\n"
                      "    return [unicodedata.category(ch) for ch in text]\n")
    so_path, facts = cythonize_pipeline.ensure_built(source)
    assert not facts["cached"] and facts["cc_s"] > 0
    assert cythonize_pipeline.ensure_built(source) == (so_path, dict(facts, cached=True))
    assert cythonize_pipeline.MODULE_NAME not in sys.modules
    try:
        module = cythonize_pipeline.load(so_path)
        assert module.categories("a1 ") == ["Ll", "Nd", "Zs"]
        assert type(module.categories).__name__ == "cython_function_or_method"
    finally:
        sys.modules.pop(cythonize_pipeline.MODULE_NAME, None)


def test_demo_smoke():
    proc = subprocess.run([sys.executable, "-m", "benchmarks.bert.demo"] + SLICE +
                          ["--limit", "30", "--rounds", "1", "--engines", "cpython,jit-cython,tokenizers"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "| @jit, backend='cython' |" in proc.stdout and "| equal |" in proc.stdout
    assert "demo finished" in proc.stdout


def test_the_jitted_class_style_row_gives_its_ratio_to_its_plain_self():
    """Issue 16's class-style target compares the jitted classes with the same classes run plainly, not with the
    function-style pipeline: the table says both."""
    def result(name, seconds):
        return bench.Result(engines.Engine(name, run=lambda texts, vocab: None), check="equal", correct=True,
                            seconds=[seconds])
    rows = bench.table([result("cpython", 1.0), result("classes-cpython", 1.2), result("classes-jit", 0.25)],
                       tokens=1000).splitlines()
    jitted = next(row for row in rows if row.startswith("| jit(cls)"))
    assert " | 4.00× | " in jitted and jitted.endswith("equal; 4.80× its plain self |")
