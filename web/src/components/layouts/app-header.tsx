import { css } from 'styled-system/css';
import { Box, Container, HStack, Spacer } from 'styled-system/jsx';

import { Logo } from '@/components/logo';
import { ColorModeButton } from '@/components/ui/color-mode';
import { Link } from '@/components/ui/link';
import { HEADER_SCROLL_THRESHOLD_PX } from '@/config/constants';
import { externalLinks } from '@/config/links';
import { useWindowScrolledPast } from '@/hooks/use-window-scrolled-past';
import { m } from '@/paraglide/messages';
import type { User } from '@/types/api-schema';

import { HeaderBalance } from './header-balance';
import { UserMenu } from './user-menu';

const headerLinkStyle = css.raw({
  px: '3',
  py: '2',
  borderRadius: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  _hover: { color: 'fg', bg: 'bg.muted', textDecoration: 'none' },
});

type AppHeaderProps = {
  user: User;
  onLogout: () => void;
};

/**
 * The signed-in header; it turns solid once the page has scrolled 85 px. Its height never
 * changes: a sticky header keeps its place in the page, so a shorter scrolled header made the
 * page shorter, which on a page just long enough pulled the scroll back under the threshold
 * and the header flickered between the two styles (a click then waited for a button that
 * never stopped moving).
 */
export function AppHeader({ user, onLogout }: AppHeaderProps) {
  const scrolled = useWindowScrolledPast(HEADER_SCROLL_THRESHOLD_PX);

  return (
    <Box
      as="header"
      data-scrolled={scrolled ? '' : undefined}
      // A printed page (a receipt) is the content alone.
      _print={{ display: 'none' }}
      position="sticky"
      top="0"
      zIndex="sticky"
      borderBottomWidth="1px"
      transition="background 0.2s, box-shadow 0.2s, border-color 0.2s"
      // Each state's styles written out in full, where the build can read them.
      className={
        scrolled
          ? css({ bg: 'bg.panel/85', backdropFilter: 'saturate(180%) blur(12px)', borderColor: 'border', shadow: 'md' })
          : css({ bg: 'transparent', borderColor: 'transparent', shadow: 'none' })
      }
    >
      <Container maxW="6xl" h="16" display="flex" alignItems="center" gap="6">
        <Logo />
        <HStack as="nav" gap="1" hideBelow="md">
          <Link href={externalLinks.news} target="_blank" rel="noopener noreferrer" css={headerLinkStyle}>
            {m['header.news']()}
          </Link>
          <Link href={externalLinks.support} css={headerLinkStyle}>
            {m['header.support']()}
          </Link>
          <Link href={externalLinks.download} css={headerLinkStyle}>
            {m['header.download']()}
          </Link>
        </HStack>
        <Spacer />
        <HStack gap="1">
          <HeaderBalance credit={user.credit} />
          <ColorModeButton />
          <UserMenu user={user} onLogout={onLogout} />
        </HStack>
      </Container>
    </Box>
  );
}
