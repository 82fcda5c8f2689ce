import { Link as RouterLink } from 'react-router';
import { css } from 'styled-system/css';
import { hstack } from 'styled-system/patterns';

import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { m } from '@/paraglide/messages';

/** The mark alone, for a brand of its own (the staff console's). */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden className={css({ flexShrink: 0 })}>
      <rect width="32" height="32" rx="8" fill="var(--colors-brand-500)" />
      <path d="M10 8h4v6.2L19.6 8H24l-6.4 7.3L24.4 24h-4.6l-4.7-6.2-1.1 1.2V24h-4z" fill="#0b0d12" />
    </svg>
  );
}

/** The product's logo, linking to /. */
export function Logo() {
  return (
    <RouterLink
      to={paths.home}
      aria-label={m['app.homeLink']()}
      className={hstack({ gap: '2.5', _hover: { textDecoration: 'none', opacity: 0.9 } })}
    >
      <LogoMark />
      <Text as="span" fontSize="xl" fontWeight="extrabold" letterSpacing="tight">
        {m['app.name']()}
      </Text>
    </RouterLink>
  );
}
