/** Counts (tokens) with the language's digit grouping: 1,050 in English, 1,050 in Japanese too, never "1050". */
export function formatCount(n: number, lang: 'ja' | 'en'): string {
  return new Intl.NumberFormat(lang === 'ja' ? 'ja-JP' : 'en-US').format(n);
}
