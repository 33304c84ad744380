// Peer for rpc.bench.mjs: answers raw messages on one port and comlink calls (the project's rpc.ts) on another.
import { parentPort } from 'node:worker_threads';
import { exposeOn } from '../../dist/actors/rpc.js';

parentPort.once('message', ({ raw, rpc }) => {
  raw.on('message', (m) => raw.postMessage({ kind: 'ack', envelopeId: m.envelopeId, cut: false }));
  exposeOn(rpc, { interrupt: () => false, echo: (v) => v });
});
