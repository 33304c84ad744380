// Browser entry (plain JS so the node type-check never sees DOM code): wires the transport, i18n, theme and
// the in-app confirm into one context the components inject.
import { createApp, reactive, ref, watch } from 'vue';
import App from './App.vue';
import { createStore } from './lib/store.ts';
import { translate } from './lib/i18n.ts';
import { createModalStack } from './lib/modalStack.ts';
import en from './locales/en.json';
import ja from './locales/ja.json';
import './style.css';

// The session: the launch's page (or the URL it printed) carries a single-use ticket in its fragment; it is traded
// once for an HttpOnly cookie plus a key this origin keeps and sends beside it (guiCredentials.ts says why both).
const KEY_STORE = 'fuseforks.session';
/** Trades the address's ticket, if it has one, and takes it out of the address (and so out of the history). */
async function signIn() {
  const ticket = /^#ticket=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1] ?? null;
  if (ticket === null) return;
  history.replaceState(null, '', location.pathname + location.search);
  const res = await fetch('/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticket }) });
  // A used ticket leaves a session this browser already has; without one, the boot overlay shows the refusal.
  if (res.ok) localStorage.setItem(KEY_STORE, (await res.json()).key);
}
const auth = () => ({ 'x-fuseforks-session': localStorage.getItem(KEY_STORE) ?? '' });

const dicts = { en, ja };

const lang = ref(localStorage.getItem('fuseforks.lang') ?? (navigator.language.startsWith('ja') ? 'ja' : 'en'));
const t = (key, params) => translate(dicts[lang.value] ?? en, key, params);

const prefersDark = window.matchMedia('(prefers-color-scheme: dark)');
const theme = ref(localStorage.getItem('fuseforks.theme') ?? (prefersDark.matches ? 'dark' : 'light'));
watch(theme, (v) => { document.documentElement.dataset.theme = v; }, { immediate: true });
watch(lang, (v) => { document.documentElement.lang = v; }, { immediate: true });

const transport = {
  async request(method, path, body, headers = {}) {
    const res = await fetch(path, {
      method,
      headers: { ...auth(), ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let parsed = null;
    try { parsed = await res.json(); } catch { parsed = null; }
    return { status: res.status, body: parsed };
  },
  // Server-Sent Events read with fetch (EventSource cannot send the session key); reconnects after a drop.
  events(onEvent) {
    let closed = false;
    let abort = new AbortController();
    const lines = (block) => {
      for (const line of block.split('\n')) {
        if (!line.startsWith('data: ')) continue;
        try { onEvent(JSON.parse(line.slice(6))); } catch { /* a malformed line is skipped */ }
      }
    };
    (async () => {
      while (!closed) {
        abort = new AbortController();
        try {
          const res = await fetch('/api/events', { headers: auth(), signal: abort.signal });
          if (res.ok && res.body) {
            const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = '';
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              buffer += value;
              let end;
              while ((end = buffer.indexOf('\n\n')) >= 0) {
                lines(buffer.slice(0, end));
                buffer = buffer.slice(end + 2);
              }
            }
          }
        } catch { /* closed, or the server went away: retry below */ }
        if (!closed) await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();
    return () => { closed = true; abort.abort(); };
  },
  later(fn, ms) { setTimeout(fn, ms); },
  now() { return Date.now(); },
};

// A stale edit (EDIT_CONFLICT) waits for the person's choice in the conflict dialog.
const conflictQueue = reactive([]);
const chooseOnConflict = (wire) => new Promise((resolve) => conflictQueue.push({ wire, resolve }));

const store = createStore(transport, (k, p) => t(k, p), chooseOnConflict);

// In-app confirm (window.confirm is never used: it blocks and is hard to drive headless).
const confirmQueue = reactive([]);
function confirm(text, danger = false) {
  return new Promise((resolve) => confirmQueue.push({ text, danger, resolve }));
}

// Escape closes the innermost open dialog (a confirm before the dialog under it).
const modals = createModalStack();
window.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.isComposing) return;
  if (modals.escape()) e.preventDefault();
});

const ctx = {
  store,
  t,
  lang,
  setLang(v) { lang.value = v; localStorage.setItem('fuseforks.lang', v); },
  theme,
  toggleTheme() { theme.value = theme.value === 'dark' ? 'light' : 'dark'; localStorage.setItem('fuseforks.theme', theme.value); },
  confirm,
  confirmQueue,
  conflictQueue,
  modals,
};

// Language from the village unless the person chose one on this device.
watch(() => store.state.view.server?.world.language, (v) => {
  if (v && localStorage.getItem('fuseforks.lang') === null) lang.value = v;
});

const app = createApp(App);
app.provide('ctx', ctx);
app.mount('#app');
void signIn().catch(() => undefined).then(() => store.init());
// A new URL pasted into this tab changes only the fragment (no page load): trade it and open the village again.
window.addEventListener('hashchange', () => {
  if (location.hash.startsWith('#ticket=')) void signIn().catch(() => undefined).then(() => store.init());
});
