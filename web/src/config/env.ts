const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

export const env = {
  API_URL: withoutTrailingSlash(import.meta.env.VITE_API_URL || '/api'),
  GAME_SITE_URL: withoutTrailingSlash(import.meta.env.VITE_GAME_SITE_URL || 'https://kid.example'),
  MESSENGER_URL: import.meta.env.VITE_MESSENGER_URL || 'https://m.me/kid.example',
  /** reCAPTCHA v3 site key; without one the app sends the development token the gateway accepts. */
  RECAPTCHA_SITE_KEY: import.meta.env.VITE_RECAPTCHA_SITE_KEY || '',
  /** Where images live: `{IMAGE_HOST}/{id}/{variant}` (lib/image-url.ts). */
  IMAGE_HOST: withoutTrailingSlash(import.meta.env.VITE_IMAGE_HOST || '/images'),
  /** The social page's id for the chat widget of the signed-in shell; without one there is no widget. */
  MESSENGER_PAGE_ID: import.meta.env.VITE_MESSENGER_PAGE_ID || '',
  /** Google Tag Manager container ('GTM-…'); without one no tag manager loads. */
  GTM_ID: import.meta.env.VITE_GTM_ID || '',
} as const;

/** The product identifier the server expects in the X-Product header. */
export const PRODUCT_ID = 'kid';
