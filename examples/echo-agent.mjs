#!/usr/bin/env node
// A minimal agent for IWB_AGENT=command:<cmd>, in plain Node with no dependencies. It asks one
// question, writes an index.html that repeats the request and the answer, looks at the page once and
// submits. It shows the protocol, not how to build a good site: see examples/README.md.
//
//   IWB_AGENT="command:node examples/echo-agent.mjs" npx playwright test
//
// Set ECHO_AGENT_NO_QUESTION=1 to skip the question.

import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ask = process.env.ECHO_AGENT_NO_QUESTION !== '1';

let instruction = '';
let answer = '';

/** One action per line on stdout; logs go to stderr, which the harness keeps. */
function send(action) {
  process.stdout.write(JSON.stringify(action) + '\n');
}

function log(text) {
  process.stderr.write(`[echo-agent] ${text}\n`);
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function page() {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Echo agent</title>
<style>body { font-family: sans-serif; margin: 2rem; } blockquote { color: #333; }</style>
</head>
<body>
<h1>Echo agent</h1>
<p>You asked for:</p>
<blockquote id="request">${escapeHtml(instruction)}</blockquote>
${answer ? `<p>You told me: <span id="answer">${escapeHtml(answer)}</span></p>` : ''}
</body>
</html>
`;
}

function decide(message) {
  // Sent once before a run's first test, in a process of its own: answering proves the agent starts.
  if (message.type === 'hello') return send({ type: 'hello', name: 'echo-agent', version: '1' });
  if (message.stepsLeft <= 1 && message.type !== 'start') return send({ type: 'submit' });
  switch (message.type) {
    case 'start':
      instruction = message.instruction;
      if (ask) return send({ type: 'clarify', question: 'What is the most important thing the page should show?' });
      return send({ type: 'implement', files: [{ path: 'index.html', content: page() }] });
    case 'answer':
      answer = message.answer;
      return send({ type: 'implement', files: [{ path: 'index.html', content: page() }], usage: { promptTokens: 0, completionTokens: 0 } });
    case 'implemented':
      if (message.errors.length || message.siteErrors.length) log(`problems: ${[...message.errors, ...message.siteErrors].join('; ')}`);
      return send({ type: 'verify', path: '/' });
    case 'verified': {
      const inline = Buffer.from(message.screenshot.base64, 'base64');
      const onDisk = existsSync(message.screenshot.file) ? readFileSync(message.screenshot.file) : Buffer.alloc(0);
      const ok = inline.subarray(0, 8).equals(PNG_SIGNATURE) && onDisk.subarray(0, 8).equals(PNG_SIGNATURE);
      log(`saw "${message.title}", screenshot ${ok ? 'is a PNG' : 'is NOT a PNG'} (${inline.length} bytes)`);
      return send({ type: 'submit', note: `title ${message.title}; png ${ok}` });
    }
    case 'error':
      log(`error: ${message.message}`);
      return send({ type: 'submit' });
    default:
      log(`unknown message type ${message.type}`);
      return send({ type: 'submit' });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  decide(JSON.parse(line));
});
