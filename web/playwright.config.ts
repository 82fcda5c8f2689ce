import { defineConfig } from '@playwright/test';

/**
 * Journeys in a real Chromium (Debian's, not a downloaded build) against a running portal:
 * the gateway serving the built app and the API, at BASE_URL.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './e2e/test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: process.env.BASE_URL ?? 'http://127.0.0.1:8080',
    locale: 'vi-VN',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
});
