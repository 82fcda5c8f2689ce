import { useTranslation } from 'react-i18next';

import { PageHeader } from '@/components/layouts/page-header';

export function ProfileScreen() {
  const { t } = useTranslation();
  return <PageHeader title={t('profile.title')} />;
}
