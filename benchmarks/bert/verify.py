"""Exactness of the plain-Python pipeline against HuggingFace ``tokenizers`` on every line of the corpus.

Three checks, each against ``BertWordPieceTokenizer`` with the same vocabulary (lower-casing, accent stripping,
CJK spacing, text cleaning, the five special tokens):

- singles: ``input_ids`` of every line, untruncated;
- pairs: consecutive lines as ``(a, b)`` pairs, truncated longest-first to ``--max-length`` and padded to it,
  comparing ``input_ids``, ``token_type_ids`` and ``attention_mask``;
- batches: ``encode_batch`` on chunks mixing singles and pairs, truncated and padded to the longest row.

With ``--code-points`` it first tokenizes every Unicode code point alone and lists those that differ. Every
difference is classified by a rule (see ``DifferenceExplainer`` and ``docs/bert.md``); the script exits with
status 1 if any difference is unexplained. Run it as ``python -m benchmarks.bert.verify``.
"""
import argparse
import sys
import unicodedata

from benchmarks.bert import data, pipeline

FINAL_SIGMA = "final sigma"
TOKENIZERS_CJK_RANGE = "tokenizers CJK range"
UNICODE_VERSION = "Unicode version"

# tokenizers' is_chinese_char starts this CJK Extension E block at U+2B920 instead of U+2B820.
TOKENIZERS_MISSING_CJK = range(0x2B820, 0x2B920)
# Characters whose General Category changed between the Unicode tables inside tokenizers and Python 3.11's.
CATEGORY_CHANGES = {
    0x166D: "CANADIAN SYLLABICS CHI SIGN: Po there, So here",
    0x1734: "HANUNOO SIGN PAMUDPOD: Mn there, Mc here",
    0x1885: "MONGOLIAN LETTER ALI GALI BALUDA: Lo there, Mn here",
    0x1886: "MONGOLIAN LETTER ALI GALI THREE BALUDA: Lo there, Mn here",
    0x111C9: "SHARADA SANDHI MARK: Po there, Mn here",
}


def reference_tokenizer(vocab, max_length=None, pad_to=None, pad_to_longest=False):
    """HuggingFace's Rust BERT tokenizer configured like the pipeline, truncating/padding as asked."""
    from tokenizers import BertWordPieceTokenizer

    reference = BertWordPieceTokenizer(
        dict(vocab), unk_token=pipeline.UNK_TOKEN, sep_token=pipeline.SEP_TOKEN, cls_token=pipeline.CLS_TOKEN,
        pad_token=pipeline.PAD_TOKEN, mask_token=pipeline.MASK_TOKEN, clean_text=True, handle_chinese_chars=True,
        strip_accents=True, lowercase=True, wordpieces_prefix=pipeline.CONTINUATION_PREFIX)
    if max_length is not None:
        reference.enable_truncation(max_length, strategy="longest_first")
    if pad_to is not None or pad_to_longest:
        reference.enable_padding(pad_id=vocab[pipeline.PAD_TOKEN], pad_token=pipeline.PAD_TOKEN, length=pad_to)
    return reference


def as_dict(encoding):
    """The three model inputs of a ``tokenizers.Encoding``, in the pipeline's dict layout."""
    return {"input_ids": encoding.ids, "token_type_ids": encoding.type_ids,
            "attention_mask": encoding.attention_mask}


