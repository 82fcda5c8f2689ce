import { WifiOff } from 'lucide-react';
import { Center, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

export function ConnectionError({ onRetry }: { onRetry?: () => void }) {
  return (
    <Center py="16" px="4">
      <Stack align="center" gap="4" textAlign="center" role="alert">
        <WifiOff size={32} aria-hidden />
        <Text color="fg.muted">{m['errors.connection']()}</Text>
        {onRetry && (
          <Button variant="outline" size="sm" onClick={onRetry}>
            {m['errors.retry']()}
          </Button>
        )}
      </Stack>
    </Center>
  );
}
