// Baseline for the ask round trip: raw postMessage ping-pong between two workers over a MessageChannel.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

parentPort.once('message', ({ port }) => {
  if (workerData.role === 'pong') {
    port.on('message', (m) => port.postMessage(m));
    return;
  }
  const lat = [];
  let t0 = 0;
  const payload = { kind: 'deliver', text: 'x'.repeat(200) };
  port.on('message', () => {
    lat.push(Math.round((performance.now() - t0) * 1000));
    if (lat.length === workerData.n) {
      parentPort.postMessage(lat);
      port.close();
      return;
    }
    t0 = performance.now();
    port.postMessage(payload);
  });
  t0 = performance.now();
  port.postMessage(payload);
});
