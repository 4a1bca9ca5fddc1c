"""Distil the static embedding model pdfdesk ships, from the int8 ONNX all-MiniLM-L6-v2.

A static model maps every vocabulary token to one fixed vector; a text's embedding is the mean of
its tokens' vectors. That costs a table lookup instead of a transformer pass, so a 300-page manual
embeds in well under a second at about a hundred megabytes, offline from the first start.

How (the model2vec recipe, done with onnxruntime + numpy + tokenizers, no torch):
1. every token of the vocabulary goes through the transformer alone, as `[CLS] token [SEP]`, and
   its output is mean-pooled (over the token's own position, or over all three: `--pool`);
2. PCA to 256 dimensions (the leading components carry the meaning; the rest is mostly noise);
3. each row is scaled by a SIF weight a / (a + p(token)), with p from Zipf's law on the token's
   frequency rank, so frequent tokens ("the", punctuation) count for little in the mean.
   BERT's WordPiece vocabulary is not in frequency order from the start: ids 0-998 are reserved,
   999-1995 are the single characters (in code-point order), and only from 1996 ("the", "of",
   "and", ...) do words and word pieces follow roughly by frequency. `--rank words` ranks the words
   from 1996 on and puts the single characters behind the 500 most frequent words, instead of
   model2vec's rank = id (`--rank id`), which leaves "the" weighted like a rare word.

Run: python scripts/distill_static_model.py [--source DIR] [--out DIR] [--pool token|all]
                                            [--rank words|id|none] [--sif A]
The defaults are the shipped choice: bench/embedding_bench.py compared both poolings, the three
rankings and a in {1e-4, 1e-3}; they were within a query or two of each other, this one the best.
Writes config.json, model.safetensors (float16), tokenizer.json, README.md and PROVENANCE.md, and
prints the weights' sha256 to record in pdfdesk/index/embedding.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-int8"
OUT = ROOT / "resources" / "models" / "minilm-static-256"
DIMENSIONS = 256
SIF_COEFFICIENT = 1e-3  # model2vec uses 1e-4; with ranks that start at "the", 1e-3 did as well or better
FIRST_WORD_ID = 1996  # "the": the first id of BERT's frequency-ordered words
FIRST_CHAR_ID = 999   # "!": the single characters, in code-point order, up to FIRST_WORD_ID
CHAR_RANK = 500       # where the single characters sit among the words when ranked
BATCH = 2048


def token_vectors(source: Path, pool: str, threads: int) -> np.ndarray:
    """The transformer's output for each vocabulary token on its own."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
    size = tokenizer.get_vocab_size()
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(str(source / "model.onnx"), options, providers=["CPUExecutionProvider"])
    out = np.zeros((size, 384), dtype=np.float32)
    for start in range(0, size, BATCH):
        ids = np.arange(start, min(start + BATCH, size), dtype=np.int64)
        batch = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        hidden = session.run(["last_hidden_state"], {"input_ids": batch, "attention_mask": np.ones_like(batch),
                                                     "token_type_ids": np.zeros_like(batch)})[0]
        out[start:start + len(ids)] = hidden[:, 1] if pool == "token" else hidden.mean(axis=1)
    return out


def pca(vectors: np.ndarray, dimensions: int) -> np.ndarray:
    """Project onto the leading principal components, signs fixed so reruns give the same file."""
    centred = vectors - vectors.mean(axis=0)
    covariance = (centred.T @ centred) / (len(vectors) - 1)
    _values, components = np.linalg.eigh(covariance.astype(np.float64))
    components = components[:, ::-1][:, :dimensions]
    projected = centred @ components
    signs = np.sign(projected[np.abs(projected).argmax(axis=0), np.arange(dimensions)])
    return (projected * signs).astype(np.float32)


def frequency_ranks(size: int, how: str) -> np.ndarray | None:
    """A guessed frequency rank per token id (0 = most frequent); None = no weighting."""
    if how == "none":
        return None
    ids = np.arange(size, dtype=np.float64)
    if how == "id":
        return ids
    ranks = ids - FIRST_WORD_ID                          # words and pieces, roughly by frequency
    chars = (ids >= FIRST_CHAR_ID) & (ids < FIRST_WORD_ID)
    ranks[chars] = CHAR_RANK + (ids[chars] - FIRST_CHAR_ID)
    ranks[ids < FIRST_CHAR_ID] = size                    # reserved: never produced by real text
    return np.maximum(ranks, 0)


