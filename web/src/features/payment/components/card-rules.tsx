import { ShieldCheck } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Box, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { List } from '@/components/ui/list';
import { Heading } from '@/components/ui/text';
import { CARD_PROCESSING_SECONDS } from '@/config/constants';

/** The rules of card top-ups, which the player confirms before the card form shows (spec section 4). */
export function CardRules({ onConfirm }: { onConfirm: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const rules = [
    t('payment.card.rules.wrongValue'),
    t('payment.card.rules.fee'),
    t('payment.card.rules.once'),
    t('payment.card.rules.processing', CARD_PROCESSING_SECONDS),
    t('payment.card.rules.debt'),
    t('payment.card.rules.noFee'),
  ];
  return (
    <Box
      as="section"
      aria-labelledby={titleId}
      borderWidth="1px"
      borderColor="orange.muted"
      bg="orange.subtle"
      borderRadius="xl"
      p={{ base: '4', md: '5' }}
    >
      <Stack gap="4">
        <Heading as="h3" size="md" id={titleId} display="flex" alignItems="center" gap="2" color="orange.fg">
          <ShieldCheck size={20} aria-hidden />
          {t('payment.card.rules.title')}
        </Heading>
        <List.Root as="ol" gap="2" ps="5" fontSize="sm">
          {rules.map((rule) => (
            <List.Item key={rule}>{rule}</List.Item>
          ))}
        </List.Root>
        <Button alignSelf={{ base: 'stretch', sm: 'flex-start' }} onClick={onConfirm}>
          {t('payment.card.rules.confirm')}
        </Button>
      </Stack>
    </Box>
  );
}
