"""Plain-CPython throughput of the BERT pipeline on the corpus, and where its time goes, stage by stage.

- throughput: ``encode_batch`` over the whole corpus in batches (truncated to 512, padded to the batch's
  longest row), median of ``--rounds`` rounds, as tokens/s (real tokens: ``[CLS]``/``[SEP]`` included, padding
  not) and characters/s; HuggingFace ``tokenizers`` on one thread is timed in the same rounds for scale;
- stages: each stage function run alone over the inputs it sees in the pipeline, so that its share of the
  total is its own time plus its call overhead.

Run it as ``python -m benchmarks.bert.throughput [--limit N] [--rounds R]``.
"""
import argparse
import os
import statistics
import time

from benchmarks.bert import data, pipeline



def time_call(function, *args):
    """Seconds taken by one call of ``function(*args)``, and its result."""
    start = time.perf_counter()
    result = function(*args)
    return time.perf_counter() - start, result


def encode_corpus(lines, vocab, batch_size):
    """``encode_batch`` over ``lines`` in batches; returns the number of real (unpadded) tokens."""
    tokens = 0
    for start in range(0, len(lines), batch_size):
        batch = pipeline.encode_batch(lines[start:start + batch_size], vocab)
        for mask in batch["attention_mask"]:
            tokens += sum(mask)
    return tokens


def encode_corpus_reference(lines, reference, batch_size):
    """The same batches through HuggingFace ``tokenizers``; returns the number of real tokens."""
    tokens = 0
    for start in range(0, len(lines), batch_size):
        for encoding in reference.encode_batch(lines[start:start + batch_size]):
            tokens += sum(encoding.attention_mask)
    return tokens


def measure_throughput(lines, vocab, batch_size, rounds, progress):
    """Median seconds per corpus pass for the pipeline and the Rust reference (interleaved rounds)."""
    from benchmarks.bert import verify

    reference = verify.reference_tokenizer(vocab, max_length=pipeline.DEFAULT_MAX_LENGTH, pad_to_longest=True)
    ours, theirs = [], []
    tokens = reference_tokens = 0
    for _ in progress(range(rounds), desc="throughput rounds"):
        seconds, tokens = time_call(encode_corpus, lines, vocab, batch_size)
        ours.append(seconds)
        seconds, reference_tokens = time_call(encode_corpus_reference, lines, reference, batch_size)
        theirs.append(seconds)
    if tokens != reference_tokens:
        raise RuntimeError(f"token counts differ: pipeline {tokens}, tokenizers {reference_tokens}")
    return statistics.median(ours), statistics.median(theirs), tokens


def stage_inputs(lines, vocab):
    """What each stage receives when the pipeline runs on ``lines``, collected once before timing."""
    pieces, cleaned, spaced, words, lowered, stripped, punctuated, token_lists = [], [], [], [], [], [], [], []
    for line in lines:
        for piece in pipeline.split_on_special_tokens(line, pipeline.SPECIAL_TOKENS):
            if piece not in pipeline.SPECIAL_TOKENS:
                pieces.append(piece)
    for piece in pieces:
        cleaned.append(pipeline.clean_text(piece))
    for text in cleaned:
        spaced.append(pipeline.tokenize_cjk(text))
    for text in spaced:
        words.extend(text.split())
    for word in words:
        lowered.append(word.lower())
    for word in lowered:
        stripped.append(pipeline.strip_accents(word))
    for word in stripped:
        punctuated.extend(pipeline.split_on_punctuation(word))
    for line in lines:
        token_lists.append(pipeline.wordpiece_tokenize(line, vocab))
    return {"lines": lines, "pieces": pieces, "cleaned": cleaned, "spaced": spaced, "words": words,
            "lowered": lowered, "stripped": stripped, "punctuated": punctuated, "token_lists": token_lists}


