/**
 * A deep, plain copy of JSON data held in the store. The store's objects are Vue reactive proxies, which
 * `structuredClone` refuses (DataCloneError), so drafts are copied through JSON: every value the server sends is
 * JSON already, and the copy shares nothing with the store.
 */
export function plainCopy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
