// The UI side of the worker bridge: one worker per page, wrapped with Comlink.
import * as Comlink from 'comlink';

import type { ModelApi } from './protocol';

export type ModelClient = Comlink.Remote<ModelApi>;

/** Starts the model worker; `wasmBase` is the folder holding ssdp.mjs and ssdp.wasm. */
export function startModelWorker(): { client: ModelClient; worker: Worker; wasmBase: string } {
  const worker = new Worker(new URL('./model.worker.ts', import.meta.url), { type: 'module', name: 'ssdp-model' });
  const client = Comlink.wrap<ModelApi>(worker);
  const wasmBase = new URL(`${import.meta.env.BASE_URL}wasm/`, document.baseURI).href;
  return { client, worker, wasmBase };
}
