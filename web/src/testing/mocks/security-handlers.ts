import type { HttpHandler } from 'msw';

/** The fake server's /security state (change password, email change, sessions). */
export const securityDb = {};

export function resetSecurityDb() {}

/** Handlers for POST /me/change-password, /me/security-code/, /me/change-email and /me/sessions. */
export const securityHandlers: HttpHandler[] = [];
