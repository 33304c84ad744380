/**
 * comlink ships its Node adapter as ESM without a type mapping for this path (the UMD twin's types do not
 * describe a callable default export under NodeNext), so the one function we use is declared here.
 */
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  export interface NodeEndpoint {
    postMessage(message: unknown, transfer?: readonly unknown[]): void;
    on(type: string, listener: (value: unknown) => void): unknown;
    off(type: string, listener: (value: unknown) => void): unknown;
    start?: () => void;
  }
  export default function nodeEndpoint(nep: NodeEndpoint): Endpoint;
}
