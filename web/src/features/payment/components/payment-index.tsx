import { useTranslation } from 'react-i18next';

import { ContentCard } from '@/components/layouts/content-card';

export function PaymentIndex() {
  const { t } = useTranslation();
  return <ContentCard color="fg.muted">{t('payment.chooseMethod')}</ContentCard>;
}
