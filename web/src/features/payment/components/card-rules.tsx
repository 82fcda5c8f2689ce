import { ShieldCheck } from 'lucide-react';
import { useId } from 'react';
import { Box, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { List } from '@/components/ui/list';
import { Heading } from '@/components/ui/text';
import { CARD_PROCESSING_SECONDS } from '@/config/constants';
import { m } from '@/paraglide/messages';

/** The rules of card top-ups, which the player confirms before the card form shows (spec section 4). */
export function CardRules({ onConfirm }: { onConfirm: () => void }) {
  const titleId = useId();
  const rules = [
    m['payment.card.rules.wrongValue'](),
    m['payment.card.rules.fee'](),
    m['payment.card.rules.once'](),
    m['payment.card.rules.processing'](CARD_PROCESSING_SECONDS),
    m['payment.card.rules.debt'](),
    m['payment.card.rules.noFee'](),
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
          {m['payment.card.rules.title']()}
        </Heading>
        <List.Root as="ol" gap="2" ps="5" fontSize="sm">
          {rules.map((rule) => (
            <List.Item key={rule}>{rule}</List.Item>
          ))}
        </List.Root>
        <Button alignSelf={{ base: 'stretch', sm: 'flex-start' }} onClick={onConfirm}>
          {m['payment.card.rules.confirm']()}
        </Button>
      </Stack>
    </Box>
  );
}
