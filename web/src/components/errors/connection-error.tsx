import { Button, Center, Stack, Text } from '@chakra-ui/react';
import { WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';

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
