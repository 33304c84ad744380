/**
 * The context every component injects (built in main.js): store, translator, language, theme, in-app confirm.
 */
import { inject, type Ref } from 'vue';
import type { ModalStack } from './modalStack.js';
import type { ErrorPayload } from './types.js';
import type { ConflictChoice, Store, Translate } from './store.js';

/** One pending in-app confirmation. */
export interface ConfirmRequest {
  text: string;
  danger: boolean;
  resolve(ok: boolean): void;
}

/** One stale edit waiting for the person's choice (reload, overwrite, keep editing). */
export interface ConflictRequest {
  wire: ErrorPayload;
  resolve(choice: ConflictChoice): void;
}

/** The app context. */
export interface Ctx {
  store: Store;
  t: Translate;
  lang: Ref<'ja' | 'en'>;
  setLang(value: string): void;
  theme: Ref<'light' | 'dark'>;
  toggleTheme(): void;
  confirm(text: string, danger?: boolean): Promise<boolean>;
  confirmQueue: ConfirmRequest[];
  /** Stale edits the server refused (EDIT_CONFLICT), shown one at a time. */
  conflictQueue: ConflictRequest[];
  /** Open dialogs; Escape closes the innermost. */
  modals: ModalStack;
}

/** The injected context (throws when a component is mounted outside the app). */
export function useCtx(): Ctx {
  const ctx = inject<Ctx>('ctx');
  if (ctx === undefined) throw new Error('Fuseforks context is missing');
  return ctx;
}
