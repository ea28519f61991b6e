import { processIo } from '../cli/io.js';
import { judgeCommand } from '../cli/judge.js';
const t = Date.now();
process.exitCode = await judgeCommand(process.argv.slice(2), processIo);
console.error('took', Date.now() - t, 'ms');
