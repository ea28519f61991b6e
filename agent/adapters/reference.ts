import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AdapterModule } from '../registry.js';

/**
 * The offline baseline: writes the task's reference site, looks at it once, submits. It is the only
 * agent that reads the hidden reference, so its scores check the harness, not a model: TCR 1 and HR 0
 * on the built-in tasks, or the harness is wrong.
 */
export const adapter: AdapterModule = {
  name: 'reference',
  describe: 'writes the task reference site, verifies once, submits (offline baseline)',
  async check(_argument, { cases }) {
    const missing = cases.filter((c) => !c.task.referenceSite);
    if (missing.length === 0) return [];
    throw new Error(
      `the reference agent writes each task's reference site, and ${missing.length} of ${cases.length} cases have none ` +
        `(${missing[0]!.id}${missing.length > 1 ? ', …' : ''}; a public release ships none): set IWB_AGENT to the agent to benchmark ` +
        '(openai with IWB_AGENT_MODEL, or command:<command line>), or IWB_DATASET=builtin to check the harness',
    );
  },
  create: (_argument, deps) => ({
    name: 'reference',
    config: { kind: 'reference', version: 1 },
    async start({ case: c }) {
      const site = deps.referenceSite?.(c.id);
      if (!site) throw new Error(`case ${c.id} has no reference site (built-in tasks have one in tasks/<id>/site/); the reference agent needs one`);
      const files = await readTree(site);
      const plan = [
        { action: { type: 'implement' as const, files, deletes: [] } },
        { action: { type: 'verify' as const, path: '/' } },
        { action: { type: 'submit' as const } },
      ];
      let i = 0;
      return { next: async () => plan[Math.min(i++, plan.length - 1)]! };
    },
  }),
};

async function readTree(root: string): Promise<{ path: string; content: string }[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
  return Promise.all(files.map(async (f) => ({ path: path.relative(root, f).split(path.sep).join('/'), content: await fs.readFile(f, 'utf8') })));
}
