import { Unlink } from 'lucide-react';
import { Link as RouterLink } from 'react-router';

import { Button } from '@/components/ui/button';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

import { Result } from './result';

/**
 * A mailed link that did not work (spec section 2, "Recovery"): try the link again, or ask for
 * a new mail from Account Management at /.
 */
export function BrokenLink() {
  return (
    <Result icon={Unlink} tone="red" title={m['brokenLink.title']()}>
      <Text color="fg.muted">{m['brokenLink.retry']()}</Text>
      <Text color="fg.muted">{m['brokenLink.newEmail']()}</Text>
      <Button asChild mt="2">
        <RouterLink to={paths.home}>{m['brokenLink.action']()}</RouterLink>
      </Button>
    </Result>
  );
}
