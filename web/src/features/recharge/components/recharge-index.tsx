import { useTranslation } from 'react-i18next';

import { ContentCard } from '@/components/layouts/content-card';

export function RechargeIndex() {
  const { t } = useTranslation();
  return <ContentCard color="fg.muted">{t('recharge.chooseProduct')}</ContentCard>;
}
