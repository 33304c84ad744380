/**
 * The chat's view-only state, kept on this device (localStorage), never in the village: which servant's
 * conversation is shown, and per conversation the "clear the view" mark. Clearing hides rows on this screen only;
 * the session, its records and what the servants remember are untouched. Also the per-bubble copy.
 */
import { computed, ref } from 'vue';
import { ALL, CLEARED_KEY, FILTER_KEY, clearMark, parseCleared } from './chatRows.js';
import type { AgentMessage } from './types.js';
import type { ChatLine } from './view.js';
import type { Store, Translate } from './store.js';

/** What the view state needs from the browser (the panel passes localStorage and the clipboard; DOM-free here). */
export interface ChatViewPorts {
  load(key: string): string | null;
  save(key: string, value: string | null): void;
  writeClipboard(text: string): Promise<void>;
}

/** Filter, clear mark and copy for the chat panel; `agentIds` keeps a stale filter (deleted servant) from hiding everything. */
export function useChatView(store: Store, t: Translate, agentIds: () => string[], ports: ChatViewPorts) {
  const { load, save } = ports;
  const storedFilter = ref(load(FILTER_KEY) ?? ALL);
  const cleared = ref(parseCleared(load(CLEARED_KEY)));
  const conversation = computed(() => store.state.view.server?.sessions.current ?? 'live');

  const filter = computed(() => (storedFilter.value !== ALL && agentIds().includes(storedFilter.value) ? storedFilter.value : ALL));
  const clearedAt = computed(() => cleared.value[conversation.value] ?? null);

  function setFilter(id: string): void {
    storedFilter.value = id;
    save(FILTER_KEY, id === ALL ? null : id);
  }

  function writeCleared(next: Record<string, number>): void {
    cleared.value = next;
    save(CLEARED_KEY, Object.keys(next).length === 0 ? null : JSON.stringify(next));
  }

  /** Hides everything shown now (view only). */
  function clear(messages: readonly AgentMessage[], lines: readonly ChatLine[]): void {
    const mark = clearMark(messages, lines);
    if (mark === null) return;
    writeCleared({ ...cleared.value, [conversation.value]: mark });
    store.toast('info', t('chatView.cleared'));
  }

  /** Shows this conversation's hidden rows again. */
  function showAll(): void {
    const { [conversation.value]: _gone, ...rest } = cleared.value;
    writeCleared(rest);
  }

  /** Copies a message's source text (Markdown as written) to the clipboard. */
  async function copy(text: string): Promise<void> {
    try {
      await ports.writeClipboard(text);
      store.toast('info', t('chatView.copied'));
    } catch (error) {
      store.toast('error', t('chatView.copyFailed', { reason: error instanceof Error ? error.message : String(error) }));
    }
  }

  return { filter, clearedAt, setFilter, clear, showAll, copy };
}
