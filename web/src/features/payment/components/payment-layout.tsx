import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';

import { PageHeader } from '@/components/layouts/page-header';

/** /payment and its methods: the heading stays while the chosen method shows below it. */
export function PaymentLayout() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('payment.title')} />
      <Outlet />
    </>
  );
}
