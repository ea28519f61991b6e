/**
 * Okapi BM25 over a handful of documents (a task's slots). With only 5-12 documents the classic IDF goes
 * negative for a term in more than half of them, which would punish a question for naming the task's
 * main component; the "+1 inside the log" variant (as in Lucene) keeps every shared term non-negative.
 */
export interface Bm25Options {
  k1?: number;
  b?: number;
}

/** The IDF of a term found in n of N documents. */
export function bm25Idf(n: number, N: number): number {
  return Math.log(1 + (N - n + 0.5) / (n + 0.5));
}

export class Bm25 {
  private readonly docs: Map<string, number>[];
  private readonly lengths: number[];
  private readonly avgLength: number;
  private readonly df = new Map<string, number>();
  private readonly k1: number;
  private readonly b: number;

  constructor(documents: string[][], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.docs = documents.map((terms) => {
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return tf;
    });
    this.lengths = documents.map((d) => d.length);
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, documents.length);
  }

  idf(term: string): number {
    return bm25Idf(this.df.get(term) ?? 0, this.docs.length);
  }

  /** One score per document, in document order. Repeated query terms count once. */
  scores(query: string[]): number[] {
    const terms = [...new Set(query)];
    return this.docs.map((tf, i) => {
      const len = this.lengths[i]!;
      let s = 0;
      for (const t of terms) {
        const f = tf.get(t);
        if (!f) continue;
        const norm = f + this.k1 * (1 - this.b + (this.b * len) / (this.avgLength || 1));
        s += this.idf(t) * ((f * (this.k1 + 1)) / norm);
      }
      return s;
    });
  }
}
