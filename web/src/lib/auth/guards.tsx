import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';

import { ConnectionError } from '@/components/errors/connection-error';
import { paths } from '@/config/paths';
import { browser } from '@/lib/browser';

import { useUser } from './get-user';
import { fromLocation, safeNextUri } from './redirect';

/**
 * Signed-in pages. Renders nothing while the user loads; sends a visitor without a session to
 * /login, remembering where they were going; and when a session that existed ends (GET /me
 * turns 401), reloads the browser at /login so nothing of the old session stays in memory.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const user = useUser();
  const location = useLocation();
  const [hadUser, setHadUser] = useState(false);
  if (user.data && !hadUser) setHadUser(true);
  const sessionEnded = hadUser && user.data === null;

  useEffect(() => {
    if (sessionEnded) browser.assign(paths.login);
  }, [sessionEnded]);

  if (user.isPending || sessionEnded) return null;
  if (user.data) return children;
  if (user.isError) return <ConnectionError onRetry={() => void user.refetch()} />;
  return <Navigate to={paths.login} replace state={{ from: location }} />;
}

/**
 * Sign-in and sign-up. A signed-in user goes to `next_uri` (full page load) when it is given,
 * otherwise back to the page a guard sent them from, otherwise to /.
 */
export function GuestRoute({ children }: { children: ReactNode }) {
  const user = useUser();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const nextUri = safeNextUri(searchParams.get('next_uri'));
  const signedIn = !!user.data;

  useEffect(() => {
    if (signedIn && nextUri) browser.assign(nextUri);
  }, [signedIn, nextUri]);

  if (user.isPending) return null;
  if (signedIn) {
    if (nextUri) return null;
    return <Navigate to={fromLocation(location.state) ?? paths.home} replace />;
  }
  return children;
}
