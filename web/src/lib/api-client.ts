import axios, { AxiosHeaders, type AxiosError, type AxiosResponse } from 'axios';

import { REQUEST_TIMEOUT_MS } from '@/config/constants';
import { env, PRODUCT_ID } from '@/config/env';

/** Field errors as the server sends them: `{ "field": ["message", ...] }`. */
export type FieldErrors = Record<string, string[]>;

export type ApiErrorBody = {
  message?: string;
  errors?: FieldErrors;
};

/**
 * What every failed call rejects with: the server's error body (`message`, `errors`) when it
 * sent one, otherwise the transport's message ('Network Error', 'timeout of 15000ms exceeded',
 * 'request aborted'). `data` is the body exactly as received and `status` the HTTP status.
 */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly errors: FieldErrors;
  readonly data: unknown;
  /** axios' code for a failure without an answer, e.g. 'ERR_NETWORK' or 'ECONNABORTED'. */
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

function retryAfterOf(response: AxiosResponse | undefined): number | undefined {
  const headers: unknown = response?.headers;
  if (headers instanceof AxiosHeaders) return parseRetryAfter(headers.get('Retry-After'));
  if (typeof headers === 'object' && headers !== null) return parseRetryAfter(Reflect.get(headers, 'retry-after'));
  return undefined;
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (axios.isAxiosError(error)) {
    const { response } = error as AxiosError<unknown>;
    const data = response?.data;
    const retryAfterSeconds = retryAfterOf(response);
    if (isErrorBody(data)) {
      return new ApiError(data.message ?? error.message, {
        status: response?.status,
        errors: data.errors,
        data,
        code: error.code,
        retryAfterSeconds,
      });
    }
    return new ApiError(error.message, { status: response?.status, data, code: error.code, retryAfterSeconds });
  }
  return new ApiError(error instanceof Error ? error.message : String(error));
}

let unauthorizedHandler: (() => void) | undefined;

/**
 * Called when a call other than the auth calls answers 401, i.e. the session ended while the
 * user was signed in. The app refreshes the current user, which then sends the browser to /login.
 */
export function setUnauthorizedHandler(handler: (() => void) | undefined) {
  unauthorizedHandler = handler;
}

const isAuthCall = (url: string | undefined) => !!url && /^\/?(auth\/|me$)/.test(url);

/** The one HTTP client of the app. */
export const api = axios.create({
  baseURL: env.API_URL,
  withCredentials: true,
  timeout: REQUEST_TIMEOUT_MS,
  headers: {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    'X-Product': PRODUCT_ID,
  },
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  withXSRFToken: true,
  // `ids: [1, 2]` is sent as `ids[]=1&ids[]=2`.
  paramsSerializer: { indexes: false },
});

api.interceptors.response.use(undefined, (error: unknown) => {
  const apiError = toApiError(error);
  if (apiError.status === 401 && axios.isAxiosError(error) && !isAuthCall(error.config?.url)) {
    unauthorizedHandler?.();
  }
  return Promise.reject(apiError);
});
