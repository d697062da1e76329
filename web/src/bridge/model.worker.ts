// The Web Worker that hosts the model. It exposes ModelApi over Comlink; bulk
// arrays go back as transferables, so the UI thread never copies or parses them.
import * as Comlink from 'comlink';

import type { CreateSsdpModule } from './ssdp-module';
import type { Frame, ModelApi } from './protocol';
import { ModelSession } from './session';

let session: ModelSession | null = null;

function need(): ModelSession {
  if (!session) throw new Error('the model is not initialised');
  return session;
}

function transferFrame(frame: Frame): Frame {
  return Comlink.transfer(frame, [
    frame.dieState.buffer,
    frame.dieQueue.buffer,
    frame.dieOps.buffer,
    frame.channelBusy.buffer,
    frame.flowOutstanding.buffer,
  ]);
}

const api: ModelApi = {
  async init(wasmUrl: string) {
    const moduleUrl = new URL('ssdp.mjs', wasmUrl).href;
    const { default: create } = (await import(/* @vite-ignore */ moduleUrl)) as { default: CreateSsdpModule };
    const module = await create({ locateFile: (path) => new URL(path, wasmUrl).href });
    session = new ModelSession(module, () => performance.now());
    return session.enumNames();
  },
  async validate(json) {
    return need().validate(json);
  },
  async load(json) {
    return need().load(json);
  },
  async advance(simNs, budget) {
    return transferFrame(need().advance(simNs, budget));
  },
  async step() {
    return transferFrame(need().step());
  },
  async runToEnd(budget) {
    return transferFrame(need().runToEnd(budget));
  },
  async frame() {
    return transferFrame(need().frame());
  },
  async blocks() {
    const snapshot = need().blocks();
    return Comlink.transfer(snapshot, [snapshot.words.buffer]);
  },
  async latency() {
    const buckets = need().latency();
    return Comlink.transfer(buckets, [buckets.read.buffer, buckets.write.buffer]);
  },
  async powerFail() {
    return transferFrame(need().powerFail());
  },
  async failBlock(block) {
    return need().failBlock(block);
  },
  async analyze(topN) {
    return need().analyze(topN);
  },
  async explain(id) {
    return need().explain(id);
  },
  async requestRows() {
    const rows = need().requestRows();
    return Comlink.transfer(rows, [rows.rows.buffer]);
  },
  async instrumentationCommand(command, value) {
    const result = need().instrumentationCommand(command, value);
    return result.frame ? Comlink.transfer(result, [
      result.frame.dieState.buffer,
      result.frame.dieQueue.buffer,
      result.frame.dieOps.buffer,
      result.frame.channelBusy.buffer,
      result.frame.flowOutstanding.buffer,
    ]) : result;
  },
  async transferredRecords() {
    const buffer = need().transferredRecords();
    return Comlink.transfer(buffer, [buffer]);
  },
  async exportRecords() {
    const buffer = need().exportRecords();
    return Comlink.transfer(buffer, [buffer]);
  },
};

Comlink.expose(api);
