import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { download, fetchCommand, RELEASES } from '../cli/dataset-fetch.js';
import { main } from '../cli/main.js';
import { findRelease, releaseFile } from '../config/public-data.js';
import { capture } from './cli-capture.js';

/** A local server standing in for GitHub: `/good/<file>` serves `files[file]`, `/bad/<file>` one changed byte. */
const files: Record<string, Buffer> = {};
let server: http.Server;
let base: string;
let tmp: string;
before(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-fetch-'));
  server = http.createServer((req, res) => {
    const [, kind, name] = (req.url ?? '').split('/');
    const body = files[name ?? ''];
    if (!body) return void res.writeHead(404).end('not found');
    const served = kind === 'bad' ? Buffer.concat([body.subarray(0, -1), Buffer.from('!')]) : body;
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(served);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(tmp, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('iwb dataset fetch', () => {
  test('a file is kept only when its sha256 is the pinned one; a mismatch leaves nothing behind', async () => {
    files['a.jsonl'] = Buffer.from('{"id":"1"}\n'.repeat(5000));
    const dest = path.join(tmp, 'a.jsonl');
    assert.equal(await download(`${base}/good/a.jsonl`, dest, sha(files['a.jsonl'])), files['a.jsonl'].length);
    assert.deepEqual(await fs.readFile(dest), files['a.jsonl']);
    const other = path.join(tmp, 'b.jsonl');
    await assert.rejects(download(`${base}/bad/a.jsonl`, other, sha(files['a.jsonl'])), /sha256 [0-9a-f]{64}, expected [0-9a-f]{64} \(pinned\); nothing was kept/);
    assert.deepEqual((await fs.readdir(tmp)).sort(), ['a.jsonl'], 'neither the file nor a partial one is left');
    await assert.rejects(download(`${base}/good/missing.jsonl`, other, 'x'), /HTTP 404/);
  });

  test('the real releases, served locally, pass their pinned checksums into --dir; served changed, the command exits 1', async (t) => {
    const found = releaseFile('webgen-bench', 'test.jsonl', process.env);
    if (found.skip) return t.skip(found.skip);
    files['test.jsonl'] = await fs.readFile(found.path);
    const dir = path.join(tmp, 'cache', 'webgen-bench');
    const io = capture();
    assert.equal(await fetchCommand(['webgen-bench', '--url', `${base}/good`, '--dir', dir], io), 0, io.errText());
    assert.match(io.outText(), /test\.jsonl: \d+ bytes from http:\/\/127\.0\.0\.1:\d+\/good\/test\.jsonl, sha256 ok/);
    assert.equal(sha(await fs.readFile(path.join(dir, 'test.jsonl'))), RELEASES['webgen-bench'].files[0]!.sha256);
    const again = capture();
    assert.equal(await fetchCommand(['webgen-bench', '--url', `${base}/bad`, '--dir', dir], again), 0, 'a file already there with the right checksum is not fetched again');
    assert.match(again.outText(), /already in/);
    const bad = capture();
    assert.equal(await fetchCommand(['webgen-bench', '--url', `${base}/bad`, '--dir', path.join(tmp, 'elsewhere')], bad), 1);
    assert.match(bad.errText(), /expected e6451c1c/);
    // The tests find the fetched copy through the one setting, WebGen-Bench beside InteractWeb-Bench.
    assert.equal(findRelease('webgen-bench', { IWB_PUBLIC_DATA: path.join(tmp, 'cache', 'interactweb-bench') }).dir, dir);
  });

  test('an unknown release is a usage error listing both; the subcommand is in dataset --help', async () => {
    const io = capture();
    assert.equal(await main(['dataset', 'fetch', 'webgen'], io), 2);
    assert.match(io.errText(), /iwb dataset fetch <interactweb-bench \| webgen-bench>/);
  });
});

describe('IWB_PUBLIC_DATA', () => {
  test('names the folder the tests read, and its absence is a skip message naming the setting and the fetch command', () => {
    const missing = releaseFile('interactweb-bench', 'all.jsonl', { IWB_PUBLIC_DATA: '/nowhere/interactweb-bench' });
    assert.equal(missing.skip, 'needs the interactweb-bench public release (all.jsonl): set IWB_PUBLIC_DATA or run `npx iwb dataset fetch interactweb-bench`; looked in /nowhere/interactweb-bench');
    assert.match(releaseFile('webgen-bench', 'test.jsonl', { IWB_PUBLIC_DATA: '/nowhere/interactweb-bench' }).skip || '', /looked in \/nowhere\/webgen-bench/);
    const here = releaseFile('interactweb-bench', 'x.jsonl', { IWB_PUBLIC_DATA: tmp });
    assert.equal(here.skip !== false, true, 'a folder without the file is a skip too');
  });

  test('no test or bench file finds the release by a path of its own: each goes through releaseFile, so IWB_PUBLIC_DATA moves them all', async () => {
    const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
    const own: string[] = [];
    for (const dir of ['test', 'bench']) {
      for (const f of await fs.readdir(path.join(root, dir))) {
        if (!f.endsWith('.ts') || f === 'dataset-fetch.test.ts') continue;
        const text = await fs.readFile(path.join(root, dir, f), 'utf8');
        if (text.split('\n').some((line) => /shared\/data/.test(line) && !/^\s*(\/\/|\*)/.test(line))) own.push(`${dir}/${f}`);
      }
    }
    assert.deepEqual(own, []);
  });
});
