"""Public pure-Python libraries under ``@jit``, side by side with CPython: the libraries' own code, nobody's here.

    python -m benchmarks.libraries.run [--rounds 5] [--only pyaes,tomli] [--fallback]

Each library (a package, or a single module) is downloaded once from PyPI at a pinned version (``pip download``,
into ``MOSHJIT_BENCH_CACHE`` or ``~/.cache/moshjit-bench``) and unpacked; the run imports two copies of it under two
names, one plain and one whose source carries ``@moshjit.jit(strict=True)`` where a user decorating every ``def``
would write it (``decorate_with_jit``: module-level functions under their other decorators, classes outermost, also
classes made inside functions; methods are jitted with their class, nested functions with their maker), so whatever
the library builds while it is imported — tables of functions, bound methods, default instances — holds jitted code,
compiles at the first call (``MOSHJIT_TIER=eager``, as ``benchmarks.steady_state`` explains), checks that both
copies give the same output, and then times them in turn, round after round, by process CPU time, each running the
workload as many times as plain CPython needs for about 0.3 s, the engines' order alternated from round to round.
The ratio is the median of the rounds' plain time over jitted time; the time each engine spent in CPython's garbage
collector is reported apart, as a share of its time. ``--tiers default`` measures what a user gets without
``MOSHJIT_TIER``: the jitted copy runs under the default tiers until its compiles, trials and demotions have
settled, and the row counts its signatures per tier. The compile cache starts empty (a fresh ``MOSHJIT_CACHE_DIR``),
so the first run includes compiling; ``--warm`` keeps the environment's cache instead. Numba is not a row: it takes
none of these (classes, bytes, dicts of strs). ``--fallback`` (not the default) jits with ``fallback=True``: what
moshjit refuses runs as plain Python, and the row names those functions (Python-Markdown's stack-depth helper, say).

Workloads: pyaes and tomli run pyperformance's (1.14.0, MIT): ``crypto_pyaes`` (AES in CTR mode over 23,000 bytes,
encrypted and decrypted) and ``tomli_loads`` (its 1.1 MB TOML document, read from the pyperformance distribution,
downloaded likewise); chardet detects the encodings of 16–27 KB of UTF-8, cp1251 and cp1252 text; sortedcontainers
adds 20,000 ints to a ``SortedList``, removes a third and bisects; pypng writes a 160×160 RGB image and reads it
back; Unidecode transliterates and wcwidth measures a 7,000-character multilingual text; idna encodes and decodes
400 internationalised domain names (UTS 46); mistune renders 100 copies of a Markdown document with every block
kind to HTML; ftfy (text cleaning, as BERT pipelines use it; its dependency wcwidth is imported plain by both
copies) fixes 400 short texts of mojibake, HTML entities, terminal escapes and ligatures; jieba segments Chinese
text into words (its README's sentences ×40, the dictionary loaded before timing); Python-Markdown renders 50 copies
of a document with headings, emphasis, code, links, lists and quotes; langdetect (Apache-2.0; six imported plain by
both copies) names the language of 20 sentences, emoji (BSD-3-Clause) converts and strips emoji in 90 texts, and
pyspellchecker (MIT) corrects eight misspelt words — three steps of text-cleaning pipelines ahead of a tokenizer;
lark (MIT) parses a JSON document with its LALR parser; snowballstemmer (BSD-3-Clause) stems 2,000 words in English
and Porter, esprima (BSD-2-Clause) parses JavaScript into a tree of dicts, sqlparse (BSD-3-Clause) reformats SQL,
pyparsing (MIT) parses arithmetic with an ``infix_notation`` grammar and html5lib (MIT; six and webencodings imported
plain by both copies) parses and serialises an HTML document. PyYAML (MIT) loads and dumps 40 configuration
documents with its pure-Python ``SafeLoader``/``SafeDumper``, python-dateutil parses 15 date formats fuzzily,
markdown-it-py (MIT; mdurl imported plain) renders CommonMark with tables, more-itertools (MIT) runs a dozen of its
generator functions, ecdsa (MIT) signs and verifies on NIST P-256 with Python's big ints, Pygments (BSD-2-Clause)
highlights the standard library's ``textwrap.py`` as HTML and pycparser (BSD-3-Clause) parses C with PLY and writes
it back; Jinja2 (BSD-3-Clause; MarkupSafe imported plain) compiles and renders a template with macros and filters,
tabulate (MIT) formats a mixed table five ways, toolz (BSD-3-Clause) groups, pipes and merges 2,000 records,
mpmath (BSD-3-Clause) computes constants and elementary functions at 60 digits, python-chess (GPL-3.0-or-later)
generates legal moves on 64-bit bitboards (a depth-2 perft of three positions) and h11 (MIT) runs 40 HTTP/1.1
requests through its server state machine.
"""
from __future__ import annotations

import argparse
import ast
import collections
import gc
import importlib
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import warnings
import zipfile

from moshjit.errors import MoshjitWarning

os.environ.setdefault("MOSHJIT_TIER", "eager")

