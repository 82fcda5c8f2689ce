import { describe, expect, it } from 'vitest';

import { DEFAULT_IMAGE_VARIANT } from '@/config/constants';
import { env } from '@/config/env';
import { imageUrl } from '@/lib/image-url';

const HOST = 'https://imagedelivery.example/acc0unt';

describe('imageUrl', () => {
  it('builds {image host}/{id}/{variant} with the variant public by default', () => {
    expect(DEFAULT_IMAGE_VARIANT).toBe('public');
    expect(imageUrl('2cdc28f0-017a-49c4-9ed7-87056c83901', undefined, HOST)).toBe(
      `${HOST}/2cdc28f0-017a-49c4-9ed7-87056c83901/public`,
    );
  });

  it('takes another variant', () => {
    expect(imageUrl('banner-fsonline', 'thumbnail', HOST)).toBe(`${HOST}/banner-fsonline/thumbnail`);
  });

  it('uses the configured image host by default', () => {
    expect(imageUrl('logo')).toBe(`${env.IMAGE_HOST}/logo/public`);
    expect(env.IMAGE_HOST).not.toMatch(/\/$/);
  });

  it('joins without doubled slashes and escapes what a path cannot hold', () => {
    expect(imageUrl('/events/tết 2026/', 'public', `${HOST}/`)).toBe('/events/tết 2026/');
    expect(imageUrl('events/tết 2026', 'w=320', `${HOST}/`)).toBe(`${HOST}/events/t%E1%BA%BFt%202026/w%3D320`);
    expect(imageUrl(' logo ', undefined, HOST)).toBe(`${HOST}/logo/public`);
  });

  it('passes full URLs and paths on this site through as they are', () => {
    // GET /product sends the games' logos as paths of the portal (web/public/images/products).
    expect(imageUrl('/images/products/fsonline.svg', undefined, HOST)).toBe('/images/products/fsonline.svg');
    expect(imageUrl('https://cdn.example/logo.png', 'thumbnail', HOST)).toBe('https://cdn.example/logo.png');
    expect(imageUrl('//cdn.example/logo.png', undefined, HOST)).toBe('//cdn.example/logo.png');
    expect(imageUrl('data:image/png;base64,AAAA', undefined, HOST)).toBe('data:image/png;base64,AAAA');
  });

  it('gives no URL for no image', () => {
    expect(imageUrl('', undefined, HOST)).toBe('');
    expect(imageUrl('   ', undefined, HOST)).toBe('');
  });
});
