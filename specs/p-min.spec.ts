import { declareSlotTests } from './declare.js';

await declareSlotTests('P-MIN');
