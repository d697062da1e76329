// Types of the Emscripten module built from wasm/bindings.cc.

export interface WasmModel {
  load(scenarioJson: string): string;
  loaded(): boolean;
  runUntil(tNs: number): boolean;
  runEvents(n: number): boolean;
  now(): number;
  events(): number;
  finished(): boolean;
  recovering(): boolean;
  maxTimeNs(): number;
  metricsJson(): string;
  deviceJson(): string;
  drainRecords(maxRecords: number): Uint8Array;
  recordsLost(): number;
  deviceState(): Uint32Array;
  blockState(): Uint32Array;
  latencyBuckets(reads: boolean): Float64Array;
  /** `ssdplay analyze --format json` over the given records (32-byte each). */
  analyzeRecords(records: Uint8Array, topN: number): string;
  /** One request explained (JSON; {"found": false} when absent). */
  explainRequest(records: Uint8Array, id: number): string;
  /** Rows of 14 numbers per complete request; see REQUEST_ROW in protocol.ts. */
  requestRows(records: Uint8Array): Float64Array;
  /** An instrumentation vendor command now (kind: index in INSTR_COMMANDS); "" or why not. */
  instrumentationCommand(kind: number, value: number): string;
  /** Records the last "transfer" command delivered. */
  transferredRecords(): Uint8Array;
  powerFail(): void;
  failBlock(block: number): string;
  delete(): void;
}

export interface SsdpModule {
  Model: new () => WasmModel;
  enumNamesJson(): string;
  /** "" when the scenario would load, else the problems (one per line, each naming its JSON path). */
  validateScenario(scenarioJson: string): string;
}

export type CreateSsdpModule = (options?: { wasmBinary?: ArrayBuffer | Uint8Array; locateFile?: (path: string) => string }) => Promise<SsdpModule>;
