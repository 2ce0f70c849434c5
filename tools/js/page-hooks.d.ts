// What the project's scripts hang on `window` (and on a worker's `self`, which the checker
// reads as the same global: lib "DOM"). Each is set by the code named beside it and read by
// tests or the benchmark through Playwright's evaluate. Declared here so that `tsc --checkJs`
// knows them, with their real types where they have one.

interface Window {
  // pglite-bridge/worker.js: PGlite's WebAssembly memory and its in-memory files, in bytes.
  queueLabWasmBytes?: () => number;
  queueLabFileBytes?: () => number | null;
  // scripts/first-screen.mjs: the Korean texts' fetch, started before the app's .wasm.
  queueLabKorean?: Promise<Response>;
  // assets/embed/queue-lab.js: the embedding kit's small API.
  QueueLab?: Readonly<Record<string, unknown>>;
  // tests/e2e/harness.mjs: unhandled rejections seen, frame gaps watched, axe-core loaded.
  __queueLabRejected?: (message: string) => void;
  __gaps?: { max: number; last: number; on: boolean };
  axe?: any;
  // The benchmark (bench/): L2's run watched, its worker and last job, long tasks, the L3
  // page map's reads, the bare boot's time, the app's WebAssembly exports.
  __runDone?: boolean;
  __runObserver?: MutationObserver;
  __simWorker?: Worker;
  __simJob?: Uint8Array;
  // Long tasks: durations (the benchmark) or { start, ms } (workers_worker.test.mjs).
  __longTasks?: any[];
  __longObserver?: PerformanceObserver;
  __mapReads?: number;
  // bench/click-floor.mjs: the calls the page sent its database workers, and their replies.
  __calls?: any;
  bootMs?: number;
  __appWasm?: { memory?: WebAssembly.Memory };
  // End-to-end tests: what each one records in the page while it acts.
  __progress?: number[];
  resizes?: number;
  lastEmbedResize?: number;
  seen?: any[];
  __states?: string[][];
  __fetchingSeen?: boolean;
  mapChanges?: { text: string; running: boolean }[];
  __ranOnce?: boolean;
  __resultsAt?: number | null;
  __shownProgress?: { value: number; text: string; at: number }[];
  // L2's simulator worker (crates/sim-worker): its warm-up's report, read in the worker.
  simWarmUp?: unknown;
}
