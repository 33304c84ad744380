/**
 * Vite build of the GUI client: `vite build --config src/gui/client/vite.config.ts` → dist/gui/client
 * (served by the GUI server). Relative asset URLs are not needed: the server serves the folder at `/`.
 */
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  plugins: [vue()],
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../../dist/gui/client', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1000,
  },
});
