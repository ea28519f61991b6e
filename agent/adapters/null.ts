import type { AdapterModule } from '../registry.js';

/** Submits at once, building nothing: the floor every score is read against. */
export const adapter: AdapterModule = {
  name: 'null',
  describe: 'submits at once without building anything (floor baseline)',
  create: () => ({
    name: 'null',
    config: { kind: 'null', version: 1 },
    start: async () => ({ next: async () => ({ action: { type: 'submit' } }) }),
  }),
};
