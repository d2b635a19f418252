export { startTallyEmulator, TALLY_SANDBOX_DEFAULTS } from './tally-emulator.js';
export type { TallyEmulator, TallyEmulatorOptions, TallyStats } from './tally-emulator.js';
export { TallyStore } from './tally-store.js';
