import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { api, ApiError, parseRetryAfter } from '@/lib/api-client';
import { server } from '@/testing/mocks/server';

function capture(method: 'get' | 'post', path: string, respond: () => Response = () => HttpResponse.json({})) {
  const seen: Request[] = [];
  server.use(
    http[method](`/api${path}`, ({ request }) => {
      seen.push(request.clone());
      return respond();
    }),
  );
  return seen;
}

describe('api client', () => {
  it('sends the XHR and product headers and echoes the XSRF cookie', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D123; path=/';
    const seen = capture('post', '/echo');

    await api.post('/echo', { a: 1 });

    expect(seen).toHaveLength(1);
    const headers = seen[0]!.headers;
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(headers.get('X-Product')).toBe('kid');
    expect(headers.get('X-XSRF-TOKEN')).toBe('abc=123');
  });

  it('sends no XSRF header when there is no cookie', async () => {
    const seen = capture('get', '/echo');
    await api.get('/echo');
    expect(seen[0]!.headers.get('X-XSRF-TOKEN')).toBeNull();
  });

  it('calls /api by default with credentials and a 15 s timeout', () => {
    expect(api.defaults.baseURL).toBe('/api');
    expect(api.defaults.withCredentials).toBe(true);
    expect(api.defaults.timeout).toBe(15_000);
  });

  it('sends array parameters in bracket notation', async () => {
    const seen = capture('get', '/list');
    await api.get('/list', { params: { ids: [1, 2], q: 'x' } });
    const url = new URL(seen[0]!.url);
    expect(decodeURIComponent(url.search)).toBe('?ids[]=1&ids[]=2&q=x');
  });

  it('rejects with the server body: its message and field errors', async () => {
    capture('post', '/fail', () =>
      HttpResponse.json(
        { message: 'Dữ liệu không hợp lệ.', errors: { username: ['Tên đăng nhập đã tồn tại.'] } },
        { status: 422 },
      ),
    );

    const error = await api.post('/fail').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe('Dữ liệu không hợp lệ.');
    expect(apiError.status).toBe(422);
    expect(apiError.fieldError('username')).toBe('Tên đăng nhập đã tồn tại.');
    expect(apiError.data).toEqual({
      message: 'Dữ liệu không hợp lệ.',
      errors: { username: ['Tên đăng nhập đã tồn tại.'] },
    });
  });

  it("keeps a 429's Retry-After in seconds", async () => {
    capture('post', '/throttled', () =>
      HttpResponse.json({ message: 'Chậm lại.' }, { status: 429, headers: { 'Retry-After': '600' } }),
    );
    const error = (await api.post('/throttled').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(600);

    capture('post', '/throttled-bare', () => new HttpResponse(null, { status: 429 }));
    const bare = (await api.post('/throttled-bare').catch((e: unknown) => e)) as ApiError;
    expect(bare.status).toBe(429);
    expect(bare.retryAfterSeconds).toBeUndefined();
  });

  it('reads Retry-After as whole seconds and nothing else', () => {
    expect(parseRetryAfter('120')).toBe(120);
    expect(parseRetryAfter(' 0 ')).toBe(0);
    expect(parseRetryAfter(90)).toBe(90);
    expect(parseRetryAfter(1.5)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-5')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it("rejects with axios' message when the network fails", async () => {
    capture('get', '/down', () => HttpResponse.error());
    const error = (await api.get('/down').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Network Error');
    expect(error.status).toBeUndefined();
  });

  it("rejects with axios' timeout message when the server is too slow", async () => {
    server.use(
      http.get('/api/slow', async () => {
        await delay(500);
        return HttpResponse.json({});
      }),
    );
    // jsdom's XMLHttpRequest under MSW ignores timeouts; axios' fetch adapter raises the same error.
    const error = (await api
      .get('/slow', { timeout: 50, adapter: 'fetch', baseURL: `${window.location.origin}/api` })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('timeout of 50ms exceeded');
  });
});
