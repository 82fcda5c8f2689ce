import createClient, { type Client, type Middleware } from 'openapi-fetch';

import { REQUEST_TIMEOUT_MS } from '@/config/constants';
import { env, PRODUCT_ID } from '@/config/env';
import type { paths } from '@/types/openapi.gen';

/** Field errors as the server sends them: `{ "field": ["message", ...] }`. */
export type FieldErrors = Record<string, string[]>;

export type ApiErrorBody = {
  message?: string;
  errors?: FieldErrors;
};

/**
 * What every failed call rejects with: the server's error body (`message`, `errors`) when it
 * sent one, otherwise the transport's message ('Network Error', 'timeout of 15000ms exceeded',
 * 'canceled', 'Request failed with status code 503'). `data` is the body exactly as received
 * and `status` the HTTP status.
 */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly errors: FieldErrors;
  readonly data: unknown;
  /**
   * Why no answer came, in the words the app has always shown: 'ERR_NETWORK' (the
   * network failed), 'ECONNABORTED' (the time ran out) or 'ERR_CANCELED' (the caller aborted).
   */
  readonly code: string | undefined;
  /** The answer's Retry-After in seconds (a 429 or 503 may send one), when it sent a valid one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    message: string,
    options: { status?: number; errors?: FieldErrors; data?: unknown; code?: string; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.errors = options.errors ?? {};
    this.data = options.data;
    this.code = options.code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The first server message for a field, if any. */
  fieldError(field: string): string | undefined {
    return this.errors[field]?.[0];
  }
}

const isErrorBody = (data: unknown): data is ApiErrorBody =>
  typeof data === 'object' && data !== null && ('message' in data || 'errors' in data);

/**
 * A Retry-After header in seconds, as the gateway sends it (the OpenAPI document's integer).
 * Undefined when there is none or it is not a whole number of seconds.
 */
export function parseRetryAfter(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

/** The error of an answer that is not a 2xx: its body read as JSON when it is JSON, as text otherwise. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const text = await response.clone().text();
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON: the text as it came.
  }
  const status = response.status;
  const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After') ?? undefined);
  const fallback = `Request failed with status code ${status}`;
  if (isErrorBody(data)) {
    return new ApiError(data.message ?? fallback, { status, errors: data.errors, data, retryAfterSeconds });
  }
  return new ApiError(fallback, { status, data, retryAfterSeconds });
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(error instanceof Error ? error.message : String(error));
}

/** An answer's status that has no body (fetch refuses to build a Response with one). */
const NULL_BODY_STATUSES = [101, 103, 204, 205, 304];

/**
 * `fetch` bounded by `timeoutMs` for the whole exchange, the answer's body included: the body
 * is read before the time ends, and handed on as a fresh Response. A failure without an answer
 * rejects with ApiError and the code and message the app has always shown for it. The client's
 * `fetch` is `withTimeout(REQUEST_TIMEOUT_MS)`; a call that may take longer passes its own,
 * e.g. `api.GET('/me/export', { fetch: withTimeout(60_000) })`.
 */
export function withTimeout(timeoutMs: number) {
  return async (request: Request): Promise<Response> => {
    const controller = new AbortController();
    // A flag rather than the abort's reason, which browsers before 2022 do not keep.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const callerAborted = () => controller.abort(request.signal.reason);
    if (request.signal.aborted) callerAborted();
    else request.signal.addEventListener('abort', callerAborted, { once: true });
    try {
      const response = await fetch(new Request(request, { signal: controller.signal }));
      const body = NULL_BODY_STATUSES.includes(response.status) ? null : await response.arrayBuffer();
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch {
      if (timedOut) throw new ApiError(`timeout of ${timeoutMs}ms exceeded`, { code: 'ECONNABORTED' });
      if (request.signal.aborted) throw new ApiError('canceled', { code: 'ERR_CANCELED' });
      throw new ApiError('Network Error', { code: 'ERR_NETWORK' });
    } finally {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', callerAborted);
    }
  };
}

/** A cookie's value as the browser holds it, URI-decoded. */
function readCookie(name: string): string | undefined {
  for (const cookie of document.cookie.split(';')) {
    const pair = cookie.replace(/^\s+/, '');
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq) !== name) continue;
    const value = pair.slice(eq + 1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

const XSRF_HEADER = 'X-XSRF-TOKEN';

/** Sets the XSRF header from the cookie as it is now; without the cookie, no header. */
export function echoXsrf(request: Request, cookieName: string) {
  const token = readCookie(cookieName);
  if (token) request.headers.set(XSRF_HEADER, token);
  else request.headers.delete(XSRF_HEADER);
}

/** A query's names and values as the gateway has always had them: `:`, `$`, `,` kept, a space as `+`. */
const encodeQuery = (value: string) =>
  encodeURIComponent(value)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+');

function queryText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * The query in the wire format the gateway has always read: `ids: [1, 2]` as `ids[]=1&ids[]=2`
 * (brackets, no indexes), absent and null values left out.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const pairs: string[] = [];
  const add = (name: string, value: unknown) => {
    if (value === undefined || value === null) return;
    pairs.push(`${encodeQuery(name)}=${encodeQuery(queryText(value))}`);
  };
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) add(`${name}[]`, item);
    else add(name, value);
  }
  return pairs.join('&');
}

