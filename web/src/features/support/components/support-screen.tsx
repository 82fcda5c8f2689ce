import { Button, Stack, Text } from '@chakra-ui/react';
import { MessageCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { ContentCard } from '@/components/layouts/content-card';
import { PageHeader } from '@/components/layouts/page-header';
import { externalLinks } from '@/config/links';

export function SupportScreen() {
  const { t } = useTranslation();
  return (
    <ContentCard maxW="2xl" mx="auto">
      <PageHeader title={t('support.title')} />
      <Stack gap="4" align="flex-start">
        <Text>{t('support.inDevelopment')}</Text>
        <Text color="fg.muted">{t('support.contact')}</Text>
        <Button asChild>
          <a href={externalLinks.messenger} target="_blank" rel="noopener noreferrer">
            <MessageCircle aria-hidden />
            {t('support.messenger')}
          </a>
        </Button>
      </Stack>
    </ContentCard>
  );
}
