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

const THINK = /^\s*<(think|thinking|reasoning)>([\s\S]*?)<\/\1>\s*/i;
/** An opened think block the token limit cut before it closed: the whole reply is reasoning. */
const OPEN_THINK = /^\s*<(think|thinking|reasoning)>([\s\S]*)$/i;
const FENCE = /```(?:json|JSON|javascript|js)?\s*\n?([\s\S]*?)\n?\s*```/;

export function splitReasoning(content: string): { text: string; reasoning?: string } {
  const closed = THINK.exec(content);
  if (closed) return { text: content.slice(closed[0].length), reasoning: closed[2]!.trim() };
  const open = OPEN_THINK.exec(content);
  if (open) return { text: '', reasoning: open[2]!.trim() };
  return { text: content };
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
