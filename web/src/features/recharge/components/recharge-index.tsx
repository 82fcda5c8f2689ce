import { Gamepad2 } from 'lucide-react';
import { Flex } from 'styled-system/jsx';

import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

/** /recharge before a game is chosen. */
export function RechargeIndex() {
  return (
    <Flex
      direction="column"
      align="center"
      gap="3"
      px="5"
      py={{ base: '8', md: '10' }}
      textAlign="center"
      color="fg.muted"
      borderWidth="1px"
      borderStyle="dashed"
      borderColor="border"
      borderRadius="xl"
    >
      <Gamepad2 size={28} aria-hidden />
      <Text>{m['recharge.chooseProduct']()}</Text>
    </Flex>
  );
}
