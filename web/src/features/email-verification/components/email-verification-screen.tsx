import { useTranslation } from 'react-i18next';

import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';

export function EmailVerificationScreen() {
  const { t } = useTranslation();
  return (
    <ContentCard maxW="xl" mx="auto">
      <PageHeader title={t('emailVerification.title')} subtitle={t('emailVerification.description')} />
    </ContentCard>
  );
}