JIT_DECORATOR = '__import__("moshjit").jit(strict=True)'      # written into the jitted copy's source
FALLBACK_DECORATOR = '__import__("moshjit").jit(fallback=True)'
ROUND_SECONDS = 0.3            # each engine's share of a round: the workload repeated to take about this long
CACHE = os.environ.get("MOSHJIT_BENCH_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "moshjit-bench"))
PYPERFORMANCE = "pyperformance==1.14.0"
TOMLI_DATA = "tomli-bench-data.toml"          # in pyperformance's data-files/benchmarks/bm_tomli_loads/data


def fetched(requirement: str) -> str:
    """The directory a pinned distribution is unpacked into (downloaded and unpacked at its first use)."""
    target = os.path.join(CACHE, requirement.replace("==", "-"))
    if os.path.isdir(target):
        return target
    with tempfile.TemporaryDirectory() as download:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", download,
                        requirement], check=True)
        (archive,) = os.listdir(download)
        path = os.path.join(download, archive)
        partial = target + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        if archive.endswith(".whl"):
            with zipfile.ZipFile(path) as wheel:
                wheel.extractall(partial)
        else:
            with tarfile.open(path) as sdist:
                sdist.extractall(partial, filter="data")
        os.replace(partial, target)
    return target


def package_source(root: str, package: str) -> str:
    """Where ``package`` (a directory with ``__init__.py``, or a single ``<package>.py``) is in an unpacked
    distribution."""
    for where, _, files in os.walk(root):
        if os.path.basename(where) == package and "__init__.py" in files:
            return where
        if package + ".py" in files:
            return os.path.join(where, package + ".py")
    raise FileNotFoundError(f"no package {package} under {root}")


def two_copies(root: str, package: str, workdir: str, decorator: str = JIT_DECORATOR) -> tuple[str, str, int]:
    """The package copied under its own name and as ``<package>_jit`` into ``workdir`` (on ``sys.path``): the copy's
    absolute imports of its own package (``from ftfy.chardata import ...``, also in code it generates) name the copy,
    and its source carries ``@decorator`` where a user would write ``@jit`` (``decorate_with_jit``); and how many it
    carries."""
    source = package_source(root, package)
    for name in (package, package + "_jit"):
        if os.path.isdir(source):
            shutil.copytree(source, os.path.join(workdir, name))
        else:
            shutil.copyfile(source, os.path.join(workdir, name + ".py"))
    copy = os.path.join(workdir, package + "_jit")
    files = [os.path.join(where, f) for where, _, names in os.walk(copy) for f in names if f.endswith(".py")] \
        if os.path.isdir(copy) else [copy + ".py"]
    decorated = 0
    for path in files:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        text = re.sub(rf"^(\s*)import {package}$", rf"\1import {package}_jit as {package}", text, flags=re.M)
        text = re.sub(rf"^(\s*)from {package}([. ])", rf"\1from {package}_jit\2", text, flags=re.M)
        # and the code a library generates and runs (Jinja2's compiled templates: "from jinja2.runtime import")
        text = re.sub(rf"([\"'])from {package}([. ])", rf"\1from {package}_jit\2", text)
        text, count = decorate_with_jit(text, decorator)
        decorated += count
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    return package, package + "_jit", decorated


