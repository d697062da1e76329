import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The web app lives in web/, but it imports scenario files from ../scenarios at build
// time and its output goes to the repository's top-level dist/.
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: dist/ works from any static host and any sub-path.
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // React, D3 and the app are one ~170 kB (gzip) chunk; the first load stays
    // far below the 1.5 MB budget measured by the e2e suite.
    chunkSizeWarningLimit: 800,
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    // Allow the dev server to read ../scenarios (and later ../wasm output).
    fs: { allow: [repoRoot] },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    strictPort: true,
  },
});
