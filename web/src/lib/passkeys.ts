/**
 * What the sign-in page and the security page both need to know before offering a passkey.
 * The WebAuthn library itself (@simplewebauthn/browser) is imported only when the player
 * starts a ceremony, so none of it loads with a page.
 */

/** Whether this browser has WebAuthn at all. */
export const browserHasPasskeys = () => typeof window.PublicKeyCredential === 'function';

/** A dotted IPv4 address, or an IPv6 one (which `hostname` gives in brackets). */
const isIpAddress = (hostname: string) => /^(\d{1,3}\.){3}\d{1,3}$/.test(hostname) || hostname.includes(':');

/**
 * Browsers refuse WebAuthn on an IP address, so a portal served at one (127.0.0.1 in
 * development) keeps its passkeys on `localhost` at the same port (the gateway's passkey
 * origin). The same page there when this page's host is an IP address; null otherwise.
 */
export function passkeyHostUrl(location: Pick<Location, 'hostname' | 'href'> = window.location): URL | null {
  if (!isIpAddress(location.hostname)) return null;
  const url = new URL(location.href);
  url.hostname = 'localhost';
  return url;
}

/**
 * The browser's prompt was closed by the player or timed out: WebAuthn says both with
 * NotAllowedError, and AbortError when the page abandoned it.
 */
export const isPasskeyPromptDismissed = (error: unknown) =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
