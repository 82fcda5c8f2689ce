/** The Facebook SDK with the customer chat plugin, in the interface's language. */
export const MESSENGER_SDK_URL = 'https://connect.facebook.net/vi_VN/sdk/xfbml.customerchat.js';
export const MESSENGER_SDK_ID = 'facebook-jssdk';
const GRAPH_API_VERSION = 'v18.0';
/** The brand colour of the theme (brand.500), for the chat bubble. */
const THEME_COLOR = '#f97316';

type FacebookSdk = {
  init: (options: { xfbml: boolean; version: string }) => void;
  XFBML: { parse: (element?: Element) => void };
};

declare global {
  interface Window {
    FB?: FacebookSdk;
    fbAsyncInit?: () => void;
  }
}

/**
 * Puts the Messenger chat plugin of the page `pageId` on the page, as Facebook's snippet does
 * (a #fb-root, the .fb-customerchat placeholder the SDK renders the bubble into, and the SDK
 * loaded async), but from code rather than an inline script, which the portal's CSP forbids.
 * The placeholder sits outside React's tree because the SDK rewrites it. Returns what removes
 * the chat again; the SDK, once loaded, stays and renders a later placeholder at once.
 */
export function mountMessengerChat(pageId: string): () => void {
  if (!document.getElementById('fb-root')) {
    const root = document.createElement('div');
    root.id = 'fb-root';
    document.body.append(root);
  }
  const chat = document.createElement('div');
  chat.className = 'fb-customerchat';
  chat.setAttribute('page_id', pageId);
  chat.setAttribute('attribution', 'biz_inbox');
  chat.setAttribute('theme_color', THEME_COLOR);
  document.body.append(chat);

  if (window.FB) {
    window.FB.XFBML.parse();
  } else {
    window.fbAsyncInit = () => window.FB?.init({ xfbml: true, version: GRAPH_API_VERSION });
    if (!document.getElementById(MESSENGER_SDK_ID)) {
      const script = document.createElement('script');
      script.id = MESSENGER_SDK_ID;
      script.src = MESSENGER_SDK_URL;
      script.async = true;
      script.defer = true;
      script.crossOrigin = 'anonymous';
      document.body.append(script);
    }
  }
  return () => chat.remove();
}
