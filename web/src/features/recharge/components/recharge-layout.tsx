import { Outlet } from 'react-router';

import { CreditBar } from '@/components/balance/credit-bar';
import { ConnectionError } from '@/components/errors/connection-error';
import { LoadingText } from '@/components/feedback/loading-text';
import { PageHeader } from '@/components/layouts/page-header';
import { useUser } from '@/lib/auth';
import { m } from '@/paraglide/messages';

import { GameList } from './game-list';

/**
 * /recharge (spec section 2, "Game list"): the heading, the KP balance and the games, with the
 * chosen game's top-up (or the prompt to choose one) below. Without the user nothing can be
 * bought, so it says the connection to the server was lost.
 */
export function RechargeLayout() {
  const user = useUser();
  return (
    <>
      <PageHeader title={m['recharge.title']()} />
      {user.isPending ? (
        <LoadingText>{m['app.loading']()}</LoadingText>
      ) : !user.data ? (
        <ConnectionError onRetry={() => void user.refetch()} />
      ) : (
        <>
          <CreditBar />
          <GameList />
          <Outlet />
        </>
      )}
    </>
  );
}
