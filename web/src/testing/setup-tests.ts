import '@testing-library/jest-dom/vitest';

import { configure } from '@testing-library/dom';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

import { toaster } from '@/components/ui/toaster-store';

import { resetDb } from './mocks/db';
import { resetGiftcodeDb } from './mocks/giftcode-handlers';
import { resetPasskeyDb } from './mocks/passkey-handlers';
import { resetPaymentDb } from './mocks/payment-handlers';
import { resetAccountClosure, resetProfileUpdates } from './mocks/profile-handlers';
import { resetRechargeDb } from './mocks/recharge-handlers';
import { resetSecurityDb } from './mocks/security-handlers';
import { server } from './mocks/server';
import { resetSignInsDb } from './mocks/sign-ins-handlers';
import { resetFinanceDb } from './mocks/staff-finance-handlers';
import { resetStaffDb } from './mocks/staff-handlers';
import { resetSupportConsoleDb } from './mocks/staff-support-handlers';
import { resetSupportDb } from './mocks/support-handlers';
import { resetTwoFactorDb } from './mocks/two-factor-handlers';

// Lazily loaded routes can take longer than the default second on a busy 2-core CI machine:
// with the Rust tests and Schemathesis beside it (a run whose Rust had changed), a route's first
// load in a file of its own took more than 5 s. A wait ends as soon as what it waits for is
// there, so this bound costs a passing test nothing.
configure({ asyncUtilTimeout: 10_000 });

// What jsdom lacks and Ark's widgets, the media queries and the floating menus use.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
window.scrollTo = () => undefined;
Element.prototype.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

/**
 * Zag (under Ark's radio cards, menus, tooltips) tracks the pointer with document listeners
 * and module state that a page load would reset but a test's cleanup does not. It ignores a
 * pointer move to where the pointer already was, and jsdom puts every pointer event at (0, 0):
 * once a radio card had installed the tracking, a later test's menu never saw the pointer move
 * onto an item. Moving the pointer elsewhere and unloading the page starts each test afresh.
 */
function resetZagPointerTracking() {
  document.dispatchEvent(new PointerEvent('pointermove', { clientX: -1, clientY: -1, bubbles: true }));
  window.dispatchEvent(new Event('beforeunload'));
}

afterEach(() => {
  cleanup();
  resetZagPointerTracking();
  // The toaster is a module-level store: toasts outlive the <Toaster /> that cleanup() unmounted
  // and would reappear (another role="status") in the next test's app, or with isolate: false in
  // a later file's.
  toaster.remove();
  server.resetHandlers();
  resetDb();
  resetProfileUpdates();
  resetAccountClosure();
  resetSecurityDb();
  resetPaymentDb();
  resetRechargeDb();
  resetGiftcodeDb();
  resetTwoFactorDb();
  resetSignInsDb();
  resetPasskeyDb();
  resetStaffDb();
  resetSupportConsoleDb();
  resetFinanceDb();
  resetSupportDb();
  // window.PublicKeyCredential of testing/webauthn-stub's withWebAuthn().
  vi.unstubAllGlobals();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  localStorage.clear();
  Object.defineProperty(window, 'scrollY', { value: 0, configurable: true, writable: true });
});

afterAll(() => server.close());
