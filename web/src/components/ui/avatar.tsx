import { Avatar as ArkAvatar } from '@ark-ui/react/avatar';
import { UserRound } from 'lucide-react';
import type { ComponentProps } from 'react';
import { createStyleContext } from 'styled-system/jsx';
import { avatar } from 'styled-system/recipes';

const { withProvider, withContext } = createStyleContext(avatar);

const StyledFallback = withContext(ArkAvatar.Fallback, 'fallback');

/** First and last initials of a name, as Chakra's avatar shows them. */
function initials(name: string): string {
  const names = name.trim().split(' ');
  const first = names[0] ?? '';
  const last = names.length > 1 ? (names[names.length - 1] ?? '') : '';
  return first && last ? `${first.charAt(0)}${last.charAt(0)}` : first.charAt(0);
}

/** The initials of `name`, or an icon without one. */
function Fallback({ name, children, ...props }: ComponentProps<typeof StyledFallback> & { name?: string }) {
  return <StyledFallback {...props}>{children ?? (name ? initials(name) : <UserRound />)}</StyledFallback>;
}

/** A player's round badge (Chakra's avatar recipe on Ark's Avatar). */
export const Avatar = {
  Root: withProvider(ArkAvatar.Root, 'root'),
  Image: withContext(ArkAvatar.Image, 'image'),
  Fallback,
};
