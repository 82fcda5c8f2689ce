/**
 * A readable name for the device behind a User-Agent string, such as "Chrome" and "Windows",
 * enough for a player to recognise their own sessions. Only the browsers and systems players
 * commonly use are named; anything else is left unnamed rather than guessed.
 */

export type DeviceKind = 'desktop' | 'mobile' | 'tablet';

export type DeviceDescription = {
  browser: string | null;
  os: string | null;
  kind: DeviceKind;
};

/** Most specific first: Edge, Opera, Cốc Cốc and the in-app browsers also say "Chrome" and "Safari". */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|OPiOS|Opera)\//, 'Opera'],
  [/\bcoc_coc_browser\//i, 'Cốc Cốc'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bUCBrowser\//, 'UC Browser'],
  [/\bZalo\b/i, 'Zalo'],
  [/\bFB(?:AN|AV|_IAB)\b/, 'Facebook'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bWindows Phone\b/, 'Windows Phone'],
  [/\bWindows\b/, 'Windows'],
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac(?:intosh| OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (userAgent: string, table: readonly (readonly [RegExp, string])[]) =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

function kindOf(userAgent: string): DeviceKind {
  if (/\biPad\b|\bTablet\b/.test(userAgent) || (/\bAndroid\b/.test(userAgent) && !/\bMobile\b/.test(userAgent))) {
    return 'tablet';
  }
  return /\bMobi|\biPhone\b|\biPod\b|\bAndroid\b/.test(userAgent) ? 'mobile' : 'desktop';
}

export function describeUserAgent(userAgent: string): DeviceDescription {
  return { browser: first(userAgent, BROWSERS), os: first(userAgent, SYSTEMS), kind: kindOf(userAgent) };
}
