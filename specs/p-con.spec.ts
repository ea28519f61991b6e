import { declareSlotTests } from './declare.js';

await declareSlotTests('P-CON');
