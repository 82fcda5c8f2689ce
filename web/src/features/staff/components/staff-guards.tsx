import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';

import { ConnectionError } from '@/components/errors/connection-error';
import { PageFallback } from '@/components/feedback/page-fallback';
import { browser } from '@/lib/browser';

import { useStaffMe } from '../api/get-staff-me';
import { staffPaths } from '../config/paths';
import { safeStaffNext, signInPathFrom } from '../utils/next-page';

/**
 * The console's pages: nothing of them shows before the member is known. Whenever GET
 * /staff/me answers 401 (no console session, a player's session only, 15 minutes unused, or
 * the member disabled), the browser loads the console's sign-in page afresh, so nothing the
 * console showed stays in memory, with the page as `next_uri` to come back to.
 */
export function StaffProtectedRoute({ children }: { children: ReactNode }) {
  const me = useStaffMe();
  const location = useLocation();
  const signedOut = me.data === null;
  const signInPath = signInPathFrom(location);

  useEffect(() => {
    if (signedOut) browser.replace(signInPath);
  }, [signedOut, signInPath]);

  if (me.isPending || signedOut) return <PageFallback fullPage />;
  if (me.data) return children;
  return <ConnectionError onRetry={() => void me.refetch()} />;
}

/** The sign-in page: a member already signed in goes on to `next_uri`, or the console's home. */
export function StaffGuestRoute({ children }: { children: ReactNode }) {
  const me = useStaffMe();
  const [searchParams] = useSearchParams();
  if (me.isPending) return <PageFallback />;
  if (me.data) return <Navigate to={safeStaffNext(searchParams.get('next_uri')) ?? staffPaths.home} replace />;
  return children;
}
