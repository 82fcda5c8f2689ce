import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { m } from '@/paraglide/messages';

import { GiftcodeForm } from './giftcode-form';

/**
 * /giftcode: the player types a campaign's gift code and receives its KP, which the header's
 * balance and the history then show, or its in-game items, on a character of a zone they choose.
 */
export function GiftcodeScreen() {
  return (
    <>
      <PageHeader title={m['giftcode.title']()} subtitle={m['giftcode.subtitle']()} />
      <ContentCard p={{ base: '4', md: '6' }}>
        <GiftcodeForm />
      </ContentCard>
    </>
  );
}
