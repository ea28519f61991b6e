import { promises as fs } from 'node:fs';
import { DatasetError } from './errors.js';

/**
 * The longest dataset line accepted, in bytes: 1 MiB, about 70 times the public release's longest record
 * (14 KB). A 50 MB line was accepted once and took 1.67 GB to play one case; it is refused before parsing.
 */
export const MAX_DATASET_LINE_BYTES = 1024 * 1024;

export interface JsonlLine {
  /** 1-based. */
  lineNo: number;
  text: string;
}

const utf8 = new TextDecoder('utf-8');

/**
 * A JSONL dataset's non-blank lines, each checked as bytes first: over MAX_DATASET_LINE_BYTES, or not valid
 * UTF-8, is a DatasetError naming the file, the line and (for a bad byte inside a string) the field.
 * Decoding the whole file as UTF-8 would have turned a bad byte into U+FFFD silently: an instruction then
 * carried it, and a gold instruction "differed" from the same task's other lines.
 */
export async function readJsonlLines(file: string, maxLineBytes = MAX_DATASET_LINE_BYTES): Promise<JsonlLine[]> {
  const bytes = await fs.readFile(file).catch((e: NodeJS.ErrnoException) => {
    throw new DatasetError(file, undefined, undefined, undefined, `cannot read the dataset (${e.code ?? e.message})`);
  });
  const out: JsonlLine[] = [];
  let start = 0;
  for (let lineNo = 1; start <= bytes.length; lineNo++) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl;
    const raw = bytes.subarray(start, end);
    start = end + 1;
    if (raw.length > maxLineBytes) {
      throw new DatasetError(file, lineNo, undefined, undefined, `the line is ${raw.length} bytes, over the limit of ${maxLineBytes} (MAX_DATASET_LINE_BYTES); a record this large is not a website request`);
    }
    const bad = firstInvalidByte(raw);
    if (bad >= 0) {
      throw new DatasetError(file, lineNo, recordIdOf(raw), fieldWithReplacement(raw), `not valid UTF-8 (byte 0x${raw[bad]!.toString(16).padStart(2, '0')} at byte ${bad + 1} of the line); save the file as UTF-8`);
    }
    const text = utf8.decode(raw);
    if (text.trim() !== '') out.push({ lineNo, text });
    if (nl < 0) break;
  }
  return out;
}

/** One line's JSON, or a DatasetError naming the file and line. */
export function parseJsonlLine(file: string, line: JsonlLine): unknown {
  try {
    return JSON.parse(line.text);
  } catch (e) {
    throw new DatasetError(file, line.lineNo, undefined, undefined, `not valid JSON (${(e as Error).message})`);
  }
}

/** The offset of the first byte that starts no valid UTF-8 sequence (RFC 3629: no overlongs, surrogates or values past U+10FFFF). */
export function firstInvalidByte(raw: Uint8Array): number {
  for (let i = 0; i < raw.length; ) {
    const b = raw[i]!;
    const [n, lo, hi] = b < 0x80 ? [0, 0, 0] : b >= 0xc2 && b <= 0xdf ? [1, 0x80, 0xbf] : b === 0xe0 ? [2, 0xa0, 0xbf] : b === 0xed ? [2, 0x80, 0x9f]
      : b >= 0xe1 && b <= 0xef ? [2, 0x80, 0xbf] : b === 0xf0 ? [3, 0x90, 0xbf] : b >= 0xf1 && b <= 0xf3 ? [3, 0x80, 0xbf] : b === 0xf4 ? [3, 0x80, 0x8f] : [-1, 0, 0];
    if (n < 0) return i;
    // The second byte's range rules out overlongs and surrogates; the rest are plain continuation bytes.
    for (let k = 1; k <= n; k++) {
      const c = raw[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}

function parsedLossy(raw: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(raw));
  } catch {
    return undefined;
  }
}

function recordIdOf(raw: Uint8Array): string | undefined {
  const parsed = parsedLossy(raw);
  const id = typeof parsed === 'object' && parsed !== null ? (parsed as { id?: unknown }).id : undefined;
  return typeof id === 'string' && !id.includes('\uFFFD') ? id : undefined;
}

/** The dotted path of the first key or string value the bad byte landed in (`oracle_slots[2].expected_result`). */
function fieldWithReplacement(raw: Uint8Array): string | undefined {
  const walk = (v: unknown, at: string): string | undefined => {
    if (typeof v === 'string') return v.includes('\uFFFD') ? at : undefined;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = walk(v[i], `${at}[${i}]`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (typeof v === 'object' && v !== null) {
      for (const [k, child] of Object.entries(v)) {
        const here = at ? `${at}.${k}` : k;
        if (k.includes('\uFFFD')) return here;
        const found = walk(child, here);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(parsedLossy(raw), '') || undefined;
}
