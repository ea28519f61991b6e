import { attributes, stripFences } from './artifact-parser.js';
import { z } from 'zod';
import { splitReasoning } from '../../llm/tolerant.js';
import { ActionSchema, type Action, type FileWrite } from '../actions.js';
import type { ReplyPaths } from '../types.js';
import { scriptPaths } from './paper-paths.js';

/**
 * Reads a reply in the paper's protocol (AIforIP/InteractWeb-Bench, bolt-style): every action is a
 * `<boltAction type="...">`. `ask_user` (a question), `screenshot_validated` (a verify, after a
 * `<TestCriteria>` block), `finish` (submit), and a `<boltArtifact>` holding `file` and `shell` actions
 * (implement). One action per reply, chosen by the paper's precedence: ask_user over finish over
 * screenshot_validated over the artifact. Files are written for finish and screenshot_validated replies
 * too, never for ask_user; shell actions are recorded and never run. As in the paper's harness, a tag
 * needs only its opening to count (an unclosed finish still finishes; an unclosed question runs to the
 * end of the reply).
 *
 * Where this deliberately differs: `<think>` blocks and file contents are not searched for action tags
 * (the paper's regular expressions scan the whole reply, so a file or a thought that mentions a tag
 * triggers it); a file action that is not closed makes the reply invalid rather than half-written; and
 * HTML entities in a file are decoded only when the whole file is escaped markup (the paper decodes
 * `&lt;` `&gt;` `&amp;` in every file, which breaks a page that means them literally).
 */

export interface PaperParse {
  /** The action, or why none could be read (the reply then costs a step and gets a format warning). */
  decision: { action: Action } | { invalid: string };
  /** Files to write before a verify or submit (an implement carries its own). */
  writes: FileWrite[];
  shell: string[];
  /** The `<think>` blocks, joined. */
  reasoning: string;
  /** What the paper's script counts of the reply (paper-paths.ts), whatever the parser made of it. */
  paths: ReplyPaths;
}

const FILE_OR_SHELL = /<boltAction\b([^>]*)>/gi;
const CLOSE = '</boltAction>';

export function parsePaperReply(reply: string, cutOff = false): PaperParse {
  return { ...readReply(reply, cutOff), paths: scriptPaths(reply) };
}

function readReply(reply: string, cutOff: boolean): Omit<PaperParse, 'paths'> {
  const { text, reasoning = '' } = splitReasoning(reply, 'all');
  const hint = cutOff ? ' Your reply was cut off at the token limit: write fewer or smaller files per reply.' : '';
  const files: FileWrite[] = [];
  const shell: string[] = [];
  // File and shell bodies are cut out before looking for action tags, so their contents cannot act.
  let masked = '';
  let last = 0;
  for (const m of text.matchAll(FILE_OR_SHELL)) {
    const attrs = attributes(m[1]!);
    const type = (attrs.type ?? '').toLowerCase();
    if (type !== 'file' && type !== 'shell') continue;
    const start = m.index! + m[0].length;
    if (start <= last) continue;
    const end = text.toLowerCase().indexOf(CLOSE.toLowerCase(), start);
    const filePath = attrs.filePath ?? attrs.filepath;
    if (end < 0) {
      if (type === 'shell') continue;
      return invalid(`the file action${filePath ? ` for ${filePath}` : ''} is not closed with </boltAction>; nothing was done.${hint}`, reasoning);
    }
    const body = text.slice(start, end);
    if (type === 'file') {
      if (!filePath) return invalid('a <boltAction type="file"> has no filePath attribute; nothing was done.', reasoning);
      files.push({ path: filePath.replace(/^(\.\/)+/, ''), content: fileContent(body) });
    } else if (body.trim()) {
      shell.push(body.trim());
    }
    masked += text.slice(last, start);
    last = end;
  }
  masked += text.slice(last);

  const opener = (type: string) => new RegExp(`<boltAction\\b[^>]*\\btype\\s*=\\s*["']${type}["'][^>]*>`, 'i');
  const base = { writes: [] as FileWrite[], shell, reasoning };
  const ask = opener('ask_user').exec(masked);
  if (ask) {
    const question = stripFences(bodyAfter(masked, ask)).trim();
    if (!question) return { ...base, decision: { invalid: 'the ask_user action is empty; put your question inside it.' } };
    return { ...base, decision: checked({ type: 'clarify', question }) };
  }
  if (opener('finish').test(masked)) return { ...base, writes: files, decision: checked({ type: 'submit' }) };
  const verify = opener('screenshot_validated').exec(masked);
  if (verify) {
    const target = verify[0].trimEnd().endsWith('/>') ? '' : bodyAfter(masked, verify).trim().split(/\s+/)[0] ?? '';
    const criteria = /<TestCriteria\b[^>]*>([\s\S]*?)<\/TestCriteria\s*>/i.exec(masked)?.[1]?.trim();
    return {
      ...base,
      writes: files,
      decision: checked({ type: 'verify', path: target.startsWith('/') ? target : '/', ...(criteria ? { criteria } : {}) }),
    };
  }
  if (/<boltArtifact\b/i.test(masked)) return { ...base, decision: checked({ type: 'implement', files, deletes: [] }) };
  return { ...base, decision: { invalid: `the reply took none of the four paths (ask_user, a <boltArtifact>, screenshot_validated, finish).${hint}` } };
}

/** What follows an opening tag: up to its closing tag, or to the end of the reply as the paper reads it. */
function bodyAfter(text: string, open: RegExpExecArray): string {
  const rest = text.slice(open.index + open[0].length);
  const end = rest.toLowerCase().indexOf(CLOSE.toLowerCase());
  return end < 0 ? rest : rest.slice(0, end);
}

/** The file as meant: no newline right after the tag, no Markdown fence, and escaped markup unescaped. */
function fileContent(raw: string): string {
  let text = stripFences(raw.replace(/^[ \t]*\r?\n/, '').replace(/\r?\n[ \t]*$/, ''));
  if (!text.includes('<') && /&lt;/.test(text)) text = text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return text === '' || text.endsWith('\n') ? text : text + '\n';
}

function checked(candidate: unknown): PaperParse['decision'] {
  const parsed = ActionSchema.safeParse(candidate);
  return parsed.success ? { action: parsed.data } : { invalid: `the action is malformed: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}` };
}

function invalid(reason: string, reasoning: string): Omit<PaperParse, 'paths'> {
  return { decision: { invalid: reason }, writes: [], shell: [], reasoning };
}
