export { getCsrfCookie } from './csrf';
export { getUser, useUser, userQueryOptions, USER_QUERY_KEY } from './get-user';
export { GuestRoute, ProtectedRoute } from './guards';
export { logout, useLogout } from './logout';
export { fromLocation, loginPathFrom, pathOf, safeNextUri } from './redirect';