export type ApiClient = Client<paths>;

type ApiClientOptions = {
  /** The cookie whose value every call echoes in X-XSRF-TOKEN (the double-submit). */
  xsrfCookieName: string;
  /** Called when a call that `isAuthCall` does not name answers 401: the session ended. */
  onUnauthorized: () => void;
  /** The calls whose 401 says nothing about a session ending (signing in, asking who is signed in). */
  isAuthCall: (schemaPath: string) => boolean;
  /** Middleware that sees an answer before it is turned into an ApiError (the console's retries). */
  middleware?: Middleware[];
};

/**
 * The app's HTTP client, typed by the gateway's OpenAPI document (`paths`): `env.API_URL` made
 * absolute, cookies sent, JSON asked for, the XHR and product headers, the XSRF cookie echoed,
 * REQUEST_TIMEOUT_MS for the whole exchange. A call whose answer is not a 2xx, or that gets no
 * answer, rejects with ApiError, so its result always holds `data` (read it with `dataOf`).
 */
export function createApiClient({ xsrfCookieName, onUnauthorized, isAuthCall, middleware = [] }: ApiClientOptions) {
  const client = createClient<paths>({
    // Absolute, so fetch outside a browser (Node under Vitest) takes it as a browser would. The
    // prerendering of the public pages (src/app/prerender.tsx) has no window and makes no call.
    baseUrl: new URL(env.API_URL, typeof window === 'undefined' ? 'http://localhost' : window.location.origin).href,
    credentials: 'include',
    fetch: withTimeout(REQUEST_TIMEOUT_MS),
    headers: {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      'X-Product': PRODUCT_ID,
    },
    querySerializer: serializeQuery,
  });
  client.use(
    {
      onRequest: ({ request }) => echoXsrf(request, xsrfCookieName),
      onResponse: async ({ response, schemaPath }) => {
        if (response.ok) return;
        const error = await apiErrorOf(response);
        if (error.status === 401 && !isAuthCall(schemaPath)) onUnauthorized();
        throw error;
      },
    },
    ...middleware,
  );
  return client;
}

/**
 * The body of an answer, typed by the document. The client rejects every failed call, so the
 * result always holds `data`: this narrows openapi-fetch's type to it.
 */
export function dataOf<R extends { data?: unknown; error?: unknown; response: Response }>(result: R): AnswerData<R> {
  return result.data as AnswerData<R>;
}

type AnswerData<R> = R extends { data: infer D; error?: never } ? D : never;

/**
 * A call for which an answer with `status` is an answer, not a failure (GET /me's 401 when
 * signed out, say): it resolves to `value` then, and rejects as usual otherwise.
 */
export async function orOnStatus<T, V>(call: Promise<T>, status: number, value: V): Promise<T | V> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError && error.status === status) return value;
    throw error;
  }
}

let unauthorizedHandler: (() => void) | undefined;

/**
 * Called when a call other than the auth calls answers 401, i.e. the session ended while the
 * user was signed in. The app refreshes the current user, which then sends the browser to /login.
 */
export function setUnauthorizedHandler(handler: (() => void) | undefined) {
  unauthorizedHandler = handler;
}

/** The player's client. */
export const api = createApiClient({
  xsrfCookieName: 'XSRF-TOKEN',
  onUnauthorized: () => unauthorizedHandler?.(),
  isAuthCall: (path) => /^\/(auth\/|me$)/.test(path),
});
