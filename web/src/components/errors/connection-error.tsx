import { WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Center, Stack } from 'styled-system/jsx';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';

export function ConnectionError({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Center py="16" px="4">
      <Stack align="center" gap="4" textAlign="center" role="alert">
        <WifiOff size={32} aria-hidden />
        <Text color="fg.muted">{t('errors.connection')}</Text>
        {onRetry && (
          <Button variant="outline" size="sm" onClick={onRetry}>
            {t('errors.retry')}
          </Button>
        )}
      </Stack>
    </Center>
  );
}
