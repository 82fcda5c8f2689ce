import { useTranslation } from 'react-i18next';

import { PageHeader } from '@/components/layouts/page-header';

export function TransactionsScreen() {
  const { t } = useTranslation();
  return <PageHeader title={t('transactions.title')} subtitle={t('transactions.subtitle')} />;
}
