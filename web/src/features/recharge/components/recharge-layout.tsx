import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';

import { CreditBar } from '@/components/balance/credit-bar';
import { PageHeader } from '@/components/layouts/page-header';

/** /recharge: the game list, with the chosen game's top-up below it and the KP balance above. */
export function RechargeLayout() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('recharge.title')} />
      <CreditBar />
      <Outlet />
    </>
  );
}
