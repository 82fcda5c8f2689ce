declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export const TAG_MANAGER_SCRIPT_ID = 'gtm-script';

export const tagManagerScriptUrl = (containerId: string) =>
  `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(containerId)}`;

/**
 * Google Tag Manager's snippet for the container `containerId`, from code rather than the
 * inline script GTM hands out (the portal's CSP allows no inline script; it allows
 * www.googletagmanager.com): the data layer with its 'gtm.js' start event, then gtm.js, async.
 * The snippet's <noscript> iframe is left out: without JavaScript the portal shows nothing to
 * track. Adding it twice does nothing.
 */
export function injectTagManager(containerId: string): void {
  if (document.getElementById(TAG_MANAGER_SCRIPT_ID)) return;
  window.dataLayer = window.dataLayer ?? [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.id = TAG_MANAGER_SCRIPT_ID;
  script.async = true;
  script.src = tagManagerScriptUrl(containerId);
  document.head.append(script);
}
