"""Uncased BERT preprocessing in plain Python: text → WordPiece ids, segment ids and attention mask.

This is the code BERT users write or copy today (it follows Google's ``tokenization.py``), written as
module-level functions with explicit arguments so that each one can be handed to ``moshjit.jit`` unchanged.
Every function uses only ``str``, ``list``, ``dict``, ``int`` and ``unicodedata``. The results equal HuggingFace
``tokenizers``' ``BertWordPieceTokenizer`` except for the differences documented in ``docs/bert.md``.

Stages, in order: special tokens are cut out of the raw text and kept whole; the rest is cleaned (control
characters dropped, whitespace made a plain space), CJK ideographs get spaces around them, the text is split on
whitespace, each word is lower-cased, stripped of accents and split on punctuation; each piece is then cut into
WordPiece sub-words. ``encode*`` add ``[CLS]``/``[SEP]``, truncate, pad and build the model's other inputs.
"""
import unicodedata

PAD_TOKEN = "[PAD]"
UNK_TOKEN = "[UNK]"
CLS_TOKEN = "[CLS]"
SEP_TOKEN = "[SEP]"
MASK_TOKEN = "[MASK]"
SPECIAL_TOKENS = (PAD_TOKEN, UNK_TOKEN, CLS_TOKEN, SEP_TOKEN, MASK_TOKEN)
CONTINUATION_PREFIX = "##"
MAX_CHARS_PER_WORD = 100
DEFAULT_MAX_LENGTH = 512


def load_vocab(path):
    """Read a WordPiece ``vocab.txt`` (one token per line) into a ``{token: id}`` dict, ids by line number."""
    vocab = {}
    with open(path, encoding="utf-8") as lines:
        for index, line in enumerate(lines):
            vocab[line.rstrip("\n")] = index
    return vocab


# ---------------------------------------------------------------------------------------------------------------
# Character classes
# ---------------------------------------------------------------------------------------------------------------

def is_whitespace(ch):
    """True for characters BERT treats as a word break: space, tab, newlines and Unicode separators (Z*)."""
    if ch == " " or ch == "\t" or ch == "\n" or ch == "\r":
        return True
    category = unicodedata.category(ch)
    return category == "Zs" or category == "Zl" or category == "Zp"


def is_control(ch):
    """True for characters the cleaner drops: control, format, private-use and surrogate code points.

    Tab and newlines are whitespace, not control. Unassigned code points (Cn) are kept, as HuggingFace
    ``tokenizers`` keeps them (its Python predecessor dropped every C* category).
    """
    if ch == "\t" or ch == "\n" or ch == "\r":
        return False
    category = unicodedata.category(ch)
    return category == "Cc" or category == "Cf" or category == "Co" or category == "Cs"


def is_punctuation(ch):
    """True for characters split off as their own token: all ASCII non-alphanumerics and Unicode P* categories.

    ASCII symbols such as ``$``, ``+`` or ``^`` are not Unicode punctuation, but BERT splits them too.
    """
    cp = ord(ch)
    if (33 <= cp <= 47) or (58 <= cp <= 64) or (91 <= cp <= 96) or (123 <= cp <= 126):
        return True
    return unicodedata.category(ch).startswith("P")


def is_cjk(cp):
    """True if code point ``cp`` is a CJK ideograph (the CJK Unified Ideographs blocks and their extensions).

    Hangul, Hiragana and Katakana are not included: like BERT, they are tokenized as ordinary words.
    """
    return ((0x4E00 <= cp <= 0x9FFF)
            or (0x3400 <= cp <= 0x4DBF)
            or (0x20000 <= cp <= 0x2A6DF)
            or (0x2A700 <= cp <= 0x2B73F)
            or (0x2B740 <= cp <= 0x2B81F)
            or (0x2B820 <= cp <= 0x2CEAF)
            or (0xF900 <= cp <= 0xFAFF)
            or (0x2F800 <= cp <= 0x2FA1F))


# ---------------------------------------------------------------------------------------------------------------
# Basic tokenization: special tokens, cleaning, CJK, lower-casing, accents, punctuation
# ---------------------------------------------------------------------------------------------------------------

def split_on_special_tokens(text, special_tokens):
    """Cut ``text`` around every occurrence of a special token, returning the pieces in order.

    Special tokens are matched in the raw text, anywhere (``"a[MASK]b"`` gives ``a``, ``[MASK]``, ``b``); at one
    position the longest token wins. Empty pieces are left out.
    """
    pieces = []
    start = 0
    while start < len(text):
        found_at = -1
        found = ""
        for token in special_tokens:
            at = text.find(token, start)
            if at != -1 and (found_at == -1 or at < found_at or (at == found_at and len(token) > len(found))):
                found_at = at
                found = token
        if found_at == -1:
            pieces.append(text[start:])
            break
        if found_at > start:
            pieces.append(text[start:found_at])
        pieces.append(found)
        start = found_at + len(found)
    return pieces


