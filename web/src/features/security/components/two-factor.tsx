import { Badge } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { ContentCard } from '@/components/layouts/content-card';

import { SectionHeader } from './section-header';

/** Two-factor authentication is not available yet (spec section 6); nothing to act on. */
export function TwoFactor() {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <ContentCard as="section" aria-labelledby={titleId}>
      <SectionHeader
        id={titleId}
        title={t('security.twoFactor.heading')}
        description={t('security.twoFactor.description')}
        adornment={
          <Badge colorPalette="gray" variant="subtle" size="sm">
            {t('security.twoFactor.status')}
          </Badge>
        }
        mb="0"
      />
    </ContentCard>
  );
}
