import { delay, http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { api, ApiError, dataOf, parseRetryAfter, serializeQuery, setUnauthorizedHandler, withTimeout } from '@/lib/api-client';
import { server } from '@/testing/mocks/server';

type Method = 'get' | 'post' | 'put' | 'delete';

function capture(method: Method, path: string, respond: () => Response = () => HttpResponse.json({})) {
  const seen: Request[] = [];
  server.use(
    http[method](`/api${path}`, ({ request }) => {
      seen.push(request.clone());
      return respond();
    }),
  );
  return seen;
}

const failure = (call: Promise<unknown>) => call.then(
  () => {
    throw new Error('the call did not fail');
  },
  (error: unknown) => error as ApiError,
);

afterEach(() => {
  setUnauthorizedHandler(undefined);
  vi.useRealTimers();
});

describe('api client', () => {
  it('sends the JSON, XHR and product headers with cookies, and echoes the XSRF cookie', async () => {
    document.cookie = 'XSRF-TOKEN=abc%3D123; path=/';
    const seen = capture('post', '/auth/login');

    await api.POST('/auth/login', { body: { username: 'a', password: 'b', gReCaptchaToken: 'c' } });

    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.headers.get('Accept')).toBe('application/json');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(request.headers.get('X-Product')).toBe('kid');
    expect(request.headers.get('X-XSRF-TOKEN')).toBe('abc=123');
    expect(request.credentials).toBe('include');
    expect(await request.json()).toEqual({ username: 'a', password: 'b', gReCaptchaToken: 'c' });
  });

  it('sends no XSRF header when there is no cookie', async () => {
    const seen = capture('get', '/auth/csrf-cookie');
    await api.GET('/auth/csrf-cookie');
    expect(seen[0]!.headers.get('X-XSRF-TOKEN')).toBeNull();
  });

  it('calls /api on the page’s origin, path parameters encoded', async () => {
    const seen = capture('get', '/transactions/:id');
    await api.GET('/transactions/{id}', { params: { path: { id: 'a/b c' } } });
    expect(seen[0]!.url).toBe(`${window.location.origin}/api/transactions/a%2Fb%20c`);
  });

  it('sends a multipart form as it is, with no JSON content type', async () => {
    const seen = capture('post', '/support/tickets');
    const form = new FormData();
    form.append('subject', 'Nạp thẻ');
    form.append('transactionId', 't-1');

    await api.POST('/support/tickets', { body: form as never });

    expect(seen[0]!.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    const sent = await seen[0]!.formData();
    expect([sent.get('subject'), sent.get('transactionId')]).toEqual(['Nạp thẻ', 't-1']);
  });

  it('sends array parameters in bracket notation, encoded as before', () => {
    expect(serializeQuery({ ids: [1, 2], q: 'x' })).toBe('ids%5B%5D=1&ids%5B%5D=2&q=x');
    expect(serializeQuery({ q: 'a b:c,d$e+f&g', empty: '', none: undefined, nothing: null, on: true })).toBe(
      'q=a+b:c,d$e%2Bf%26g&empty=&on=true',
    );
  });

  it('sends the query through the same serialiser', async () => {
    const seen = capture('get', '/transactions');
    await api.GET('/transactions', { params: { query: { limit: '10', cursor: 'x y:1', type: undefined } } });
    expect(new URL(seen[0]!.url).search).toBe('?limit=10&cursor=x+y:1');
  });

  it('resolves with the answer’s body, and with nothing for a 204', async () => {
    capture('get', '/payment/methods', () => HttpResponse.json({ bank: [] }));
    expect(dataOf(await api.GET('/payment/methods'))).toEqual({ bank: [] });

    capture('post', '/auth/logout', () => new HttpResponse(null, { status: 204 }));
    const { data, response } = await api.POST('/auth/logout');
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
  });

  it('rejects with the server body: its message and field errors', async () => {
    capture('post', '/auth/register', () =>
      HttpResponse.json(
        { message: 'Dữ liệu không hợp lệ.', errors: { username: ['Tên đăng nhập đã tồn tại.'] } },
        { status: 422 },
      ),
    );

    const error = await failure(api.POST('/auth/register', { body: {} as never }));

    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Dữ liệu không hợp lệ.');
    expect(error.status).toBe(422);
    expect(error.code).toBeUndefined();
    expect(error.fieldError('username')).toBe('Tên đăng nhập đã tồn tại.');
    expect(error.data).toEqual({
      message: 'Dữ liệu không hợp lệ.',
      errors: { username: ['Tên đăng nhập đã tồn tại.'] },
    });
  });

  it('rejects with the status when the answer has no error body', async () => {
    capture('get', '/product', () => new HttpResponse(null, { status: 503 }));
    const empty = await failure(api.GET('/product'));
    expect(empty).toBeInstanceOf(ApiError);
    expect([empty.message, empty.status, empty.data]).toEqual(['Request failed with status code 503', 503, '']);

    capture('get', '/product', () => new HttpResponse('Bad Gateway', { status: 502 }));
    const text = await failure(api.GET('/product'));
    expect([text.message, text.status, text.data]).toEqual(['Request failed with status code 502', 502, 'Bad Gateway']);
  });

  it('reads a failure’s JSON body even when the call asked for bytes', async () => {
    capture('get', '/me/export', () => HttpResponse.json({ message: 'Thử lại sau.' }, { status: 429 }));
    const error = await failure(api.GET('/me/export', { parseAs: 'arrayBuffer' }));
    expect([error.message, error.status]).toEqual(['Thử lại sau.', 429]);
  });

  it("keeps a 429's Retry-After in seconds", async () => {
    capture('post', '/auth/login', () =>
      HttpResponse.json({ message: 'Chậm lại.' }, { status: 429, headers: { 'Retry-After': '600' } }),
    );
    const error = await failure(api.POST('/auth/login', { body: {} as never }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(600);

    capture('post', '/auth/login', () => new HttpResponse(null, { status: 429 }));
    const bare = await failure(api.POST('/auth/login', { body: {} as never }));
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

  it('tells the app when a call other than the auth calls answers 401', async () => {
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    const refused = () => HttpResponse.json({ message: 'Unauthenticated.' }, { status: 401 });
    capture('get', '/me', refused);
    capture('post', '/auth/login', refused);
    capture('get', '/me/sessions', refused);

    expect((await failure(api.GET('/me'))).status).toBe(401);
    expect((await failure(api.POST('/auth/login', { body: {} as never }))).status).toBe(401);
    expect(unauthorized).not.toHaveBeenCalled();

    const error = await failure(api.GET('/me/sessions'));
    expect([error.status, error.message]).toEqual([401, 'Unauthenticated.']);
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });

  it('rejects with the network failure’s message and code when no answer came', async () => {
    capture('get', '/product', () => HttpResponse.error());
    const error = await failure(api.GET('/product'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Network Error');
    expect(error.code).toBe('ERR_NETWORK');
    expect(error.status).toBeUndefined();
  });

  it('rejects with the timeout’s message and code when the server is too slow', async () => {
    server.use(
      http.get('/api/product', async () => {
        await delay(500);
        return HttpResponse.json([]);
      }),
    );
    const error = await failure(api.GET('/product', { fetch: withTimeout(50) }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('timeout of 50ms exceeded');
    expect(error.code).toBe('ECONNABORTED');
    expect(error.status).toBeUndefined();
  });

  it('gives every call 15 s by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.use(http.get('/api/product', () => delay('infinite')));
    const call = failure(api.GET('/product'));

    await vi.advanceTimersByTimeAsync(14_999);
    await vi.advanceTimersByTimeAsync(1);

    const error = await call;
    expect([error.message, error.code]).toEqual(['timeout of 15000ms exceeded', 'ECONNABORTED']);
  });

  it('rejects with code ERR_CANCELED when the caller aborts', async () => {
    server.use(http.get('/api/product', () => delay('infinite')));
    const controller = new AbortController();
    const call = failure(api.GET('/product', { signal: controller.signal }));
    controller.abort();
    const error = await call;
    expect([error.message, error.code]).toEqual(['canceled', 'ERR_CANCELED']);
  });
});