def clean_text(text):
    """Drop NUL, U+FFFD and control characters; turn every whitespace character into a plain space."""
    output = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or is_control(ch):
            continue
        if is_whitespace(ch):
            output.append(" ")
        else:
            output.append(ch)
    return "".join(output)


def tokenize_cjk(text):
    """Put spaces around every CJK ideograph, so that each one becomes a word of its own."""
    output = []
    for ch in text:
        if is_cjk(ord(ch)):
            output.append(" ")
            output.append(ch)
            output.append(" ")
        else:
            output.append(ch)
    return "".join(output)


def strip_accents(text):
    """Remove accents: decompose (NFD) and drop the non-spacing combining marks (category Mn)."""
    output = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) != "Mn":
            output.append(ch)
    return "".join(output)


def split_on_punctuation(text):
    """Split a word into runs of non-punctuation characters and single punctuation characters."""
    words = []
    current = []
    for ch in text:
        if is_punctuation(ch):
            if current:
                words.append("".join(current))
                current = []
            words.append(ch)
        else:
            current.append(ch)
    if current:
        words.append("".join(current))
    return words


def basic_tokenize(text, never_split):
    """Split raw text into lower-cased, accent-free words and punctuation; tokens in ``never_split`` stay whole."""
    tokens = []
    for piece in split_on_special_tokens(text, never_split):
        if piece in never_split:
            tokens.append(piece)
            continue
        piece = tokenize_cjk(clean_text(piece))
        for word in piece.split():
            word = strip_accents(word.lower())
            tokens.extend(split_on_punctuation(word))
    return tokens


# ---------------------------------------------------------------------------------------------------------------
# WordPiece
# ---------------------------------------------------------------------------------------------------------------

def wordpiece(word, vocab, unk_token, max_chars):
    """Cut one word into vocabulary pieces, greedily taking the longest match first.

    Pieces after the first carry the ``##`` prefix. A word longer than ``max_chars`` characters, or one with a
    part that matches nothing, becomes the single token ``unk_token``.
    """
    if len(word) > max_chars:
        return [unk_token]
    pieces = []
    start = 0
    while start < len(word):
        end = len(word)
        piece = ""
        while start < end:
            candidate = word[start:end]
            if start > 0:
                candidate = CONTINUATION_PREFIX + candidate
            if candidate in vocab:
                piece = candidate
                break
            end -= 1
        if not piece:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces


def wordpiece_tokenize(text, vocab, never_split=SPECIAL_TOKENS, unk_token=UNK_TOKEN, max_chars=MAX_CHARS_PER_WORD):
    """Tokenize raw text into WordPiece tokens (without ``[CLS]``/``[SEP]``)."""
    tokens = []
    for word in basic_tokenize(text, never_split):
        if word in never_split:
            tokens.append(word)
        else:
            tokens.extend(wordpiece(word, vocab, unk_token, max_chars))
    return tokens


def convert_tokens_to_ids(tokens, vocab, unk_token=UNK_TOKEN):
    """Map tokens to vocabulary ids; a token missing from the vocabulary gets the id of ``unk_token``."""
    unk_id = vocab[unk_token]
    return [vocab.get(token, unk_id) for token in tokens]


# ---------------------------------------------------------------------------------------------------------------
# The four numeric helpers: truncation, padding, attention mask, segment ids (lists of ints in and out)
# ---------------------------------------------------------------------------------------------------------------

def truncate_pair(ids_a, ids_b, max_tokens):
    """Cut two id lists to at most ``max_tokens`` together, longest first; returns new lists ``(ids_a, ids_b)``.

    As in HuggingFace ``tokenizers``: if one sequence fits in half the budget it is kept whole and the other
    gets the rest; otherwise both get half, the longer one (the second one on a tie) the odd token. For a
    single sequence pass an empty ``ids_b``.
    """
    keep_a = len(ids_a)
    keep_b = len(ids_b)
    if keep_a + keep_b > max_tokens:
        half = max_tokens // 2
        if keep_a > keep_b:
            keep_b = min(keep_b, half)
            keep_a = max_tokens - keep_b
        else:
            keep_a = min(keep_a, half)
            keep_b = max_tokens - keep_a
    return ids_a[:keep_a], ids_b[:keep_b]


def pad(ids, length, pad_id):
    """Return ``ids`` extended with ``pad_id`` up to ``length`` items (a copy, never shortened)."""
    return ids + [pad_id] * (length - len(ids))


def build_attention_mask(n_tokens, length):
    """Attention mask for ``n_tokens`` real tokens padded to ``length``: ones, then zeros."""
    return [1] * n_tokens + [0] * (length - n_tokens)


def build_token_type_ids(first_length, second_length):
    """Segment ids: ``first_length`` zeros (``[CLS]`` A ``[SEP]``), then ``second_length`` ones (B ``[SEP]``)."""
    return [0] * first_length + [1] * second_length


# ---------------------------------------------------------------------------------------------------------------
# Encoding: model inputs for one text, a pair of texts, or a batch
# ---------------------------------------------------------------------------------------------------------------

