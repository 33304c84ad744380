/**
 * A loopback port nothing listens on right now (bound on port 0, then released): for a server a test must start on
 * a port of its choosing (the door) or a connection that must be refused. Never a fixed port.
 */
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
