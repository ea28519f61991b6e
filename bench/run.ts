/**
 * The harness benchmark (`npm run bench`, `-- --quick` for a small slice, `--cases N`, `--workers 1,2`,
 * `--no-replay`, `--replay-only`, `--work <dir>`, `--out <dir>`): the public dataset run against
 * the fake OpenAI server answering with zero latency, in real Chromium, so every millisecond measured is
 * the harness's own. Writes bench.json (BenchSchema) and bench.md beside each other (default: bench/).
 * `--latency <ms> [--in-flight 1,4,8,16,32] [--cases 48] [--per-episode k]` runs the latency bench instead
 * (bench/latency-run.ts) and merges it into the bench.json already in --out.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSettings } from '../config/settings.js';
import { cliEnv } from '../cli/io.js';
import { releaseFile } from '../config/public-data.js';
import { start } from '../testkit/fake-server.js';
import { playwright } from './playwright-run.js';
import { readRunReport } from './read-run.js';
import { sampleCalibration } from './calibrate.js';
import { judgeLoss, NO_TOLERANCE } from '../stats/lost-input.js';
import { sampleProcesses } from './process-sampler.js';
import { latencyMarkdown, type LatencyBench } from './latency.js';
import { latencyBench } from './latency-run.js';
import { rescoreBench } from './rescore-bench.js';
import { benchModel, benchRoles } from './script.js';
import { somBench } from './som-bench.js';
import { keepPort, openWorkDir, slice } from './work-dir.js';
import { benchMarkdown, BenchSchema, TARGETS, targetsMet, type Bench, type RunFigures } from './summary.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// The public release as the project's tests find it (IWB_PUBLIC_DATA, ../shared/data, the fetch cache).
const PUBLIC = releaseFile('interactweb-bench', 'all.jsonl', cliEnv()).path;

/**
 * The zero-latency runs judge one slot at a time and run no case ahead: with no model time to hide, running
 * cases and slots at once only shares the cores among them, and a slot's time would be its share of
 * everything in flight, not its own cost. The latency bench measures the concurrency.
 */
const IN_FLIGHT = { casesAhead: 0, slotsInFlight: 1 } as const;
const inFlightEnv = { IWB_CASES_AHEAD: String(IN_FLIGHT.casesAhead), IWB_JUDGE_SLOTS_IN_FLIGHT: String(IN_FLIGHT.slotsInFlight) };

interface Options {
  quick: boolean;
  cases: number | undefined;
  workers: number[];
  dataset: string;
  out: string;
  /** `--no-replay`: only the recording runs (a full-size replay takes as long again). */
  replay: boolean;
  /** `--replay-only`: no recording; replay, at the last of --workers, the one a kept `--work` folder holds (bench/work-dir.ts). */
  replayOnly: boolean;
  /** `--work <dir>`: keep the working folder (bench/work-dir.ts), so runs can be split across invocations. */
  work: string | undefined;
  /** `--latency <ms>`: the latency bench, with its levels of episodes in flight and cases per episode in flight. */
  latency: { ms: number; inFlight: number[]; perEpisode: number | undefined } | undefined;
}

const positiveInts = (flag: string, text: string): number[] => {
  const list = text.split(',').map(Number);
  if (list.some((w) => !Number.isInteger(w) || w < 1)) throw new Error(`${flag} must list positive integers, got ${text}`);
  return list;
};

function parseArgs(argv: string[]): Options {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  const cases = value('--cases') ?? (quick ? '2' : undefined);
  if (cases !== undefined && !/^\d+$/.test(cases)) throw new Error(`--cases must be a positive integer, got ${cases}`);
  const workers = positiveInts('--workers', value('--workers') ?? (quick ? '1' : '1,2'));
  const latencyMs = value('--latency');
  const perEpisode = value('--per-episode');
  const replayOnly = argv.includes('--replay-only');
  const work = value('--work');
  if (replayOnly && (work === undefined || argv.includes('--no-replay'))) throw new Error('--replay-only needs --work <dir> (the folder that holds the recording) and no --no-replay');
  return {
    quick,
    cases: cases === undefined ? undefined : Number(cases),
    workers,
    dataset: path.resolve(value('--dataset') ?? PUBLIC),
    out: path.resolve(value('--out') ?? path.join(ROOT, 'bench')),
    replay: !argv.includes('--no-replay'),
    replayOnly,
    work,
    latency:
      latencyMs === undefined
        ? undefined
        : { ms: positiveInts('--latency', latencyMs)[0]!, inFlight: positiveInts('--in-flight', value('--in-flight') ?? '1,4,8,16,32'), perEpisode: perEpisode === undefined ? undefined : positiveInts('--per-episode', perEpisode)[0]! },
  };
}

