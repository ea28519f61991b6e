import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { contentTypeOf, serveStatic } from '../site/site-server.js';

test('static site server: the usual types (wasm, fonts, media, modules, manifests) from a maintained table', async () => {
  const expected: Record<string, string> = {
    'a.html': 'text/html; charset=utf-8',
    'a.mjs': 'text/javascript; charset=utf-8',
    'a.wasm': 'application/wasm',
    'a.woff': 'font/woff',
    'a.woff2': 'font/woff2',
    'a.ttf': 'font/ttf',
    'a.mp4': 'video/mp4',
    'a.mp3': 'audio/mpeg',
    'a.webm': 'video/webm',
    'a.avif': 'image/avif',
    'a.webmanifest': 'application/manifest+json; charset=utf-8',
    'A.PNG': 'image/png',
    'noext': 'application/octet-stream',
  };
  for (const [file, type] of Object.entries(expected)) assert.equal(contentTypeOf(file), type, file);

  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-mime-'));
  await fs.writeFile(path.join(dir, 'module.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  const site = await serveStatic(dir);
  try {
    const res = await fetch(`${site.url}/module.wasm`);
    assert.equal(res.headers.get('content-type'), 'application/wasm', 'WebAssembly.instantiateStreaming needs exactly this');
  } finally {
    await site.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});