def sif_weights(ranks: np.ndarray, coefficient: float = SIF_COEFFICIENT) -> np.ndarray:
    """a / (a + p), with p(rank) from Zipf's law over the vocabulary."""
    inverse = 1.0 / (ranks + 2.0)
    probability = inverse / inverse.sum()
    return coefficient / (coefficient + probability)


def write_model(out: Path, source: Path, embeddings: np.ndarray, settings: dict[str, object]) -> str:
    """The model2vec folder layout; returns the sha256 of model.safetensors."""
    from safetensors.numpy import save_file
    from tokenizers import Tokenizer

    out.mkdir(parents=True, exist_ok=True)
    save_file({"embeddings": np.ascontiguousarray(embeddings)}, str(out / "model.safetensors"))
    tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
    tokenizer.no_truncation()  # the loader sets its own limits; the source file pads to 128
    tokenizer.no_padding()
    tokenizer.save(str(out / "tokenizer.json"), pretty=False)
    config = {"model_type": "model2vec", "architectures": ["StaticModel"],
              "tokenizer_name": "sentence-transformers/all-MiniLM-L6-v2", "apply_pca": DIMENSIONS,
              "hidden_dim": int(embeddings.shape[1]), "seq_length": 1000000,
              "normalize": True, "embedding_dtype": str(embeddings.dtype), "max_length": 512, **settings}
    (out / "config.json").write_text(json.dumps(config, indent=4) + "\n", encoding="utf-8")
    for path in out.iterdir():
        path.chmod(0o644)  # safetensors writes 0600; installers copy the mode
    digest = hashlib.sha256((out / "model.safetensors").read_bytes()).hexdigest()
    _write_notes(out, source, settings, digest)
    return digest


def _write_notes(out: Path, source: Path, settings: dict[str, object], digest: str) -> None:
    source_sha = hashlib.sha256((source / "model.onnx").read_bytes()).hexdigest()
    card = ("---\nlicense: apache-2.0\nlibrary_name: model2vec\n"
            "base_model: sentence-transformers/all-MiniLM-L6-v2\nlanguage: en\n---\n\n")
    text = f"""# minilm-static-256 — pdfdesk's built-in embedding model

A static (model2vec-format) embedding: one 256-dimensional float16 vector per WordPiece token; a
text's embedding is the mean of its tokens' vectors, L2-normalised.

- Source: sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), as the int8 ONNX export
  `model.onnx` (sha256 {source_sha}) with the model's own tokenizer.
- Licence: Apache-2.0, like its source. The tokenizer.json is the source model's, without its
  padding and truncation settings.
- How it was made: `python scripts/distill_static_model.py` (onnxruntime + numpy + tokenizers).
  Each of the 30,522 vocabulary tokens went through the transformer as `[CLS] token [SEP]`,
  pooled over {settings['pooling_positions']}; PCA to {DIMENSIONS} dimensions; each row scaled by
  the SIF weight a / (a + p) with a = {settings['sif_coefficient']}, p from Zipf's law on the token's frequency
  rank ({settings['frequency_rank']}); stored as float16.
- model.safetensors sha256: {digest}
- Load: `model2vec.StaticModel.from_pretrained(<this folder>)`, or `pdfdesk.index.embedding`.
"""
    (out / "README.md").write_text(card + text, encoding="utf-8")  # the front matter is what model2vec reads
    (out / "PROVENANCE.md").write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="folder with model.onnx and tokenizer.json")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--pool", choices=("token", "all"), default="token",
                        help="token: the token's own position; all: [CLS], the token and [SEP]")
    parser.add_argument("--rank", choices=("words", "id", "none"), default="words")
    parser.add_argument("--sif", type=float, default=SIF_COEFFICIENT, help="the SIF coefficient a")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    options = parser.parse_args()
    started = time.perf_counter()
    vectors = token_vectors(options.source, options.pool, options.threads)
    embeddings = pca(vectors, DIMENSIONS)
    ranks = frequency_ranks(len(embeddings), options.rank)
    if ranks is not None:
        embeddings *= sif_weights(ranks, options.sif)[:, None].astype(np.float32)
    pooled = "the token's own position" if options.pool == "token" else "all three positions"
    rank = {"words": f"words ranked from id {FIRST_WORD_ID}, single characters from rank {CHAR_RANK}",
            "id": "rank = token id", "none": "no weighting"}[options.rank]
    digest = write_model(options.out, options.source, embeddings.astype(np.float16),
                         {"pooling_positions": pooled, "frequency_rank": rank, "sif_coefficient": options.sif})
    print(f"wrote {options.out} in {time.perf_counter() - started:.1f} s; model.safetensors sha256 {digest}")


if __name__ == "__main__":
    main()
