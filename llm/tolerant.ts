import { QUIRKS } from './quirks.js';

/**
 * Reading a structured reply the way real models write it. Reasoning models behind vLLM or Ollama (Qwen3,
 * R1 distills) open with a `<think>...</think>` block; many models wrap JSON in a ```json fence or put a
 * sentence before and after it. None of that is the model failing the schema, so it is set aside before
 * validation; the reasoning is kept for the trajectory. Pure text in, text out.
 */
export interface ReadReply {
  /** The text validation should parse: the JSON object when one was found, else the reply as it was. */
  json: string;
  /** Reasoning set aside (a think block, or the server's reasoning_content field), if any. */
  reasoning?: string;
}

const TAGS = QUIRKS.thinkBlock.tags.join('|');
const OPENING = new RegExp(`<(?:${TAGS})\\b[^>]*>`, 'i');
/** A closed block anywhere; the closing tag names the opening's. */
const BLOCK = new RegExp(`<(${TAGS})\\b[^>]*>([\\s\\S]*?)<\\/\\1\\s*>`, 'gi');
const LEADING_BLOCK = new RegExp(`^\\s*<(${TAGS})\\b[^>]*>([\\s\\S]*?)<\\/\\1\\s*>\\s*`, 'i');
/** thinkWithoutOpening: the template opened the block in the prompt, so the reply holds only its end. */
const ORPHAN_CLOSE = new RegExp(`^([\\s\\S]*?)<\\/(?:${TAGS})\\s*>\\s*`, 'i');
/** An opened block the token limit cut before it closed: the whole reply is reasoning. */
const UNCLOSED = new RegExp(`^\\s*<(?:${TAGS})\\b[^>]*>([\\s\\S]*)$`, 'i');
const FENCE = /```(?:json|JSON|javascript|js)?\s*\n?([\s\S]*?)\n?\s*```/;

/**
 * The reasoning a reply opens with, set apart from the rest (the thinkBlock and thinkWithoutOpening quirks).
 * `leading` (the client, for every reply): only reasoning at the start, since a block later on is the model's
 * own text. `all` (the paper protocol's reader, which must not act on a tag a thought mentions): every closed
 * block too, wherever it stands.
 */
export function splitReasoning(content: string, scope: 'leading' | 'all' = 'leading'): { text: string; reasoning?: string } {
  const parts: string[] = [];
  let text = content;
  const orphan = ORPHAN_CLOSE.exec(text);
  if (orphan && !OPENING.test(orphan[1]!)) {
    parts.push(orphan[1]!.trim());
    text = text.slice(orphan[0].length);
  }
  const leading = LEADING_BLOCK.exec(text);
  if (leading) {
    parts.push(leading[2]!.trim());
    text = text.slice(leading[0].length);
  }
  const unclosed = UNCLOSED.exec(text);
  if (unclosed) {
    parts.push(unclosed[1]!.trim());
    text = '';
  }
  if (scope === 'all') {
    text = text.replace(BLOCK, (_, _tag: string, inner: string) => {
      parts.push(inner.trim());
      return ' ';
    });
  }
  const reasoning = parts.filter(Boolean).join('\n\n');
  return { text, ...(reasoning ? { reasoning } : {}) };
}

export function readReply(content: string, reasoningField?: string | null): ReadReply {
  const { text, reasoning: inline } = splitReasoning(content);
  const reasoning = [reasoningField?.trim(), inline].filter((r): r is string => Boolean(r)).join('\n\n') || undefined;
  const trimmed = text.trim();
  const withReasoning = (json: string): ReadReply => ({ json, ...(reasoning ? { reasoning } : {}) });
  if (isJson(trimmed)) return withReasoning(trimmed);
  const fenced = FENCE.exec(trimmed);
  if (fenced && isJson(fenced[1]!.trim())) return withReasoning(fenced[1]!.trim());
  const first = firstObject(trimmed);
  return withReasoning(first ?? trimmed);
}

function isJson(text: string): boolean {
  if (!text.startsWith('{') && !text.startsWith('[')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The first balanced `{...}` that parses, scanning past braces inside strings. */
export function firstObject(text: string): string | undefined {
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) {
        const candidate = text.slice(start, i + 1);
        if (isJson(candidate)) return candidate;
        break;
      }
    }
  }
  return undefined;
}
