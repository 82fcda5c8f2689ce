import { Unlink } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';

import { Result } from './result';

/**
 * A mailed link that did not work (spec section 2, "Recovery"): try the link again, or ask for
 * a new mail from Account Management at /.
 */
export function BrokenLink() {
  const { t } = useTranslation();
  return (
    <Result icon={Unlink} tone="red" title={t('brokenLink.title')}>
      <Text color="fg.muted">{t('brokenLink.retry')}</Text>
      <Text color="fg.muted">{t('brokenLink.newEmail')}</Text>
      <Button asChild mt="2">
        <RouterLink to={paths.home}>{t('brokenLink.action')}</RouterLink>
      </Button>
    </Result>
  );
}
