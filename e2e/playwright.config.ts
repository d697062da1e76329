import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// End-to-end tests against the *built* static site (dist/), as users get it.
//
// Browsers are never downloaded: we drive the system Chromium (Debian's `chromium`
// package, installed by scripts/ensure-deps.sh --with-browser). Override the binary
// with CHROMIUM_PATH and the preview port with E2E_PORT.
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const artifacts = fileURLToPath(new URL('./artifacts/', import.meta.url));
const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}/`;

export default defineConfig({
  testDir: './tests',
  outputDir: `${artifacts}test-results`,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1, // 2-core machines: one browser at a time is faster and steadier
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [
    ['list'],
    ['json', { outputFile: `${artifacts}results.json` }],
    ['html', { outputFolder: `${artifacts}playwright-report`, open: 'never' }],
  ],
  use: {
    baseURL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // Build the site, then serve dist/ with Vite's static preview server.
    command: `npm run --silent build && npm run --silent preview --workspace web -- --host 127.0.0.1 --port ${port} --strictPort`,
    cwd: repoRoot,
    url: baseURL,
    // Never reuse a server someone left running: it may serve a stale dist/.
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe', // shows tsc errors if the build fails
    stderr: 'pipe',
  },
});
