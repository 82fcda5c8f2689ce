import { ArrowLeft } from 'lucide-react';
import { Link as RouterLink } from 'react-router';

import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

/** Back to the choice of payment method. */
export function BackLink() {
  return (
    <Button asChild variant="ghost" size="sm" ms="-2" mb="3" color="fg.muted">
      <RouterLink to={paths.payment}>
        <ArrowLeft size={16} aria-hidden />
        {m['payment.back']()}
      </RouterLink>
    </Button>
  );
}
