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