def run_stages(inputs, vocab, batch_size):
    """Seconds spent in each stage, run alone over its own inputs."""
    stages = {}

    def special_tokens():
        for line in inputs["lines"]:
            pipeline.split_on_special_tokens(line, pipeline.SPECIAL_TOKENS)

    def cleaning():
        for piece in inputs["pieces"]:
            pipeline.clean_text(piece)

    def cjk_spacing():
        for text in inputs["cleaned"]:
            pipeline.tokenize_cjk(text)

    def whitespace_split():
        for text in inputs["spaced"]:
            text.split()

    def lower_casing():
        for word in inputs["words"]:
            word.lower()

    def accent_stripping():
        for word in inputs["lowered"]:
            pipeline.strip_accents(word)

    def punctuation_splitting():
        for word in inputs["stripped"]:
            pipeline.split_on_punctuation(word)

    def wordpiece():
        for word in inputs["punctuated"]:
            pipeline.wordpiece(word, vocab, pipeline.UNK_TOKEN, pipeline.MAX_CHARS_PER_WORD)

    def ids_and_numeric_helpers():
        cls_id, sep_id, pad_id = vocab[pipeline.CLS_TOKEN], vocab[pipeline.SEP_TOKEN], vocab[pipeline.PAD_TOKEN]
        token_lists = inputs["token_lists"]
        for start in range(0, len(token_lists), batch_size):
            rows = []
            for tokens in token_lists[start:start + batch_size]:
                ids, _ = pipeline.truncate_pair(pipeline.convert_tokens_to_ids(tokens, vocab), [],
                                                pipeline.DEFAULT_MAX_LENGTH - 2)
                rows.append([cls_id] + ids + [sep_id])
            longest = max(len(row) for row in rows)
            for row in rows:
                pipeline.pad(row, longest, pad_id)
                pipeline.build_token_type_ids(len(row), 0)
                pipeline.build_attention_mask(len(row), longest)

    for stage in (special_tokens, cleaning, cjk_spacing, whitespace_split, lower_casing, accent_stripping,
                  punctuation_splitting, wordpiece, ids_and_numeric_helpers):
        stages[stage.__name__.replace("_", " ")], _ = time_call(stage)
    return stages


def count_calls(inputs):
    """How often the per-character helpers run: characters seen by each character-level stage."""
    return {
        "characters cleaned (is_control + is_whitespace each)": sum(len(text) for text in inputs["pieces"]),
        "characters CJK-checked (is_cjk each)": sum(len(text) for text in inputs["cleaned"]),
        "characters punctuation-checked (is_punctuation each)": sum(len(text) for text in inputs["stripped"]),
        "words given to wordpiece": len(inputs["punctuated"]),
    }


def main(argv=None):
    """Command line: print throughput and the per-stage profile."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N corpus lines")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args(argv)
    os.environ["TOKENIZERS_PARALLELISM"] = "false"   # tokenizers' encode_batch then runs on the calling thread
    from tqdm import tqdm

    vocab = pipeline.load_vocab(data.fetch_vocab())
    lines = data.read_corpus()
    lines = lines[:args.limit] if args.limit else lines
    characters = sum(len(line) for line in lines)
    print(f"corpus: {len(lines)} lines, {characters:,} characters; batches of {args.batch_size}, "
          f"max_length {pipeline.DEFAULT_MAX_LENGTH}, median of {args.rounds} rounds")
    ours, theirs, tokens = measure_throughput(lines, vocab, args.batch_size, args.rounds, tqdm)
    print(f"plain CPython encode_batch: {ours:7.2f} s  {tokens / ours:10,.0f} tokens/s  "
          f"{characters / ours:10,.0f} chars/s")
    print(f"tokenizers (Rust, 1 thread): {theirs:6.2f} s  {tokens / theirs:10,.0f} tokens/s  "
          f"{characters / theirs:10,.0f} chars/s  ({ours / theirs:.2f}x CPython)")

    inputs = stage_inputs(lines, vocab)
    stages = run_stages(inputs, vocab, args.batch_size)
    total = sum(stages.values())
    print(f"stages, each run alone (sum {total:.2f} s; end to end {ours:.2f} s):")
    for name, seconds in sorted(stages.items(), key=lambda item: -item[1]):
        print(f"    {name:26s} {seconds:6.2f} s  {100 * seconds / total:5.1f}%")
    for name, count in count_calls(inputs).items():
        print(f"    {count:12,d}  {name}")


if __name__ == "__main__":
    main()
