import type { HttpHandler } from 'msw';

/** Handlers for PATCH /me/update-profile. */
export const profileHandlers: HttpHandler[] = [];