/** The latency bench, merged into the bench.json already in --out (it is one section of the bench). */
async function latencyMain(opts: Options, latency: NonNullable<Options['latency']>): Promise<void> {
  const file = path.join(opts.out, 'bench.json');
  const text = await fs.readFile(file, 'utf8').catch(() => {
    throw new Error(`bench: --latency adds a section to ${file}, which is missing: run the bench first, or pass --out to a folder that holds one`);
  });
  const bench = BenchSchema.parse(JSON.parse(text));
  const work = opts.work ? path.resolve(opts.work) : await fs.mkdtemp(path.join(os.tmpdir(), 'iwb-latency-'));
  try {
    // Levels measured by an earlier invocation at the same delay stay, so a long table can be made in parts.
    const kept = bench.latency?.latencyMs === latency.ms ? bench.latency.runs.filter((r) => !latency.inFlight.includes(r.inFlight)) : [];
    let merged = bench;
    const save = async (result: LatencyBench) => {
      merged = BenchSchema.parse({ ...bench, latency: { ...result, runs: [...kept, ...result.runs].sort((a, b) => a.inFlight - b.inFlight) } });
      await fs.writeFile(file, JSON.stringify(merged, null, 2) + '\n');
      await fs.writeFile(path.join(opts.out, 'bench.md'), benchMarkdown(merged));
    };
    await latencyBench({ latencyMs: latency.ms, inFlight: latency.inFlight, perEpisode: latency.perEpisode, cases: opts.cases ?? 48, dataset: opts.dataset, work, out: opts.out, onLevel: save });
    process.stdout.write(latencyMarkdown(merged.latency!).join('\n') + `\n[bench] wrote ${file}\n`);
  } finally {
    if (!opts.work) await fs.rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.latency) return latencyMain(opts, opts.latency);
  const workDir = await openWorkDir(opts.work);
  const work = workDir.dir;
  const loadAtStart = os.loadavg()[0]!;
  const fake = await start({ ...(workDir.port ? { port: workDir.port } : {}) });
  await keepPort(workDir, Number(new URL(fake.baseURL).port));
  fake.script(benchModel);
  // Recorded requests carry screenshots: keep the count, not the bodies.
  let modelRequests = 0;
  const drain = setInterval(() => (modelRequests += fake.requests.splice(0).length), 1000);
  try {
    const data = await slice(opts.dataset, opts.cases, work);
    await workDir.checkDataset({ file: path.relative(ROOT, opts.dataset), cases: data.cases, slots: data.slots });
    const roles = benchRoles(fake.baseURL);
    const runs: RunFigures[] = [];
    /** The first run's folder: its kept slot records are what the re-score figure spreads over the whole dataset. */
    let ranIn: string | undefined;
    /** A replay names the recording it reads; a recording writes its own, emptied by freshRun. */
    const once = async (workers: number, kind: RunFigures['kind'], recording?: { dir: string; workers: number }): Promise<void> => {
      const { runDir, reportDir, calls: ownCalls } = await workDir.freshRun(kind, workers);
      ranIn ??= runDir;
      const calls = recording?.dir ?? ownCalls;
      const recordedWith = recording?.workers;
      const marker = randomUUID();
      const json = path.join(work, `${kind}-${workers}.json`);
      const before = modelRequests + fake.requests.length;
      const startedAt = new Date().toISOString();
      const loadAtRunStart = os.loadavg()[0]!;
      process.stderr.write(`[bench] ${kind} run, ${workers} worker(s), ${data.cases} cases\n`);
      const rss = sampleProcesses(marker);
      const unit = sampleCalibration();
      const r = await playwright([`--workers=${workers}`, '--reporter=json,./reporters/iwb-reporter.ts'], {
        ...roles,
        ...inFlightEnv,
        IWB_DATASET: data.file,
        IWB_AGENT: 'openai',
        IWB_RUN_DIR: runDir,
        // Each recording starts from an empty call cache; the replay reads the last one with a new run folder.
        IWB_LLM_CACHE: kind,
        IWB_LLM_CACHE_DIR: calls,
        IWB_REPORT_DIR: reportDir,
        PLAYWRIGHT_JSON_OUTPUT_NAME: json,
        BENCH_RUN_MARKER: marker,
      });
      const mem = await rss.stop();
      const calibrationMs = unit.stop();
      modelRequests += fake.requests.splice(0).length;
      // Exit 1 is expected (the scripted judge fails about half the slots); anything else is the harness failing.
      if (r.code !== 0 && r.code !== 1) throw new Error(`bench: the ${kind} run exited ${r.code}:\n${r.tail}`);
      const figures = await readRunReport(json, runDir, path.join(reportDir, 'report.json'), { wallMs: r.seconds * 1000, workers });
      // A slot that errored times a failure, not a judging: the bench's figures would rest on fewer inputs than it ran.
      const erroredSlots = figures.statuses.errored ?? 0;
      const loss = judgeLoss({ errored: erroredSlots, total: Object.values(figures.statuses).reduce((a, b) => a + b, 0), unit: 'slots' }, NO_TOLERANCE);
      if (!loss.ok) throw new Error(`bench: the ${kind} run at ${workers} worker(s): ${loss.line}\n${r.tail}`);
      const run: RunFigures = { workers, kind, ...(recordedWith !== undefined ? { recordedWith } : {}), inFlight: IN_FLIGHT, startedAt, loadAtStart: loadAtRunStart, calibrationMs, wallS: Math.round(r.seconds * 10) / 10, exitCode: r.code, ...figures, workerPeakRssMb: mem.workerPeakMb, browserPeakRssMb: mem.browserPeakMb, modelRequests: modelRequests - before };
      await workDir.saveFigures(run);
      runs.push(run);
    };
    if (!opts.replayOnly) for (const w of opts.workers) await once(w, 'record');
    const last = opts.workers.at(-1)!;
    if (opts.replay) {
      const recording = await workDir.recordingToReplay(last);
      // Its own run folder: a replay must not read the recording's episodes or verdicts, only its calls.
      await once(last, 'replay', recording);
    }
    // A kept folder gathers the runs of earlier invocations too.
    if (opts.work) runs.splice(0, runs.length, ...(await workDir.allFigures()));

    const settings = readSettings(cliEnv());
    const somUnit = sampleCalibration(500);
    const som = { ...(await somBench(settings.chromium)), calibrationMs: somUnit.stop() };
    const rescore = ranIn ? await rescoreBench(ranIn, opts.dataset) : undefined;
    const partial = { som, runs };
    const bench: Bench = BenchSchema.parse({
      version: 1,
      createdAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, chromium: settings.chromium ?? 'playwright', load: { start: loadAtStart, end: os.loadavg()[0]! } },
      dataset: { file: path.relative(ROOT, opts.dataset), cases: data.cases, slots: data.slots },
      quick: opts.quick,
      ...partial,
      targets: TARGETS,
      met: targetsMet(partial),
      ...(rescore ? { rescore } : {}),
    });
    await fs.mkdir(opts.out, { recursive: true });
    await fs.writeFile(path.join(opts.out, 'bench.json'), JSON.stringify(bench, null, 2) + '\n');
    const md = benchMarkdown(bench);
    await fs.writeFile(path.join(opts.out, 'bench.md'), md);
    process.stdout.write(md + `\n[bench] wrote ${path.join(opts.out, 'bench.json')}\n`);
  } finally {
    clearInterval(drain);
    await fake.close();
    await workDir.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
