import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// One Vitest run for the whole repository: web unit tests and scenario checks.
// Environment is Node; a component test that needs a DOM can opt in per file
// with a `// @vitest-environment jsdom` comment (after adding jsdom).
export default defineConfig({
  plugins: [react()],
  test: {
    include: ['web/src/**/*.test.{ts,tsx}', 'scenarios/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**', 'build/**', 'e2e/**'],
    environment: 'node',
    // Tests that forget to import from 'vitest' fail loudly instead of finding globals.
    globals: false,
  },
});
