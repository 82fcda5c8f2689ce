import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';

import { BalanceBanner } from '@/components/balance/balance-banner';
import { PageHeader } from '@/components/layouts/page-header';

/** /payment and its methods: the heading and balance stay while the chosen method shows below. */
export function PaymentLayout() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('payment.title')} />
      <BalanceBanner />
      <Outlet />
    </>
  );
}