def check_max_length(max_length, n_special):
    """Raise ``ValueError`` if ``max_length`` cannot even hold the ``n_special`` special tokens."""
    if max_length < n_special:
        raise ValueError(f"max_length={max_length} is too small: it must leave room for {n_special} special tokens")


def finish_encoding(input_ids, first_length, pad_to, pad_id):
    """Pad ``input_ids`` with ``pad_id`` up to ``pad_to`` ids; build the matching segment ids and attention mask."""
    n_tokens = len(input_ids)
    length = max(n_tokens, pad_to)
    return {
        "input_ids": pad(input_ids, length, pad_id),
        "token_type_ids": pad(build_token_type_ids(first_length, n_tokens - first_length), length, 0),
        "attention_mask": build_attention_mask(n_tokens, length),
    }


def encode(text, vocab, max_length=DEFAULT_MAX_LENGTH, pad_to=0):
    """Encode one text as ``[CLS] text [SEP]``: a dict of ``input_ids``, ``token_type_ids``, ``attention_mask``.

    The tokens are truncated so that the result holds at most ``max_length`` ids (``None``: no limit), then
    padded with ``[PAD]`` up to ``pad_to`` ids.
    """
    ids = convert_tokens_to_ids(wordpiece_tokenize(text, vocab), vocab)
    if max_length is not None:
        check_max_length(max_length, 2)
        ids, _ = truncate_pair(ids, [], max_length - 2)
    input_ids = [vocab[CLS_TOKEN]] + ids + [vocab[SEP_TOKEN]]
    return finish_encoding(input_ids, len(input_ids), pad_to, vocab[PAD_TOKEN])


def encode_pair(text_a, text_b, vocab, max_length=DEFAULT_MAX_LENGTH, pad_to=0):
    """Encode two texts as ``[CLS] a [SEP] b [SEP]`` with segment ids 0 for a's part and 1 for b's part.

    Truncation is longest-first (see ``truncate_pair``); padding as in ``encode``.
    """
    ids_a = convert_tokens_to_ids(wordpiece_tokenize(text_a, vocab), vocab)
    ids_b = convert_tokens_to_ids(wordpiece_tokenize(text_b, vocab), vocab)
    if max_length is not None:
        check_max_length(max_length, 3)
        ids_a, ids_b = truncate_pair(ids_a, ids_b, max_length - 3)
    cls_id = vocab[CLS_TOKEN]
    sep_id = vocab[SEP_TOKEN]
    input_ids = [cls_id] + ids_a + [sep_id] + ids_b + [sep_id]
    return finish_encoding(input_ids, len(ids_a) + 2, pad_to, vocab[PAD_TOKEN])


def encode_batch(texts, vocab, max_length=DEFAULT_MAX_LENGTH, pad_to_longest=True):
    """Encode a batch of texts (each a ``str`` or a ``(text_a, text_b)`` pair) into a dict of lists of lists.

    With ``pad_to_longest`` every row is padded to the longest row of the batch, ready to stack as a tensor.
    """
    encodings = []
    for item in texts:
        if isinstance(item, str):
            encodings.append(encode(item, vocab, max_length))
        else:
            encodings.append(encode_pair(item[0], item[1], vocab, max_length))
    longest = 0
    if pad_to_longest:
        for encoding in encodings:
            longest = max(longest, len(encoding["input_ids"]))
    pad_id = vocab[PAD_TOKEN]
    batch = {"input_ids": [], "token_type_ids": [], "attention_mask": []}
    for encoding in encodings:
        n_tokens = len(encoding["input_ids"])
        length = max(n_tokens, longest)
        batch["input_ids"].append(pad(encoding["input_ids"], length, pad_id))
        batch["token_type_ids"].append(pad(encoding["token_type_ids"], length, 0))
        batch["attention_mask"].append(build_attention_mask(n_tokens, length))
    return batch


class BertPreprocessor:
    """Convenience wrapper holding a vocabulary: ``BertPreprocessor.from_file(path).encode("text")``."""

    def __init__(self, vocab, max_length=DEFAULT_MAX_LENGTH):
        self.vocab = vocab
        self.max_length = max_length

    @classmethod
    def from_file(cls, path, max_length=DEFAULT_MAX_LENGTH):
        """Build a preprocessor from a ``vocab.txt`` file."""
        return cls(load_vocab(path), max_length)

    def tokenize(self, text):
        """WordPiece tokens of ``text``, without special tokens."""
        return wordpiece_tokenize(text, self.vocab)

    def encode(self, text, pad_to=0):
        """Model inputs for one text (see the module-level ``encode``)."""
        return encode(text, self.vocab, self.max_length, pad_to)

    def encode_pair(self, text_a, text_b, pad_to=0):
        """Model inputs for a pair of texts (see the module-level ``encode_pair``)."""
        return encode_pair(text_a, text_b, self.vocab, self.max_length, pad_to)

    def encode_batch(self, texts, pad_to_longest=True):
        """Model inputs for a batch (see the module-level ``encode_batch``)."""
        return encode_batch(texts, self.vocab, self.max_length, pad_to_longest)
