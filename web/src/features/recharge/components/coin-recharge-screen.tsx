import { ExternalLink } from 'lucide-react';
import { Navigate, useParams } from 'react-router';
import { Flex } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { ContentCard } from '@/components/layouts/content-card';
import { Link } from '@/components/ui/link';
import { Heading } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { toApiError } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { useCoinRechargeInfo } from '@/lib/coin-recharge-info';
import { m } from '@/paraglide/messages';

import { CoinRechargeForm } from './coin-recharge-form';
import { EventBanners } from './event-banners';

/**
 * /recharge/{productCode} (spec section 2, "Coin top-up"): the game's active events, then the
 * server, the amount tiles and the button. A game the server does not know (404) sends the
 * player back to the game list.
 */
export function CoinRechargeScreen() {
  const { productCode = '' } = useParams();
  const { data: user } = useUser();
  const info = useCoinRechargeInfo(productCode);

  if (info.isError && toApiError(info.error).status === 404) return <Navigate to={paths.recharge} replace />;

  return (
    <ContentCard as="section" aria-labelledby="coin-recharge-title" p={{ base: '4', md: '6' }}>
      {info.isPending && <LoadingText>{m['recharge.product.loading']()}</LoadingText>}
      {info.isError && (
        <LoadFailed
          title={m['recharge.product.loadFailed']()}
          error={info.error}
          retrying={info.isFetching}
          onRetry={() => void info.refetch()}
        />
      )}
      {info.data && (
        <>
          <Flex align="baseline" justify="space-between" gap="3" wrap="wrap" mb="5">
            <Heading as="h2" size="lg" id="coin-recharge-title">
              {info.data.name}
            </Heading>
            {info.data.homePageUrl && (
              <Link
                href={info.data.homePageUrl}
                target="_blank"
                rel="noopener noreferrer"
                fontSize="sm"
                color="fg.muted"
              >
                {m['recharge.product.homePage']()}
                <ExternalLink size={14} aria-hidden />
              </Link>
            )}
          </Flex>
          <EventBanners events={info.data.rechargeEvents} coinName={info.data.coinName} />
          {/* A new form per game: the chosen server of another game does not carry over. */}
          {user && <CoinRechargeForm key={info.data.code} product={info.data} user={user} />}
        </>
      )}
    </ContentCard>
  );
}
