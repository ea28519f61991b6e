import { isPageUnresponsive, unresponsiveEvidence } from '../site/unresponsive.js';
import type { WeightedSlot } from '../slots/schema.js';
import { runProbe, type ProbeOptions } from './probe-runner.js';
import type { Judge, SiteUnderTest, Verdict } from './types.js';
import { pageWork } from '../site/page-gate.js';

const NAME = 'probe';

/**
 * The deterministic judge: runs a slot's declarative probe on the served site. It cannot judge a slot
 * without a probe (that is left to a model judge), and a crash of the browser says nothing about the
 * site, so that is 'errored' rather than 'fail'.
 */
export function createProbeJudge(opts: ProbeOptions = {}): Judge {
  return {
    name: NAME,
    async judge(site: SiteUnderTest, slot: WeightedSlot): Promise<Verdict> {
      const started = Date.now();
      if (!slot.probe) return { status: 'unjudged', evidence: 'no deterministic probe', judge: NAME, steps: [], durationMs: 0 };
      try {
        const probe = slot.probe;
        const r = await pageWork(() => runProbe(site.page, site.url, probe, opts));
        return { status: r.passed ? 'pass' : 'fail', evidence: r.evidence, judge: NAME, steps: r.steps, durationMs: Date.now() - started };
      } catch (e) {
        // A page that hangs or crashes is the site the agent built: failed, with why.
        if (isPageUnresponsive(e)) return { status: 'fail', evidence: unresponsiveEvidence(e), judge: NAME, steps: [], durationMs: Date.now() - started };
        const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
        return {
          status: 'errored',
          evidence: `probe could not run: ${message}`,
          judge: NAME,
          steps: [],
          durationMs: Date.now() - started,
        };
      }
    },
  };
}
