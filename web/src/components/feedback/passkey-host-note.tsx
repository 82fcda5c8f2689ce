import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';

import { Link } from '@/components/ui/link';
import { Text } from '@/components/ui/text';

type TextProps = ComponentProps<typeof Text>;

/**
 * Said instead of a passkey button on a page served at an IP address, where browsers refuse
 * WebAuthn: a link to the same page on `localhost` (see `passkeyHostUrl`).
 */
export function PasskeyHostNote({ url, ...props }: TextProps & { url: URL }) {
  const { t } = useTranslation();
  return (
    <Text fontSize="sm" color="fg.muted" {...props}>
      {t('passkey.hostNote')}{' '}
      <Link href={url.href} color="brand.fg" fontWeight="medium">
        {t('passkey.hostLink', { host: url.host })}
      </Link>
    </Text>
  );
}