def decorate_with_jit(text: str, decorator: str) -> tuple[str, int]:
    """``text`` (a module's source) with ``@decorator`` written as a user writing ``@jit`` everywhere would: on every
    function defined outside functions and classes (module level, also under ``if``/``try``) as its innermost
    decorator, so it is jitted under the others (``@contextmanager``, ``@recurse()``), and on every class not nested
    in a class (at module level, or made inside a function) as its outermost one, after ``@dataclass`` and the
    like made its methods; and how many it wrote. Methods are the class's to jit; functions nested in functions are
    compiled with the function that makes them (``moshjit.nested``)."""
    tree = ast.parse(text)
    lines = text.split("\n")                # as ``ast`` numbers lines (``splitlines`` also splits at \f, \x1c, …)
    inserts = []                                            # (line index, column)

    def visit(node, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if scope == "module":
                    inserts.append((child.lineno - 1, child.col_offset))
                visit(child, "function")
            elif isinstance(child, ast.ClassDef):
                if scope != "class":
                    first = min([d.lineno for d in child.decorator_list] + [child.lineno])
                    inserts.append((first - 1, child.col_offset))
                visit(child, "class")
            else:
                visit(child, scope)

    visit(tree, "module")
    for index, column in sorted(inserts, reverse=True):
        lines.insert(index, lines[index][:column] + f"@{decorator}")      # the line's own indentation (tabs too)
    return "\n".join(lines), len(inserts)


def pyaes_workload(package):
    clear = b"This is a test. What could possibly go wrong? " * 500
    key = b"\xa1\xf6%\x8c\x87}_\xcd\x89dHE8\xbf\xc9,"

    def run():
        ciphertext = package.AESModeOfOperationCTR(key).encrypt(clear)
        return ciphertext, package.AESModeOfOperationCTR(key).decrypt(ciphertext)
    return run


def tomli_workload(package):
    with open(found(fetched(PYPERFORMANCE), TOMLI_DATA)) as data:
        text = data.read()
    return lambda: package.loads(text)


def found(root: str, filename: str) -> str:
    """The one file called ``filename`` under ``root``."""
    for where, _, files in os.walk(root):
        if filename in files:
            return os.path.join(where, filename)
    raise FileNotFoundError(f"no {filename} under {root}")


def chardet_workload(package):
    samples = [("Ünïcödé ✓ text, naïve café — " * 400).encode("utf-8"),
               ("Съешь же ещё этих мягких французских булок, да выпей чаю. " * 200).encode("cp1251"),
               ("Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis. " * 200).encode("cp1252")]
    return lambda: [package.detect(sample) for sample in samples]


def sortedcontainers_workload(package):
    import random
    numbers = random.Random(42).sample(range(1_000_000), 20_000)

    def run():
        sorted_list = package.SortedList()
        for n in numbers:
            sorted_list.add(n)
        for n in numbers[::3]:
            sorted_list.remove(n)
        return list(sorted_list[::97]), [sorted_list.bisect_left(n) for n in numbers[::50]], len(sorted_list)
    return run


def png_workload(package):
    rows = [[(x * y + x) % 256 for x in range(3 * 160)] for y in range(160)]

    def run():
        import io
        out = io.BytesIO()
        package.Writer(160, 160, greyscale=False).write(out, rows)
        width, height, pixels, _ = package.Reader(bytes=out.getvalue()).read()
        return out.getvalue(), [list(row) for row in pixels]
    return run


MULTILINGUAL = ("Ünïcödé naïve café — Съешь же ещё этих мягких булок; 中文文本处理；日本語のテキスト、"
                "한국어 텍스트; Ελληνικά; עברית; العربية; emoji ✓ ☃ ½ ﬁ. ") * 60


def unidecode_workload(package):
    return lambda: package.unidecode(MULTILINGUAL)


def wcwidth_workload(package):
    return lambda: (package.wcswidth(MULTILINGUAL), [package.wcwidth(ch) for ch in MULTILINGUAL[:2000]])


def idna_workload(package):
    names = [f"{word}{i}.example" for i, word in enumerate(["bücher", "домен", "例え", "münchen", "straße", "ελλάδα",
                                                             "пример", "faß", "café", "ドメイン"] * 40)]

    def run():
        encoded = [package.encode(name, uts46=True) for name in names]
        return encoded, [package.decode(e) for e in encoded]
    return run


def mistune_workload(package):
    text = ("# Title\n\nSome *emphasis*, **strong** and `code`, a [link](http://example.com) and\n"
            "- a list\n- of items\n  1. nested\n\n> a quote\n\n```\ncode block\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n") * 100
    return lambda: package.html(text)


def ftfy_workload(package):
    """Mojibake of every kind ftfy's README shows, HTML entities, escapes, curly quotes and ligatures (×40)."""
    broken = ["âœ” No problems", "The Mona Lisa doesnÃ¢â‚¬â„¢t have eyebrows.", "ÃºnicodÃ© Ã  la carte",
              "&lt;3 &amp; &#8230; &eacute;", "\x1b[36;44mcolored\x1b[0m text", "ﬁnal “quoted” ﬂoor",
              "HÃ´tel CafÃ©, crÃ¨me brÃ»lÃ©e", "Ð¡Ð¼Ð¾Ñ‚Ñ€Ð¸", "plain ASCII needs nothing", "l’humanitÃ©"] * 40
    return lambda: [package.fix_text(text) for text in broken]


CHINESE = ("我来到北京清华大学。他来到了网易杭研大厦。小明硕士毕业于中国科学院计算所，后在日本京都大学深造。"
           "永和服装饰品有限公司。我爱北京天安门。工信处女干事每月经过下属科室都要亲口交代24口交换机等技术性器件的安装工作。"
           "结过婚的和尚未结过婚的人都可以参加。")


def jieba_workload(package):
    """Chinese word segmentation (``lcut``, with the HMM for unknown words) of jieba's README sentences (×40); the
    dictionary is loaded before timing."""
    package.setLogLevel(60)
    package.initialize()
    text = CHINESE * 40
    return lambda: package.lcut(text)


def markdown_workload(package):
    """Python-Markdown: headings, emphasis, code spans, links, lists, quotes and code blocks (×50) to HTML."""
    text = "# T\n\nSome *em* and **strong**, `code`, [a](http://x.y).\n\n- a\n- b\n\n> q\n\n    code\n\n" * 50
    return lambda: package.markdown(text)


LANGUAGES = ["Ceci est un texte en français, assez long pour être détecté sans hésitation.",
             "This is an English sentence about tokenizers, vocabularies and language models.",
             "Dies ist ein deutscher Satz über Sprachmodelle und ihre Vorverarbeitung.",
             "Esto es una frase en español sobre el procesamiento del lenguaje natural.",
             "Questa è una frase italiana sulla tokenizzazione del testo."] * 4


def langdetect_workload(package):
    """langdetect: the language of 20 sentences in five languages (its profiles loaded before timing; its random
    trials seeded, so both copies answer the same)."""
    package.DetectorFactory.seed = 0
    package.detect(LANGUAGES[0])
    return lambda: [package.detect(text) for text in LANGUAGES]


def emoji_workload(package):
    """emoji: ``demojize``, ``replace_emoji`` and ``emoji_count`` over texts with and without emoji (×30)."""
    texts = ["I love 🍕 and 🐍 code 👍🏽!", "Flags 🇫🇷🇩🇪 and families 👨‍👩‍👧 here",
             "plain text without any emoji at all, quite long actually"] * 30
    return lambda: [package.demojize(t) + package.replace_emoji(t, replace="") + str(package.emoji_count(t))
                    for t in texts]


def spellchecker_workload(package):
    """pyspellchecker: the most likely correction of eight misspelt words (edit distances 1 and 2 over its English
    dictionary, loaded before timing)."""
    checker = package.SpellChecker()
    words = ["speling", "korrect", "helo", "wrold", "langauge", "tokenzier", "pipline", "embeddng"]
    return lambda: [checker.correction(word) for word in words]


WORDS = ("tokenization normalizes punctuation and accented characters before wordpiece splits unknown words into "
         "subword units; the stemmers reduce running runners, generously, connections, relational, conditional, "
         "hopefulness, electricity, agreement, argued, fluently, cats, ponies, caresses, sizing, happily").split()


def snowballstemmer_workload(package):
    """snowballstemmer: English (Porter2) and Porter stems of 2,000 words (its generated stemmer classes)."""
    words = [word.strip(";,") for word in WORDS] * 50
    english, porter = package.stemmer("english"), package.stemmer("porter")
    return lambda: (english.stemWords(words), porter.stemWords(words))


JAVASCRIPT = """
function tokenize(text, vocab, maxChars) {
    var output = [];
    for (var i = 0; i < text.length; i++) {
        var word = text[i].toLowerCase();
        if (word.length > maxChars) { output.push("[UNK]"); continue; }
        var start = 0, pieces = [];
        while (start < word.length) {
            var end = word.length, found = null;
            while (start < end) {
                var sub = (start > 0 ? "##" : "") + word.slice(start, end);
                if (vocab.has(sub)) { found = sub; break; }
                end -= 1;
            }
            if (found === null) { pieces = ["[UNK]"]; break; }
            pieces.push(found); start = end;
        }
        output = output.concat(pieces);
    }
    return output.map(x => ({token: x, id: vocab.get(x) || 0}));
}
class Counter { constructor() { this.n = 0; } add(k = 1) { this.n += k; return this; } }
const total = [1, 2, 3].reduce((a, b) => a + b, 0) * 2.5e3 / (1 << 4);
"""


def esprima_workload(package):
    """esprima: a JavaScript parser (a scanner and a recursive-descent parser, all classes) on 20 copies of a
    40-line script, its syntax tree as nested dicts."""
    code = JAVASCRIPT * 20
    return lambda: package.parseScript(code, {"range": True}).toDict()


SQL = """select a.id, b.name, count(*) as n from accounts a join (select id, name from users where age > 30 and
country in ('DE', 'FR')) b on a.user_id = b.id where a.created >= '2024-01-01' group by a.id, b.name having count(*) > 2
order by n desc limit 10; insert into log (kind, payload) values ('x', 'y'), ('z', 'w');"""


def sqlparse_workload(package):
    """sqlparse: 20 SQL statements split, parsed and reformatted (reindented, keywords upper-cased)."""
    text = SQL * 10
    return lambda: package.format(text, reindent=True, keyword_case="upper")


def pyparsing_workload(package):
    """pyparsing: arithmetic expressions parsed by an ``infix_notation`` grammar (packrat off), 60 of them."""
    pp = package
    number = pp.pyparsing_common.number
    variable = pp.Word(pp.alphas, pp.alphanums + "_")
    expression = pp.infix_notation(number | variable, [
        (pp.one_of("- +"), 1, pp.OpAssoc.RIGHT), (pp.one_of("* /"), 2, pp.OpAssoc.LEFT),
        (pp.one_of("+ -"), 2, pp.OpAssoc.LEFT)])
    texts = [f"{i} * (x_{i} + 2.5) - -{i} / (y + {i * 3}) * z" for i in range(60)]
    return lambda: [expression.parse_string(text, parse_all=True).as_list() for text in texts]


HTML = """<!DOCTYPE html><html><head><title>Tokenizers &amp; pipelines</title></head><body>
<h1 class="t">Text <em>cleaning</em></h1><p>Accents: caf&eacute;, na&iuml;ve &mdash; <a href="/x?a=1&b=2">link</a>
<ul><li>one<li>two &lt;b&gt;<li>three</ul><table><tr><td>1<td>2</table><br><img src=x.png alt='img'>
<!-- a comment --><script>var x = "<p>not a tag</p>";</script><p>unclosed <b>bold <i>both</b> italic</i></body></html>
"""


def html5lib_workload(package):
    """html5lib: a 14-line HTML document with entities, implied end tags and misnested tags, ×10, parsed into a
    tree (its tokenizer, a class-based state machine) and serialised."""
    text = HTML * 10
    return lambda: package.serialize(package.parse(text), omit_optional_tags=False)


JSON_GRAMMAR = r"""
?start: value
?value: object | array | string | SIGNED_NUMBER -> number | "true" -> true | "false" -> false | "null" -> null
array  : "[" [value ("," value)*] "]"
object : "{" [pair ("," pair)*] "}"
pair   : string ":" value
string : ESCAPED_STRING
%import common.ESCAPED_STRING
%import common.SIGNED_NUMBER
%import common.WS
%ignore WS
"""


def lark_workload(package):
    """lark: a JSON document of 60 objects parsed by a LALR parser of its JSON grammar (built before timing), the
    tree printed: one ``Token`` made per token, through ``Token.__new__(cls, *args, **kwargs)``."""
    parser = package.Lark(JSON_GRAMMAR, parser="lalr")
    text = "[" + ", ".join(['{"a": [1, 2.5, "x", true, null], "b": {"c": "d", "e": [false, -3e2]}}'] * 60) + "]"
    return lambda: parser.parse(text).pretty()


YAML_DOCUMENT = """\
# a service's configuration
service: {name}
version: 3.{i}
enabled: true
ratio: 0.{i}5
owners: [alice, bob, "carol d."]
limits:
  cpu: 2
  memory: 512Mi
  burst: ~
routes:
  - path: /api/v{i}/items
    methods: [GET, POST]
    timeout: 1.5e1
  - path: '/static/*'
    cache: {{max_age: 3600, public: yes}}
description: >
  Folded text that spans
  several lines, with "quotes" and ünïcödé.
notes: |
  literal block
    keeps its indentation
anchors:
  base: &base {{retries: 3, backoff: 0.25}}
  derived: {{<<: *base, retries: 5}}
"""


def pyyaml_workload(package):
    """PyYAML's pure-Python loader and dumper (scanner, parser, composer, constructor, emitter: all classes): 40
    small configuration documents loaded with ``SafeLoader`` and dumped back with ``SafeDumper``."""
    text = "---\n".join(YAML_DOCUMENT.format(name=f"svc-{i}", i=i) for i in range(40))

    def run():
        documents = list(package.load_all(text, Loader=package.SafeLoader))
        return documents, package.dump_all(documents, Dumper=package.SafeDumper, sort_keys=True)
    return run


DATES = ["2003-09-25T10:49:41", "Thu Sep 25 10:36:28 BRST 2003", "Sep 25 2003", "25 Sep 2003 10:49:41.5",
         "10:36:28 PM", "2003.Sep.25", "Thursday, 25-Sep-03 10:49:41", "09/25/2003 10h36m28s",
         "20030925T104941-0300", "1996.07.10 AD at 15:08:56 PDT", "Tuesday, April 12, 1952 AD 3:30:42pm PST",
         "November 5, 1994, 8:15:30 am EST", "3rd of May 2001", "5:50 AM on June 13, 1990", "12h 01m02s am"]


def dateutil_workload(package):
    """python-dateutil's parser (the ``_timelex`` tokenizer and ``parser`` class) on 15 date formats of its
    documentation (fuzzy: they carry words; their zone names given offsets), ×20."""
    import importlib
    from datetime import datetime
    default = datetime(2003, 9, 25)
    parse = importlib.import_module(package.__name__ + ".parser").parse
    zones = {"BRST": -10800, "PDT": -25200, "PST": -28800, "EST": -18000}
    return lambda: [parse(text, default=default, fuzzy=True, tzinfos=zones) for text in DATES * 20]


MARKDOWN_DOCUMENT = """\
# Title {i}

Some *emphasis*, **strong** text, `code spans` and a [link](https://example.com/{i} "title").
A line with an autolink <https://example.org> and an escaped \\*star\\*.

> A quote with a list:
> - item one
> - item *two*

1. first
2. second
   - nested `code`

```python
def f(x):
    return x * {i}
```

| a | b |
|---|---|
| {i} | ~~gone~~ |

---
"""


def markdown_it_workload(package):
    """markdown-it-py: CommonMark and tables to HTML — its block and inline rules, a state machine over the text
    and a token stream (classes, generators of rules), 30 sections."""
    text = "\n".join(MARKDOWN_DOCUMENT.format(i=i) for i in range(30))
    parser = package.MarkdownIt("commonmark").enable("table").enable("strikethrough")
    return lambda: parser.render(text)


def more_itertools_workload(package):
    """more-itertools: its generator functions and closures over ranges and words (windows, chunks, distinct
    permutations, set partitions, run lengths, grouping), ×3."""
    data = list(range(300))
    words = ("alpha beta gamma delta epsilon beta alpha zeta " * 30).split()

    def run():
        return [(list(package.windowed(data, 4, step=3)), list(package.chunked(data, 7)),
                 list(package.distinct_permutations([1, 1, 2, 3, 3, 3])), list(package.unique_everseen(words)),
                 list(package.set_partitions(range(6))), list(package.run_length.encode(sorted(words))),
                 [list(group) for group in package.consecutive_groups([1, 2, 3, 7, 8, 10, 11, 12] * 10)],
                 list(package.interleave_longest(data[:50], words[:20], "xyz")),
                 list(package.split_at(words, lambda w: w == "gamma")),
                 list(package.locate(words, lambda w: w.startswith("e"))),
                 list(package.powerset(range(8))), package.bucket(words, key=len)[5].__next__())
                for _ in range(3)]
    return run


def ecdsa_workload(package):
    """ecdsa: deterministic (RFC 6979) signatures on NIST P-256 and their verification: elliptic-curve point
    arithmetic in Jacobian coordinates on Python's big ints (classes ``PointJacobi``, ``CurveFp``), 3 messages."""
    key = package.SigningKey.from_secret_exponent(0x1234567890ABCDEF1234567890ABCDEF, curve=package.NIST256p)
    verifying = key.get_verifying_key()
    messages = [b"message %d" % i for i in range(3)]

    def run():
        signatures = [key.sign_deterministic(message) for message in messages]
        return signatures, [verifying.verify(s, m) for s, m in zip(signatures, messages)]
    return run


def pygments_workload(package):
    """Pygments: a Python module (the standard library's ``textwrap``) lexed by ``PythonLexer`` — a ``RegexLexer``
    whose token generator runs its state machine over the text — and formatted to HTML."""
    import importlib
    import textwrap
    lexers = importlib.import_module(package.__name__ + ".lexers.python")
    formatters = importlib.import_module(package.__name__ + ".formatters.html")
    with open(textwrap.__file__, encoding="utf-8") as source:
        text = source.read()
    return lambda: package.highlight(text, lexers.PythonLexer(), formatters.HtmlFormatter())


C_SOURCE = """\
typedef struct node { int value; struct node *next; } node_t;
static int sum(node_t *head, int limit) {
    int total = 0;
    for (node_t *n = head; n != 0 && limit-- > 0; n = n->next) {
        if (n->value % 2 == 0) total += n->value << 1; else total -= (n->value * 3 + 1) / 2;
    }
    switch (total & 3) { case 0: return total; case 1: total ^= 0x55; break; default: total = ~total; }
    return total > 0 ? total : -total;
}
"""


def pycparser_workload(package):
    """pycparser: C declarations and a function parsed by its PLY lexer and LALR parser (the table-driven parse
    loop, one AST class per node) and written back as C by its generator, 20 translation units."""
    import importlib
    generator = importlib.import_module(package.__name__ + ".c_generator").CGenerator()
    parser = package.CParser()
    units = [C_SOURCE.replace("sum", f"sum{i}") for i in range(20)]
    return lambda: [generator.visit(parser.parse(unit)) for unit in units]


TEMPLATE = """\
{% macro row(item, loop) -%}
<tr class="{{ loop.cycle('odd', 'even') }}"><td>{{ item.name | title }}</td><td>{{ "%.2f" | format(item.price) }}</td>
{%- if item.tags %}<td>{{ item.tags | join(", ") | e }}</td>{% else %}<td>-</td>{% endif %}</tr>
{%- endmacro %}
<h1>{{ title | upper }} ({{ items | length }} items, {{ items | sum(attribute="price") | round(2) }} in all)</h1>
<table>{% for item in items | sort(attribute="price") if item.price > 1 %}
{{ row(item, loop) }}{% endfor %}</table>
{% set names = items | map(attribute="name") | list %}{{ names[:3] | join("; ") }} {{ "&<>" }} {{ undefined_name | default("none") }}
"""


def jinja2_workload(package):
    """Jinja2: a template with a macro, filters, loops and tests compiled ×8 (its lexer, a token stream of
    generators, its parser and code generator; the compiled template's own code is Jinja's) and rendered ×30."""
    items = [{"name": f"item {i}", "price": i * 1.25, "tags": ["<new>", "sale"] if i % 3 == 0 else []}
             for i in range(40)]

    def run():
        environment = package.Environment(autoescape=True)
        templates = [environment.from_string(TEMPLATE + "{# %d #}" % i) for i in range(8)]
        return [template.render(title="price list", items=items) for template in templates for _ in range(4)]
    return run


def tabulate_workload(package):
    """tabulate: a 60-row table of strs, ints, floats and None in five formats (column types inferred, numbers
    aligned on their decimal points, widths measured) ×2."""
    rows = [[f"name {i}", i * 37 % 101, i / 7, None if i % 5 == 0 else f"{i:x}", -i * 1.5e3] for i in range(60)]

    def run():
        return [package.tabulate(rows, headers=["name", "n", "ratio", "hex", "big"], tablefmt=style, floatfmt=".4f")
                for style in ("plain", "grid", "pipe", "html", "rst") for _ in range(2)]
    return run


def toolz_workload(package):
    """toolz: curried functions, pipes, composition, dict and sequence utilities over 2,000 records (closures,
    generators, ``curry`` objects), ×2."""
    records = [{"id": i, "group": "abcde"[i % 5], "value": (i * 7919) % 1000} for i in range(2000)]
    curried = package.curried

    def run():
        out = []
        for _ in range(2):
            grouped = package.groupby("group", records)
            totals = package.valmap(lambda rows: sum(package.pluck("value", rows)), grouped)
            top = package.pipe(records, curried.filter(lambda r: r["value"] > 900), curried.map(curried.get("id")),
                               curried.take(25), list)
            windows = list(package.sliding_window(3, package.pluck("value", records[:300])))
            merged = package.merge_with(sum, *({r["group"]: r["value"]} for r in records[:500]))
            counts = package.frequencies(package.concat([r["group"]] * 2 for r in records))
            out.append((totals, top, windows[-3:], merged, counts, package.compose(str, len, set)(records[0]),
                        list(package.partition_all(7, range(50))), list(package.interleave([range(5), "xyz"])),
                        package.reduceby("group", lambda acc, r: acc + r["value"], records, 0),
                        list(package.unique(r["value"] % 37 for r in records))))
        return out
    return run


def mpmath_workload(package):
    """mpmath: arbitrary-precision floats on Python's big ints — pi, e, square roots, exp, log, trigonometry and
    zeta(3) at 60 digits of 12 values, as strs (its ``libmp`` functions and ``mpf`` class)."""
    def run():
        context = package.mp.clone()
        context.dps = 60
        values = []
        for k in range(12):
            x = context.mpf(k + 2) / 3
            values.append([str(v) for v in (context.pi, context.e, context.sqrt(x), context.exp(x), context.log(x),
                                            context.sin(x), context.atan(x), context.zeta(3), x ** 17 - x / 7)])
        return values
    return run


CHESS_POSITIONS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                   "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                   "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"]


def chess_workload(package):
    """python-chess: legal-move generation on 64-bit bitboards (Python ints up to 2**64 - 1: past int64) — a
    depth-2 perft of three positions, each move's SAN, and the positions' FEN after a move."""
    def perft(board, depth):
        if depth == 0:
            return 1
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    def run():
        out = []
        for fen in CHESS_POSITIONS:
            board = package.Board(fen)
            moves = list(board.legal_moves)
            out.append((perft(board, 2), [board.san(move) for move in moves], int(board.occupied),
                        board.is_check(), (board.push(moves[0]), board.fen())[1]))
        return out
    return run


def h11_workload(package):
    """h11: an HTTP/1.1 exchange through its server connection state machine, 40 requests (headers, a chunked body)
    parsed and responses serialised on one keep-alive connection."""
    request = (b"POST /items/%d HTTP/1.1\r\nHost: example.com\r\nUser-Agent: bench\r\nAccept: */*\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")

    def run():
        connection = package.Connection(package.SERVER)
        out = []
        for i in range(40):
            connection.receive_data(request % i)
            while True:
                event = connection.next_event()
                if event is package.NEED_DATA or isinstance(event, package.EndOfMessage):
                    break
                out.append(repr(event))
            out.append(connection.send(package.Response(status_code=200, headers=[("Content-Length", "2")])))
            out.append(connection.send(package.Data(data=b"ok")) + connection.send(package.EndOfMessage()))
            connection.start_next_cycle()
        return out
    return run


LIBRARIES = {   # name: (pinned requirement, package or module, licence, workload)
    "pyaes": ("pyaes==1.6.1", "pyaes", "MIT", pyaes_workload),
    "tomli": ("tomli==2.0.1", "tomli", "MIT", tomli_workload),
    "chardet": ("chardet==5.2.0", "chardet", "LGPL-2.1", chardet_workload),
    "sortedcontainers": ("sortedcontainers==2.4.0", "sortedcontainers", "Apache-2.0", sortedcontainers_workload),
    "png": ("pypng==0.20220715.0", "png", "MIT", png_workload),
    "unidecode": ("Unidecode==1.3.8", "unidecode", "GPL-2.0-or-later", unidecode_workload),
    "wcwidth": ("wcwidth==0.2.13", "wcwidth", "MIT", wcwidth_workload),
    "idna": ("idna==3.7", "idna", "BSD-3-Clause", idna_workload),
    "mistune": ("mistune==3.0.2", "mistune", "BSD-3-Clause", mistune_workload),
    "ftfy": ("ftfy==6.2.0", "ftfy", "Apache-2.0", ftfy_workload),
    "jieba": ("jieba==0.42.1", "jieba", "MIT", jieba_workload),
    "markdown": ("Markdown==3.5.2", "markdown", "BSD-3-Clause", markdown_workload),
    "langdetect": ("langdetect==1.0.9", "langdetect", "Apache-2.0", langdetect_workload),
    "emoji": ("emoji==2.12.1", "emoji", "BSD-3-Clause", emoji_workload),
    "spellchecker": ("pyspellchecker==0.8.1", "spellchecker", "MIT", spellchecker_workload),
    "lark": ("lark==1.1.9", "lark", "MIT", lark_workload),
    "snowballstemmer": ("snowballstemmer==2.2.0", "snowballstemmer", "BSD-3-Clause", snowballstemmer_workload),
    "esprima": ("esprima==4.0.1", "esprima", "BSD-2-Clause", esprima_workload),
    "sqlparse": ("sqlparse==0.5.0", "sqlparse", "BSD-3-Clause", sqlparse_workload),
    "pyparsing": ("pyparsing==3.1.2", "pyparsing", "MIT", pyparsing_workload),
    "html5lib": ("html5lib==1.1", "html5lib", "MIT", html5lib_workload),
    "pyyaml": ("PyYAML==6.0.1", "yaml", "MIT", pyyaml_workload),
    "dateutil": ("python-dateutil==2.9.0.post0", "dateutil", "Apache-2.0 OR BSD-3-Clause", dateutil_workload),
    "markdown_it": ("markdown-it-py==3.0.0", "markdown_it", "MIT", markdown_it_workload),
    "more_itertools": ("more-itertools==10.2.0", "more_itertools", "MIT", more_itertools_workload),
    "ecdsa": ("ecdsa==0.19.0", "ecdsa", "MIT", ecdsa_workload),
    "pygments": ("Pygments==2.17.2", "pygments", "BSD-2-Clause", pygments_workload),
    "pycparser": ("pycparser==2.21", "pycparser", "BSD-3-Clause", pycparser_workload),
    "jinja2": ("Jinja2==3.1.4", "jinja2", "BSD-3-Clause", jinja2_workload),
    "tabulate": ("tabulate==0.9.0", "tabulate", "MIT", tabulate_workload),
    "toolz": ("toolz==0.12.1", "toolz", "BSD-3-Clause", toolz_workload),
    "mpmath": ("mpmath==1.3.0", "mpmath", "BSD-3-Clause", mpmath_workload),
    "chess": ("chess==1.10.0", "chess", "GPL-3.0-or-later", chess_workload),
    "h11": ("h11==0.14.0", "h11", "MIT", h11_workload),
}

DEPENDENCIES = {  # name: what its modules import, as (pinned requirement, package): imported plain by both copies
    "ftfy": [("wcwidth==0.2.13", "wcwidth")],
    "langdetect": [("six==1.16.0", "six")],
    "html5lib": [("six==1.16.0", "six"), ("webencodings==0.5.1", "webencodings")],
    "dateutil": [("six==1.16.0", "six")],
    "markdown_it": [("mdurl==0.1.2", "mdurl")],
    "ecdsa": [("six==1.16.0", "six")],
    "jinja2": [("MarkupSafe==2.1.5", "markupsafe")],
}


class CollectorClock:
    """Process CPU time spent in CPython's garbage collector, read through ``gc.callbacks`` (what a row's engine
    spends collecting is reported apart: a compiled copy that allocates differently also collects differently)."""

    def __init__(self):
        self.seconds = 0.0
        self._began = 0.0

    def __enter__(self):
        gc.callbacks.append(self._observe)
        return self

    def __exit__(self, *exc):
        gc.callbacks.remove(self._observe)

    def _observe(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._began = time.process_time()
        else:
            self.seconds += time.process_time() - self._began


def settle_tiers(jitted, name: str, least_s: float = 10.0, most_s: float = 600.0) -> dict[str, int]:
    """Run the jitted workload under the default tiers, as a long-running program would, for at least ``least_s``
    and on until no compile is queued, no trial is open and no function's tier changed over a run (promotions,
    trials, demotions), or for ``most_s``; how many of the library's signatures end in each tier."""
    from moshjit import background
    began, previous = time.perf_counter(), None
    while True:
        jitted()
        running = time.perf_counter() - began
        if running < least_s:
            continue
        now = tiers_of(name)
        settled = background.wait(0) and not any(tier in ("compiling", "trial") for tier in now.values())
        if (settled and now == previous) or running > most_s:
            return dict(sorted(collections.Counter(now.values()).items()))
        previous = now


def tiers_of(name: str) -> dict[tuple[str, str], str]:
    """Per jitted function of package ``name`` and dispatch signature, its tier (``docs/tiers.md``)."""
    return {(d.py_func.__qualname__, signature): row.get("tier", "native")
            for d in dispatchers_of(name) for signature, row in d.stats.items()}


def dispatchers_of(name: str) -> list:
    from moshjit.dispatcher import DispatcherBase
    return [d for d in gc.get_objects() if isinstance(d, DispatcherBase)
            and (d.py_func.__module__ or "").split(".")[0] == name]


def measure(name: str, rounds: int, workdir: str, fallback: bool = False, tiered: bool = False) -> dict:
    requirement, package, licence, workload = LIBRARIES[name]
    for dependency in DEPENDENCIES.get(name, ()):            # shared by both copies, plain
        root = os.path.dirname(package_source(fetched(dependency[0]), dependency[1]))
        if root not in sys.path:
            sys.path.append(root)
    plain_name, jit_name, defs = two_copies(fetched(requirement), package, workdir,
                                            FALLBACK_DECORATOR if fallback else JIT_DECORATOR)
    plain = workload(importlib.import_module(plain_name))
    start = time.perf_counter()
    jitted = workload(importlib.import_module(jit_name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MoshjitWarning)       # --fallback: counted below instead
        same = plain() == jitted()             # eager: the jitted copy compiles here
        tiers = settle_tiers(jitted, jit_name) if tiered else None
    first = time.perf_counter() - start
    begin = time.process_time()
    plain()
    repeat = max(1, math.ceil(ROUND_SECONDS / max(time.process_time() - begin, 1e-6)))
    ratios, total, collecting = [], [0.0, 0.0], [0.0, 0.0]
    for round_ in range(rounds):
        times = [0.0, 0.0]
        order = (0, 1) if round_ % 2 == 0 else (1, 0)          # alternated: a drift of the machine hits both
        for engine in order:
            run = (plain, jitted)[engine]
            gc.collect()
            with CollectorClock() as collector:
                begin = time.process_time()
                for _ in range(repeat):
                    run()
                times[engine] = time.process_time() - begin
            collecting[engine] += collector.seconds
            total[engine] += times[engine]
        ratios.append(times[0] / times[1])
    return {"requirement": requirement, "licence": licence, "defs": defs, "same": same, "first_s": first,
            "ratios": ratios, "repeat": repeat, "fell_back": fell_back(jit_name), "tiers": tiers,
            "collector_share": [c / t for c, t in zip(collecting, total)]}


def fell_back(name: str) -> list[str]:
    """The jitted functions of package ``name`` that run as plain Python (``--fallback``: refused)."""
    return sorted(d.py_func.__qualname__ for d in dispatchers_of(name) if d._failed)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default=",".join(LIBRARIES))
    parser.add_argument("--warm", action="store_true", help="keep the environment's compile cache")
    parser.add_argument("--fallback", action="store_true",
                        help="jit(fallback=True), not strict: a function moshjit refuses runs as plain Python (a "
                             "non-default mode; the library's row then says how much of it compiled)")
    parser.add_argument("--tiers", choices=("eager", "default"), default="eager",
                        help="eager (the benchmark's mode: compiled at the first call) or the default tiers a user "
                             "gets, timed once promotions and trials have settled")
    options = parser.parse_args(argv)
    tiered = options.tiers == "default"
    if tiered:
        os.environ["MOSHJIT_TIER"] = "tiered"
    if not options.warm:
        os.environ["MOSHJIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="moshjit-libraries-cache-")
    print(f"# libraries, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.1f}, {options.rounds} rounds (process CPU time, the engines' order "
          f"alternated), " + ("default tiers, timed once settled" if tiered
                               else f"MOSHJIT_TIER={os.environ['MOSHJIT_TIER']}")
          + (", jit(fallback=True): refused functions run as plain Python" if options.fallback else ""))
    print("| library | defs and classes jitted | output | "
          + ("settling, compiles included (s)" if tiered else "first run, compiling (s)") + " | runs per round "
          "| collector's share, plain / jitted " + ("| signatures per tier " if tiered else "")
          + "| × CPython, median (rounds) |")
    print("|---|---:|---|---:|---:|---:|" + ("---|" if tiered else "") + "---|")
    with tempfile.TemporaryDirectory() as workdir:
        sys.path.insert(0, workdir)
        for name in options.only.split(","):
            try:
                row = measure(name, options.rounds, workdir, options.fallback, tiered)
            except Exception as error:             # a refusal (strict) or a failure is this library's row
                reason = str(error).splitlines()[0][:200]
                print(f"| {LIBRARIES[name][0]} ({LIBRARIES[name][2]}) | — | {type(error).__name__}: {reason} "
                      f"| — | — | — |" + (" — |" if tiered else "") + " — |", flush=True)
                continue
            rounds = ", ".join(f"{r:.2f}" for r in row["ratios"])
            refused = f" ({len(row['fell_back'])} plain: {', '.join(row['fell_back'])})" if row["fell_back"] else ""
            collector = " / ".join(f"{share:.0%}" for share in row["collector_share"])
            tiers = ""
            if tiered:
                tiers = " " + ", ".join(f"{tier} {count}" for tier, count in row["tiers"].items()) + " |"
            print(f"| {row['requirement']} ({row['licence']}) | {row['defs']}{refused} | "
                  f"{'equal' if row['same'] else 'DIFFERS'} | {row['first_s']:.1f} | {row['repeat']} | {collector} |"
                  f"{tiers} **{statistics.median(row['ratios']):.2f}×** ({rounds}) |", flush=True)


if __name__ == "__main__":
    main()
