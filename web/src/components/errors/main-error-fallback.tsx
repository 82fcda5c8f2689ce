import { useTranslation } from 'react-i18next';
import { Center, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Heading } from '@/components/ui/text';
import { browser } from '@/lib/browser';

/** What the top-level error boundary shows when rendering fails outside the router. */
export function MainErrorFallback() {
  const { t } = useTranslation();
  return (
    <Center minH="100dvh" px="4" role="alert">
      <Stack align="center" gap="6" textAlign="center">
        <Heading size="lg">{t('errors.boundary')}</Heading>
        <Button onClick={() => browser.reload()}>{t('errors.reload')}</Button>
      </Stack>
    </Center>
  );
}
