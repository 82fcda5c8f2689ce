import { useTranslation } from 'react-i18next';

import { PageHeader } from '@/components/layouts/page-header';

export function SecurityScreen() {
  const { t } = useTranslation();
  return <PageHeader title={t('security.title')} />;
}
