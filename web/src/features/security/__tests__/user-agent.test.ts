import { describe, expect, it } from 'vitest';

import { describeUserAgent } from '../utils/user-agent';

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
  coccocWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) coc_coc_browser/125.0.164 Chrome/119.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  samsungAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  chromeAndroidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  zaloAndroid:
    'Mozilla/5.0 (Linux; Android 12; Redmi Note 11) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36 Zalo android/12100730 ZaloTheme/light',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
};

describe('describeUserAgent', () => {
  it.each([
    [UA.chromeWindows, 'Chrome', 'Windows', 'desktop'],
    [UA.edgeWindows, 'Edge', 'Windows', 'desktop'],
    [UA.coccocWindows, 'Cốc Cốc', 'Windows', 'desktop'],
    [UA.safariIphone, 'Safari', 'iOS', 'mobile'],
    [UA.chromeIphone, 'Chrome', 'iOS', 'mobile'],
    [UA.safariIpad, 'Safari', 'iPadOS', 'tablet'],
    [UA.firefoxMac, 'Firefox', 'macOS', 'desktop'],
    [UA.safariMac, 'Safari', 'macOS', 'desktop'],
    [UA.samsungAndroid, 'Samsung Internet', 'Android', 'mobile'],
    [UA.chromeAndroidTablet, 'Chrome', 'Android', 'tablet'],
    [UA.zaloAndroid, 'Zalo', 'Android', 'mobile'],
    [UA.firefoxLinux, 'Firefox', 'Linux', 'desktop'],
    [UA.chromebook, 'Chrome', 'ChromeOS', 'desktop'],
  ])('names %s', (userAgent, browser, os, kind) => {
    expect(describeUserAgent(userAgent)).toEqual({ browser, os, kind });
  });

  it('leaves what it does not know unnamed', () => {
    expect(describeUserAgent('')).toEqual({ browser: null, os: null, kind: 'desktop' });
    expect(describeUserAgent('curl/8.5.0')).toEqual({ browser: null, os: null, kind: 'desktop' });
    expect(describeUserAgent('okhttp/4.12.0 (Linux)')).toEqual({ browser: null, os: 'Linux', kind: 'desktop' });
  });
});
