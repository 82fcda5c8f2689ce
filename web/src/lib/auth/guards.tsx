import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';

import { ConnectionError } from '@/components/errors/connection-error';
import { PageFallback } from '@/components/feedback/page-fallback';
import { paths } from '@/config/paths';
import { useHydrated } from '@/hooks/use-hydrated';
import { browser } from '@/lib/browser';

import { useUser } from './get-user';
import { fromLocation, loginPathFrom, pathOf, safeNextUri } from './redirect';

/**
 * Signed-in pages. While the user loads, the page fallback stands in for the whole page (no
 * part of the page shows before the user is known). Whenever GET /me answers 401 (a visitor
 * without a session, or a session that ended), the browser loads /login afresh, so nothing of
 * an old session stays in memory, with the page as `next_uri` to come back to after signing in.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const user = useUser();
  const location = useLocation();
  const signedOut = user.data === null;
  const loginPath = loginPathFrom(location);

  useEffect(() => {
    if (signedOut) browser.replace(loginPath);
  }, [signedOut, loginPath]);

  if (user.isPending || signedOut) return <PageFallback fullPage />;
  if (user.data) return children;
  return <ConnectionError onRetry={() => void user.refetch()} />;
}

type GuestRouteProps = {
  children: ReactNode;
  /**
   * How a signed-in user leaves: 'page-load' (sign-in, spec section 2) loads the target afresh
   * in the browser; 'router' (sign-up) navigates within the app, and loads only `next_uri`.
   */
  leaveBy?: 'page-load' | 'router';
};

/**
 * Sign-in and sign-up. A signed-in user goes to `next_uri` when it is given, otherwise back to
 * the page a guard or a link sent them from, otherwise to /. The form shows at once, without
 * waiting for GET /me: these pages are prerendered to HTML (src/app/prerender.tsx), and most
 * visitors are signed out; a signed-in one leaves as soon as the answer comes.
 */
export function GuestRoute({ children, leaveBy = 'router' }: GuestRouteProps) {
  const user = useUser();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const nextUri = safeNextUri(searchParams.get('next_uri'));
  const from = fromLocation(location.state);
  // Hydrating the prerendered HTML, the page is as the server drew it: signed out.
  const signedIn = useHydrated() && !!user.data;
  const target = nextUri ?? (from ? pathOf(from) : paths.home);
  const byPageLoad = leaveBy === 'page-load' || nextUri !== null;

  useEffect(() => {
    if (!signedIn || !byPageLoad) return;
    // Sign-in replaces its own history entry, so Back does not return to a page that leaves again.
    if (leaveBy === 'page-load') browser.replace(target);
    else browser.assign(target);
  }, [signedIn, byPageLoad, leaveBy, target]);

  if (signedIn) {
    if (byPageLoad) return <PageFallback />;
    return <Navigate to={from ?? paths.home} replace />;
  }
  return children;
}