class DifferenceExplainer:
    """Decides by rule whether a line's difference is one of the documented ones (see ``docs/bert.md``)."""

    def __init__(self, vocab):
        self.vocab = vocab
        self.reference = reference_tokenizer(vocab)
        self.agreement = {}

    def reference_ids(self, text):
        """The reference tokenizer's untruncated ids for ``text``."""
        return self.reference.encode(text).ids

    def pipeline_ids(self, text):
        """The pipeline's untruncated ids for ``text``."""
        return pipeline.encode(text, self.vocab, max_length=None)["input_ids"]

    def character_difference(self, ch):
        """Why ``ch`` alone, inside a word ("x?y"), tokenizes differently in the two libraries.

        Returns "" if it does not, a documented reason if the difference comes from the Unicode tables, and
        ``None`` otherwise (a bug). The rules: one side treats the character as an unknown code point (leaves
        it untouched) and that side's tables indeed lack it: Python's when its category is Cn, the Rust
        library's older ones when the character is not even in Unicode 3.2 (``unicodedata.ucd_3_2_0``); or
        its General Category is one of the few that changed between the two (``CATEGORY_CHANGES``).
        """
        if ch not in self.agreement:
            probe = "x" + ch + "y"
            normalized = self.reference.normalizer.normalize_str(probe)
            theirs = [word for word, _ in self.reference.pre_tokenizer.pre_tokenize_str(normalized)]
            ours = pipeline.basic_tokenize(probe, ())
            reason = None
            if ours == theirs:
                reason = ""
            elif theirs == [probe] and ord(ch) in TOKENIZERS_MISSING_CJK:
                reason = TOKENIZERS_CJK_RANGE
            elif ours == [probe] and unicodedata.category(ch) == "Cn":
                reason = UNICODE_VERSION
            elif theirs == [probe] and unicodedata.ucd_3_2_0.category(ch) == "Cn":
                reason = UNICODE_VERSION
            elif ord(ch) in CATEGORY_CHANGES:
                reason = UNICODE_VERSION
            self.agreement[ch] = reason
        return self.agreement[ch]

    def explain_difference(self, text):
        """The documented reasons that together account for ``text``'s differing ids; ``()`` if none do.

        Rules: "final sigma" if mapping every ``Σ`` to ``σ`` beforehand makes both agree (Python's ``lower``
        is context-sensitive, the Rust library's is not); "tokenizers CJK range" / "Unicode version" if the
        text holds characters that alone tokenize differently for a documented reason
        (``character_difference``) and deleting them makes both agree. A character that differs for no
        documented reason leaves the whole text unexplained.
        """
        reasons = set()
        disagreeing = set()
        for ch in set(text):
            reason = "" if ch == "Σ" else self.character_difference(ch)
            if reason is None:
                return ()
            if reason:
                reasons.add(reason)
                disagreeing.add(ch)
        without_disagreeing = "".join(ch for ch in text if ch not in disagreeing)
        candidates = [((FINAL_SIGMA,), text.replace("Σ", "σ"))]
        if disagreeing:
            reasons = tuple(sorted(reasons))
            candidates.append((reasons, without_disagreeing))
            candidates.append(((FINAL_SIGMA,) + reasons, without_disagreeing.replace("Σ", "σ")))
        for reasons, changed in candidates:
            if changed != text and self.pipeline_ids(changed) == self.reference_ids(changed):
                return reasons
        return ()


def check_code_points(explainer, progress):
    """Probe every code point alone (surrogates excepted); returns ``{reason: [code points]}``, "UNEXPLAINED"
    collecting the ones that differ for no documented reason."""
    found = {}
    for cp in progress(range(0x110000), desc="code points"):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        reason = explainer.character_difference(chr(cp))
        if reason != "":
            found.setdefault(reason or "UNEXPLAINED", []).append(cp)
    return found


def code_point_ranges(code_points):
    """Compact text for sorted code points: "U+0890-U+0891, U+08E2"."""
    ranges = []
    for cp in code_points:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return ", ".join(f"U+{low:04X}" if low == high else f"U+{low:04X}-U+{high:04X}" for low, high in ranges)


def classify(counts, reasons):
    """Count one difference under its reasons (or as unexplained) in ``counts``."""
    key = " + ".join(reasons) if reasons else "UNEXPLAINED"
    counts[key] = counts.get(key, 0) + 1


def check_singles(lines, vocab, explainer, progress):
    """Compare untruncated ids line by line; returns (equal count, {reason: count}, {line index: reasons})."""
    reference = reference_tokenizer(vocab)
    expected = [encoding.ids for encoding in reference.encode_batch(lines)]
    equal = 0
    counts = {}
    explained = {}
    for index in progress(range(len(lines)), desc="singles"):
        if pipeline.encode(lines[index], vocab, max_length=None)["input_ids"] == expected[index]:
            equal += 1
            continue
        reasons = explainer.explain_difference(lines[index])
        classify(counts, reasons)
        explained[index] = reasons
    return equal, counts, explained


