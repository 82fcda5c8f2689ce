import { describe, expect, it } from 'vitest';

import { passkeyHostUrl } from '../passkeys';

const at = (href: string) => passkeyHostUrl(new URL(href));

describe('passkeyHostUrl', () => {
  it('moves a page at an IP address to localhost, keeping the port, path, query and fragment', () => {
    expect(at('http://127.0.0.1:8080/login?next_uri=%2Fsecurity#x')?.href).toBe(
      'http://localhost:8080/login?next_uri=%2Fsecurity#x',
    );
    expect(at('http://[::1]:4173/security')?.href).toBe('http://localhost:4173/security');
    expect(at('http://192.168.1.20/login')?.href).toBe('http://localhost/login');
  });

  it('leaves a page at a name where it is', () => {
    expect(at('http://localhost:8080/login')).toBeNull();
    expect(at('https://kid.example.vn/security')).toBeNull();
    expect(at('https://1.example.vn/')).toBeNull();
  });
});
