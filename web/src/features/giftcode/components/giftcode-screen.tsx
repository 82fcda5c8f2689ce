import { useTranslation } from 'react-i18next';

import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';

import { GiftcodeForm } from './giftcode-form';

/**
 * /giftcode: the player types a campaign's gift code and receives its KP, which the header's
 * balance and the history then show, or its in-game items, on a character of a zone they choose.
 */
export function GiftcodeScreen() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('giftcode.title')} subtitle={t('giftcode.subtitle')} />
      <ContentCard p={{ base: '4', md: '6' }}>
        <GiftcodeForm />
      </ContentCard>
    </>
  );
}
