#!/usr/bin/env node
// Lighthouse on the running portal, as a phone on a slow 4G network sees it (Lighthouse's
// mobile defaults: Moto G Power screen, simulated throttling), driving Debian's Chromium.
//
//   node run.mjs <base URL> [--json <file>]
//
// /login and /register are measured anonymous; /recharge and /transactions as a player the
// script signs up first through the API (development captcha), whose cookies Lighthouse sends.
// Each page is measured RUNS times and reported by its median run (by performance score), as
// Lighthouse's own guidance on variance advises. Prints one line per page (performance and
// accessibility scores, FCP, LCP, TBT, CLS, and the scores of every run) and writes them as
// JSON. It reports, it does not judge: scores are timings, and a timed test is not a test.
import { writeFileSync } from 'node:fs';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

function parseArgs(argv) {
  const [base, ...rest] = argv;
  if (!base) {
    throw new Error('usage: run.mjs <base URL> [--json <file>]');
  }
  const options = { base: base.replace(/\/$/, ''), json: '' };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (flag === '--json') options.json = value;
    else throw new Error(`unknown option ${flag}`);
  }
  return options;
}

/** The `name=value` pairs of a response's Set-Cookie headers. */
function cookiesOf(response) {
  return response.headers.getSetCookie().map((header) => header.split(';')[0]);
}

/** Signs a new player up through the API and returns the Cookie header of their session. */
async function signUp(base) {
  const anonymous = await fetch(`${base}/api/auth/csrf-cookie`);
  const jar = cookiesOf(anonymous);
  const xsrf = jar.find((cookie) => cookie.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length);
  if (!xsrf) throw new Error('no XSRF-TOKEN cookie');
  const username = `lh_${Date.now().toString(36)}`;
  const password = 'Lighthouse@123';
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-xsrf-token': decodeURIComponent(xsrf), cookie: jar.join('; ') },
    body: JSON.stringify({
      email: `${username}@lighthouse.example`,
      dob: '2000-01-01',
      username,
      password,
      passwordConfirm: password,
      gReCaptchaToken: 'dev-captcha',
    }),
  });
  if (response.status !== 201) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  return cookiesOf(response).join('; ');
}

const options = parseArgs(process.argv.slice(2));
const cookie = await signUp(options.base);
const pages = [
  { path: '/login', signedIn: false },
  { path: '/register', signedIn: false },
  { path: '/recharge', signedIn: true },
  { path: '/transactions', signedIn: true },
];
/** Runs per page; the median one is reported. */
const RUNS = Number(process.env.KID_LIGHTHOUSE_RUNS ?? 5);

const chrome = await launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage'],
});
const results = [];
try {
  for (const page of pages) {
    const url = `${options.base}${page.path}`;
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await measure(url, page));
    runs.sort((a, b) => a.performance - b.performance);
    const median = runs[Math.floor(runs.length / 2)];
    results.push({ ...median, runs: runs.map((r) => r.performance) });
  }
} finally {
  await chrome.kill();
}

/** One Lighthouse run of `page`. */
async function measure(url, page) {
  const runnerResult = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    extraHeaders: page.signedIn ? { Cookie: cookie } : undefined,
  });
  const { lhr } = runnerResult;
  if (lhr.runtimeError) {
    throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
  if (finalPath !== page.path) {
    throw new Error(`${url} ended at ${finalPath}: the page measured is not the one asked for`);
  }
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    path: page.path,
    performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
    fcpMs: Math.round(audit('first-contentful-paint')),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: Number(audit('cumulative-layout-shift').toFixed(3)),
    speedIndexMs: Math.round(audit('speed-index')),
    lighthouse: lhr.lighthouseVersion,
  };
}

for (const r of results) {
  console.log(
    `lighthouse mobile ${r.path.padEnd(10)} performance ${String(r.performance).padStart(3)}  ` +
      `accessibility ${String(r.accessibility).padStart(3)}  FCP ${(r.fcpMs / 1000).toFixed(1)} s  ` +
      `LCP ${(r.lcpMs / 1000).toFixed(1)} s  TBT ${r.tbtMs} ms  CLS ${r.cls}  ` +
      `(median of ${r.runs.join(', ')}; targets: 95, 100, TBT ≤ 150 ms, CLS ≤ 0.02)`,
  );
}
if (options.json) writeFileSync(options.json, JSON.stringify(results, null, 2));
