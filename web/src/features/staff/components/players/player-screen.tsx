import { ArrowLeft } from 'lucide-react';
import { matchPath, Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import { Box, Grid, Stack } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { MissingItem } from '@/components/feedback/missing-item';
import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { toApiError } from '@/lib/api-client';
import { m } from '@/paraglide/messages';

import { usePlayer } from '../../api/get-player';
import { useStaffMe } from '../../api/get-staff-me';
import { staffPaths } from '../../config/paths';
import { canActOnPlayer, playerAbilities } from '../../utils/player-abilities';

import { AdjustmentsSection, TicketsSection } from './activity-sections';
import { LedgerSection } from './ledger-section';
import { OrdersSection } from './orders-section';
import { PlayerBadges } from './player-badges';
import { ProfileSection, WalletSection } from './profile-sections';
import { SessionsSection, SignInsSection } from './sessions-sections';

function BackLink() {
  return (
    <Link asChild fontSize="sm" color="fg.muted" mb="3">
      <RouterLink to={staffPaths.players}>
        <ArrowLeft size={16} aria-hidden />
        {m['staff.players.back']()}
      </RouterLink>
    </Link>
  );
}

/**
 * A player's page (/staff/players/:id, every role): the account, wallet, coin orders, ledger,
 * adjustments, tickets, sessions and sign-ins. The actions are offered to the roles the services
 * allow them (utils/player-abilities.ts): support locks, unlocks, ends the sessions and resends
 * an order to its game; finance refunds an order and adjusts KP. Each action reads the page again.
 * `?transaction=<id>` points out that transaction in the ledger (a ticket's link).
 */
export function PlayerScreen() {
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  const id = matchPath(staffPaths.player, pathname)?.params.id ?? '';
  const player = usePlayer(id);
  const { data: me } = useStaffMe();
  const abilities = playerAbilities(me?.role);
  const notFound = player.isError && toApiError(player.error).status === 404;

  if (!player.data) {
    return (
      <>
        <BackLink />
        <ContentCard p={{ base: '4', md: '6' }} mt="3">
          {player.isPending && <LoadingText>{m['staff.players.page.loading']()}</LoadingText>}
          {notFound && (
            <MissingItem
              title={m['staff.players.page.notFound']()}
              hint={m['staff.players.page.notFoundHint']()}
              back={{ label: m['staff.players.back'](), to: staffPaths.players }}
            />
          )}
          {player.isError && !notFound && (
            <LoadFailed
              title={m['staff.players.page.loadFailed']()}
              error={player.error}
              retrying={player.isFetching}
              onRetry={() => void player.refetch()}
            />
          )}
        </ContentCard>
      </>
    );
  }

  const detail = player.data;
  const { username } = detail.player;
  return (
    <>
      <BackLink />
      <PageHeader
        title={
          <Box as="span" overflowWrap="anywhere">
            {username}
          </Box>
        }
        adornment={<PlayerBadges player={detail.player} />}
      />
      <Stack gap={{ base: '4', md: '6' }}>
        {me && !canActOnPlayer(abilities) && (
          <Alert.Root status="info" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Description>{m['staff.players.page.readOnly']()}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        <Grid columns={{ base: 1, lg: 2 }} gap={{ base: '4', md: '6' }} alignItems="start">
          <ProfileSection player={detail.player} canLock={abilities.lock} />
          <WalletSection wallet={detail.wallet} />
        </Grid>
        <OrdersSection orders={detail.orders} playerId={id} username={username} abilities={abilities} />
        <LedgerSection detail={detail} playerId={id} askedId={searchParams.get('transaction')} />
        <AdjustmentsSection adjustments={detail.adjustments} username={username} canAdjust={abilities.adjust} />
        <TicketsSection tickets={detail.tickets} />
        <SessionsSection
          sessions={detail.sessions}
          playerId={id}
          username={username}
          canRevoke={abilities.revokeSessions}
        />
        <SignInsSection signIns={detail.signIns} />
      </Stack>
    </>
  );
}
