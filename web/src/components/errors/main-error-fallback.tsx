import { Center, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Heading } from '@/components/ui/text';
import { browser } from '@/lib/browser';
import { m } from '@/paraglide/messages';

/** What the top-level error boundary shows when rendering fails outside the router. */
export function MainErrorFallback() {
  return (
    <Center minH="100dvh" px="4" role="alert">
      <Stack align="center" gap="6" textAlign="center">
        <Heading size="lg">{m['errors.boundary']()}</Heading>
        <Button onClick={() => browser.reload()}>{m['errors.reload']()}</Button>
      </Stack>
    </Center>
  );
}
