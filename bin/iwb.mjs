#!/usr/bin/env node
// The CLI is TypeScript run in place through tsx, so `npx iwb` works right after `npm ci`, with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
