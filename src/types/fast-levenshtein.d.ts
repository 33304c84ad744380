/** fast-levenshtein 3.0.0 ships no types: the one function this project calls. */
declare module 'fast-levenshtein' {
  const levenshtein: { get(a: string, b: string, options?: { useCollator?: boolean }): number };
  export default levenshtein;
}
