import { ArrowLeft } from 'lucide-react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

/** Back to the choice of payment method. */
export function BackLink() {
  const { t } = useTranslation();
  return (
    <Button asChild variant="ghost" size="sm" ms="-2" mb="3" color="fg.muted">
      <RouterLink to={paths.payment}>
        <ArrowLeft size={16} aria-hidden />
        {t('payment.back')}
      </RouterLink>
    </Button>
  );
}
