import { useState } from 'react';

import { ContentCard } from '@/components/layouts/content-card';
import { useUser } from '@/lib/auth';
import { m } from '@/paraglide/messages';

import { usePaymentMethods } from '../api/get-payment-methods';

import { BackLink } from './back-link';
import { CardForm } from './card-form';
import { CardRules } from './card-rules';
import { MethodHeader } from './method-header';
import { MethodsQueryStatus } from './methods-query-status';

/**
 * /payment/card (spec sections 2 and 4): the rules first; once the player has confirmed them,
 * the card form.
 */
export function CardScreen() {
  const { data: user } = useUser();
  const methods = usePaymentMethods();
  const [confirmed, setConfirmed] = useState(false);

  return (
    <ContentCard p={{ base: '4', md: '6' }}>
      <BackLink />
      <MethodHeader title={m['payment.card.title']()} subtitle={m['payment.card.subtitle']()} />
      {!confirmed ? (
        <CardRules onConfirm={() => setConfirmed(true)} />
      ) : (
        <>
          <MethodsQueryStatus query={methods} />
          {methods.data && user && <CardForm providers={methods.data.cards} user={user} />}
        </>
      )}
    </ContentCard>
  );
}
