import { defineConfig } from '@playwright/test';

const SEEDED = [
  'character',
  'giftcode',
  'giftcode-items',
  'history',
  'personal-data',
  'recharge',
  'staff-console',
  'staff-finance',
  'staff-support',
  'support-tickets',
  'transactions',
].map((journey) => `**/${journey}-journey.spec.ts`);

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
  // Two files at a time: a journey mostly waits on its pages, mails and the portal, so one
  // Chromium left a core idle. Within a file the tests run in order.
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  projects: [
    // The journeys that read or change what the seed made (its players, their KP and history,
    // the staff, the giftcodes and the tickets): one file at a time, as each expects the seed as
    // the one before it left it.
    { name: 'seeded', testMatch: SEEDED, workers: 1 },
    // The journeys that sign up players of their own: beside the others.
    { name: 'own players', testIgnore: SEEDED },
  ],
  use: {
    baseURL: process.env.BASE_URL ?? 'http://127.0.0.1:8080',
    locale: 'vi-VN',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
});
