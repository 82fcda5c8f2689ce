import type { ComponentProps } from 'react';

import { Link } from '@/components/ui/link';
import { Text } from '@/components/ui/text';
import { m } from '@/paraglide/messages';

type TextProps = ComponentProps<typeof Text>;

/**
 * Said instead of a passkey button on a page served at an IP address, where browsers refuse
 * WebAuthn: a link to the same page on `localhost` (see `passkeyHostUrl`).
 */
export function PasskeyHostNote({ url, ...props }: TextProps & { url: URL }) {
  return (
    <Text fontSize="sm" color="fg.muted" {...props}>
      {m['passkey.hostNote']()}{' '}
      <Link href={url.href} color="brand.fg" fontWeight="medium">
        {m['passkey.hostLink']({ host: url.host })}
      </Link>
    </Text>
  );
}
