import { DEFAULT_IMAGE_VARIANT } from '@/config/constants';
import { env } from '@/config/env';

/** A URL scheme ('https:', 'data:', 'blob:'), a path on this site ('/…') or protocol-relative ('//…'). */
const ALREADY_AN_ADDRESS = /^(?:[a-z][a-z\d+.-]*:|\/)/i;

/**
 * The URL of an image of the portal (spec section 7): `{image host}/{id}/{variant}`, variant
 * 'public' unless told. Every image of the portal (game logos and banners, event banners) goes
 * through here; eslint refuses an <img>/<Image> whose src does not.
 *
 * What the API sends is not always an id: the games' logos (GET /product, `logoImg`) come as
 * paths on the portal itself ('/images/products/fsonline.svg', served from web/public), and an
 * image may come as a full URL. Those already are addresses: they are used as they are (the
 * variant cannot apply to them), since putting them behind the image host would break them.
 */
export function imageUrl(source: string, variant: string = DEFAULT_IMAGE_VARIANT, host: string = env.IMAGE_HOST) {
  const trimmed = source.trim();
  if (!trimmed || ALREADY_AN_ADDRESS.test(trimmed)) return trimmed;
  const id = trimmed
    .split('/')
    .filter((part) => part !== '')
    .map(encodeURIComponent)
    .join('/');
  return `${host.replace(/\/+$/, '')}/${id}/${encodeURIComponent(variant)}`;
}