def check_pairs(lines, vocab, max_length, differing, progress):
    """Compare truncated, padded pairs of consecutive lines; differing lines (from the singles) excuse a pair."""
    reference = reference_tokenizer(vocab, max_length=max_length, pad_to=max_length)
    starts = range(0, len(lines) - 1, 2)
    expected = reference.encode_batch([(lines[start], lines[start + 1]) for start in starts])
    equal = 0
    counts = {}
    for start, encoding in zip(progress(starts, desc="pairs"), expected):
        ours = pipeline.encode_pair(lines[start], lines[start + 1], vocab, max_length=max_length, pad_to=max_length)
        if ours == as_dict(encoding):
            equal += 1
            continue
        classify(counts, tuple(sorted(set(differing.get(start, ()) + differing.get(start + 1, ())))))
    return equal, counts


def check_batches(lines, vocab, max_length, batch_size, differing, progress):
    """Compare ``encode_batch`` rows (every third item a pair) padded to the batch's longest row."""
    reference = reference_tokenizer(vocab, max_length=max_length, pad_to_longest=True)
    equal = 0
    counts = {}
    for start in progress(range(0, len(lines), batch_size), desc="batches"):
        indices = list(range(start, min(start + batch_size, len(lines))))
        items = []
        for index in indices:
            if index % 3 == 2:
                items.append((lines[index - 1], lines[index]))
            else:
                items.append(lines[index])
        ours = pipeline.encode_batch(items, vocab, max_length=max_length)
        for row, (index, encoding) in enumerate(zip(indices, reference.encode_batch(items))):
            mine = {key: ours[key][row] for key in ours}
            if mine == as_dict(encoding):
                equal += 1
                continue
            involved = (index - 1, index) if index % 3 == 2 else (index,)
            reasons = set()
            for line_index in involved:
                reasons.update(differing.get(line_index, ()))
            if not reasons and any(line_index in differing for line_index in indices):
                reasons.add("padding length of a batch holding a differing line")
            classify(counts, tuple(sorted(reasons)))
    return equal, counts


def report(title, total, equal, counts):
    """Print one check's counts; return the number of unexplained differences."""
    print(f"{title}: {total} compared, {equal} equal, {total - equal} different")
    for reason, count in sorted(counts.items()):
        print(f"    {count:6d}  {reason}")
    return counts.get("UNEXPLAINED", 0)


def main(argv=None):
    """Command line: verify the pipeline on the corpus (or its first ``--limit`` lines)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N corpus lines")
    parser.add_argument("--corpus", default=None, help="a corpus file (default: the cached corpus)")
    parser.add_argument("--max-length", type=int, default=64, help="truncation length for pairs and batches")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--code-points", action="store_true",
                        help="also probe every Unicode code point alone and list the ones that differ")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    vocab = pipeline.load_vocab(data.fetch_vocab())
    unexplained = 0
    if args.code_points:
        found = check_code_points(DifferenceExplainer(vocab), tqdm)
        print("code points that tokenize differently on their own:")
        for reason, code_points in sorted(found.items()):
            categories = {}
            for cp in code_points:
                category = unicodedata.category(chr(cp))
                categories[category] = categories.get(category, 0) + 1
            print(f"    {len(code_points):6d}  {reason}  (categories here: {categories})")
            print(f"            {code_point_ranges(code_points)}")
        unexplained += len(found.get("UNEXPLAINED", []))
    lines = data.read_lines(args.corpus) if args.corpus else data.read_corpus()
    lines = lines[:args.limit] if args.limit else lines
    explainer = DifferenceExplainer(vocab)
    equal, counts, differing = check_singles(lines, vocab, explainer, tqdm)
    unexplained += report("single lines", len(lines), equal, counts)
    for index in sorted(differing)[:20]:
        print(f"    line {index + 1}: {', '.join(differing[index]) or 'UNEXPLAINED'}: {lines[index][:100]!r}")
    equal, counts = check_pairs(lines, vocab, args.max_length, differing, tqdm)
    unexplained += report(f"pairs (max_length={args.max_length}, padded)", len(lines) // 2, equal, counts)
    equal, counts = check_batches(lines, vocab, args.max_length, args.batch_size, differing, tqdm)
    unexplained += report(f"batch rows (batches of {args.batch_size})", len(lines), equal, counts)
    print("all differences explained" if not unexplained else f"{unexplained} UNEXPLAINED differences")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
