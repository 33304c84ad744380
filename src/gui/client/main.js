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

const token = new URLSearchParams(location.search).get('t') ?? '';
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
      headers: { 'x-fuseforks-token': token, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let parsed = null;
    try { parsed = await res.json(); } catch { parsed = null; }
    return { status: res.status, body: parsed };
  },
  events(onEvent) {
    const source = new EventSource(`/api/events?t=${encodeURIComponent(token)}`);
    source.onmessage = (m) => { try { onEvent(JSON.parse(m.data)); } catch { /* a malformed line is skipped */ } };
    return () => source.close();
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
void store.init();
