import { z } from 'zod';
import { ActionSchema, type Action } from '../actions.js';

/**
 * Reads the bolt-style text protocol, for models without tool calling: `<boltArtifact>` with
 * `<boltAction type="file" filePath="...">` (implement), `<ask_user>` (clarify),
 * `<screenshot_validated/>` (verify), `<finish/>` (submit). Models wrap things in Markdown fences,
 * get cut off mid-file and mix action kinds; anything that cannot be read as exactly one action is
 * refused with a reason the model can act on, never guessed at: a half-written file must not be
 * saved as if it were whole.
 */

export type ArtifactParse = { action: Action; remarks: string[] } | { invalid: string };

type Kind = 'artifact' | 'ask_user' | 'screenshot_validated' | 'finish';

const OPENERS: Record<Kind, RegExp> = {
  artifact: /<boltArtifact\b/i,
  ask_user: /<ask_user\b/i,
  screenshot_validated: /<screenshot_validated\b/i,
  finish: /<finish\b/i,
};

const ARTIFACT = /<boltArtifact\b[^>]*>([\s\S]*?)<\/boltArtifact\s*>/gi;

export function parseArtifactReply(reply: string, cutOff = false): ArtifactParse {
  const hint = cutOff ? ' Your reply was cut off at the token limit: write fewer or smaller files per reply.' : '';
  const artifactCount = (reply.match(/<boltArtifact\b/gi) ?? []).length;
  const closedArtifacts = [...reply.matchAll(ARTIFACT)];
  if (closedArtifacts.length < artifactCount) return { invalid: `a <boltArtifact> is not closed with </boltArtifact>; nothing was written.${hint}` };
  // Tags inside file contents (an HTML file may well say "finish") must not count as actions.
  const outside = reply.replace(ARTIFACT, ' ');
  const kinds = (Object.keys(OPENERS) as Kind[]).filter((k) => (k === 'artifact' ? artifactCount > 0 : OPENERS[k].test(outside)));
  if (kinds.length === 0) {
    return { invalid: `no action found.${hint} Reply with exactly one of <ask_user>...</ask_user>, a <boltArtifact>, <screenshot_validated/> or <finish/>.` };
  }
  if (kinds.length > 1) {
    return { invalid: `one kind of action per reply, but this reply has ${kinds.map((k) => `<${k === 'artifact' ? 'boltArtifact' : k}>`).join(' and ')}; nothing was done.` };
  }
  switch (kinds[0]!) {
    case 'artifact':
      return parseArtifacts(closedArtifacts.map((m) => m[1] ?? ''), hint);
    case 'ask_user':
      return parseQuestion(outside, hint);
    case 'screenshot_validated': {
      const tag = /<screenshot_validated\b([^>]*)>/i.exec(outside);
      if (!tag) return { invalid: `the <screenshot_validated/> tag is not closed.${hint}` };
      const attrs = attributes(tag[1]!.replace(/\/\s*$/, ''));
      // Optional test criteria make the verify an audit (agent/audit.ts).
      const criteria = /<TestCriteria\b[^>]*>([\s\S]*?)<\/TestCriteria\s*>/i.exec(outside)?.[1]?.trim();
      return checked({ type: 'verify', path: attrs.path ?? '/', ...(criteria ? { criteria } : {}) });
    }
    case 'finish':
      if (!/<finish\b[^>]*>/i.test(outside)) return { invalid: `the <finish/> tag is not closed.${hint}` };
      return checked({ type: 'submit' });
  }
}

function parseQuestion(text: string, hint: string): ArtifactParse {
  const opened = (text.match(/<ask_user\b/gi) ?? []).length;
  const closed = [...text.matchAll(/<ask_user\b[^>]*>([\s\S]*?)<\/ask_user\s*>/gi)];
  if (closed.length < opened) return { invalid: `an <ask_user> is not closed with </ask_user>.${hint}` };
  if (closed.length > 1) return { invalid: `ask one question per reply; this reply has ${closed.length} <ask_user> tags. None was asked.` };
  const question = stripFences(closed[0]![1] ?? '').trim();
  if (!question) return { invalid: 'the <ask_user> tag is empty; put your question inside it.' };
  return checked({ type: 'clarify', question });
}

function parseArtifacts(bodies: string[], hint: string): ArtifactParse {
  const files: { path: string; content: string }[] = [];
  const deletes: string[] = [];
  const remarks: string[] = [];
  for (const body of bodies) {
    const tag = /<boltAction\b([^>]*?)(\/?)>/gi;
    let m: RegExpExecArray | null;
    while ((m = tag.exec(body)) !== null) {
      const attrs = attributes(m[1]!);
      const type = (attrs.type ?? '').toLowerCase();
      const filePath = attrs.filePath ?? attrs.filepath ?? attrs.path;
      let content = '';
      if (m[2] !== '/') {
        const end = body.indexOf('</boltAction>', tag.lastIndex);
        const next = body.slice(tag.lastIndex).search(/<boltAction\b/i);
        if (end < 0 || (next >= 0 && tag.lastIndex + next < end)) {
          return { invalid: `the <boltAction>${filePath ? ` for ${filePath}` : ''} is not closed with </boltAction>; nothing was written.${hint}` };
        }
        content = body.slice(tag.lastIndex, end);
        tag.lastIndex = end + '</boltAction>'.length;
      }
      if (type === 'file') {
        if (!filePath) return { invalid: 'a <boltAction type="file"> has no filePath attribute; nothing was written.' };
        files.push({ path: filePath, content: fileContent(content) });
      } else if (type === 'delete') {
        if (!filePath) return { invalid: 'a <boltAction type="delete"> has no filePath attribute; nothing was done.' };
        deletes.push(filePath);
      } else if (type === 'shell' || type === 'start') {
        remarks.push(`The ${type} action ${JSON.stringify(content.trim().slice(0, 120))} was not run: the harness installs and starts npm projects itself.`);
      } else {
        return { invalid: `unknown <boltAction type="${attrs.type ?? ''}">; use type="file" or type="delete". Nothing was written.` };
      }
    }
  }
  if (files.length + deletes.length === 0) {
    return { invalid: 'the <boltArtifact> holds no <boltAction type="file" filePath="..."> actions; nothing was written.' };
  }
  const parsed = checked({ type: 'implement', files, deletes });
  return 'action' in parsed ? { action: parsed.action, remarks } : parsed;
}

/** `name="value"` and `name='value'` pairs; names keep their case (filePath). Shared by the paper protocol. */
export function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]!] = m[2] ?? m[3] ?? '';
  return out;
}

/** A whole file wrapped in a Markdown fence, unwrapped. */
export function stripFences(text: string): string {
  const m = /^\s*```[\w.+-]*[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```\s*$/.exec(text);
  return m ? m[1]! : text;
}

/** The file as meant: without the newline after the tag, a Markdown fence or a CDATA wrapper around it. */
function fileContent(raw: string): string {
  let text = raw.replace(/^[ \t]*\r?\n/, '').replace(/\r?\n[ \t]*$/, '');
  text = stripFences(text);
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(text);
  if (cdata) text = cdata[1]!.replace(/^\r?\n/, '');
  return text === '' || text.endsWith('\n') ? text : text + '\n';
}

function checked(candidate: unknown): ArtifactParse {
  const parsed = ActionSchema.safeParse(candidate);
  if (!parsed.success) return { invalid: `the action is malformed: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}` };
  return { action: parsed.data, remarks: [] };
}
