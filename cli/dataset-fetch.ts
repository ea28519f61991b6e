import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { PUBLIC_DATA_VARIABLE, RELEASE_NAMES, releaseCacheDir, type ReleaseName } from '../config/public-data.js';
import { parseCommand, usageOf } from './commands.js';
import { cliEnv, UsageError, type CliIo } from './io.js';


interface Release {
  url: string;
  files: { name: string; sha256: string }[];
}

/** Pinned to the commits ../shared/data/*\/SOURCE.md names; the checksums are of those files, byte for byte. */
export const RELEASES: Readonly<Record<ReleaseName, Release>> = {
  'interactweb-bench': {
    url: 'https://raw.githubusercontent.com/AIforIP/InteractWeb-Bench/56040f368e9b41e770fc814d17a7c207c6be7bd9/data',
    files: [
      { name: 'all.jsonl', sha256: 'f6f3b9bc94d509b882fa6c9f0ffd2da066387141168ba06771185f47112a7ded' },
      { name: 'test_mini.jsonl', sha256: '4b641e65963be647300c3f17314900618a3553c1e13eff4233f38527a94f3f67' },
    ],
  },
  'webgen-bench': {
    url: 'https://raw.githubusercontent.com/mnluzimu/WebGen-Bench/95a9930883717c45b596c507a6940a7c96514490/data',
    files: [{ name: 'test.jsonl', sha256: 'e6451c1c5aed85ab01a15ab7c6be2bc737d4df28ca8b9ae15805a237878dee29' }],
  },
};

export class ChecksumMismatch extends Error {
  override name = 'ChecksumMismatch';
}

export async function fetchCommand(args: string[], io: CliIo, env: NodeJS.ProcessEnv = cliEnv()): Promise<number> {
  const { positional, flags } = parseCommand(args, 'dataset', 'fetch');
  const name = positional[0];
  if (positional.length !== 1 || !RELEASE_NAMES.includes(name as ReleaseName)) throw new UsageError(usageOf('dataset', 'fetch'));
  const release = RELEASES[name as ReleaseName];
  const url = flags.get('url');
  const dirFlag = flags.get('dir');
  const dir = typeof dirFlag === 'string' ? path.resolve(dirFlag) : releaseCacheDir(name as ReleaseName, env);
  await fs.mkdir(dir, { recursive: true });
  for (const file of release.files) {
    const dest = path.join(dir, file.name);
    if ((await sha256Of(dest).catch(() => null)) === file.sha256) {
      io.out(`${file.name}: already in ${dir} (sha256 ok)`);
      continue;
    }
    const from = `${(typeof url === 'string' ? url : release.url).replace(/\/+$/, '')}/${file.name}`;
    let bytes: number;
    try {
      bytes = await download(from, dest, file.sha256);
    } catch (e) {
      // A refused checksum, an HTTP error or no network: one line, and the files fetched so far stay.
      const cause = e instanceof Error && e.cause instanceof Error ? ` (${e.cause.message})` : '';
      io.err(`iwb dataset fetch: ${e instanceof Error ? e.message : String(e)}${cause}`);
      return 1;
    }
    io.out(`${file.name}: ${bytes} bytes from ${from}, sha256 ok`);
  }
  io.out(`${name} is in ${dir}${typeof dirFlag === 'string' ? ` (tests read it with ${PUBLIC_DATA_VARIABLE}=${name === 'interactweb-bench' ? dir : path.join(path.dirname(dir), 'interactweb-bench')})` : ''}`);
  return 0;
}

/** Streams `url` to `dest` through a temporary file, renamed only when its sha256 is the pinned one. */
export async function download(url: string, dest: string, sha256: string): Promise<number> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`GET ${url}: HTTP ${res.status} ${res.statusText}`);
  const tmp = `${dest}.${process.pid}.part`;
  const hash = createHash('sha256');
  const handle = await fs.open(tmp, 'w');
  let bytes = 0;
  try {
    for await (const chunk of res.body) {
      const buf = Buffer.from(chunk as Uint8Array);
      hash.update(buf);
      bytes += buf.length;
      await handle.write(buf);
    }
  } finally {
    await handle.close();
  }
  const got = hash.digest('hex');
  if (got !== sha256) {
    await fs.rm(tmp, { force: true });
    throw new ChecksumMismatch(`${url}: sha256 ${got}, expected ${sha256} (pinned); nothing was kept. A different file is served there: check the URL`);
  }
  await fs.rename(tmp, dest);
  return bytes;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
