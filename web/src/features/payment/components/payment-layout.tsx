import { Outlet } from 'react-router';

import { BalanceBanner } from '@/components/balance/balance-banner';
import { LoadingText } from '@/components/feedback/loading-text';
import { PageHeader } from '@/components/layouts/page-header';
import { useUser } from '@/lib/auth';
import { m } from '@/paraglide/messages';

import { PartnerBadge } from './partner-badge';

/**
 * /payment and its methods (spec section 2, "Top-up area"): the heading with the partner
 * badge and the balance stay while the chosen method shows below. Nothing of it shows until
 * the user has loaded.
 */
export function PaymentLayout() {
  const { data: user } = useUser();
  if (!user) return <LoadingText>{m['app.loading']()}</LoadingText>;
  return (
    <>
      <PageHeader title={m['payment.title']()} adornment={<PartnerBadge user={user} />} />
      <BalanceBanner />
      <Outlet />
    </>
  );
}
