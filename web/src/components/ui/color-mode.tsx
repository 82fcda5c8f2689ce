import { Moon, Sun } from 'lucide-react';

import { m } from '@/paraglide/messages';

import { IconButton, type IconButtonProps } from './button';
import { useColorMode } from './use-color-mode';

export function ColorModeButton(props: Omit<IconButtonProps, 'aria-label'>) {
  const { colorMode, toggleColorMode } = useColorMode();
  return (
    <IconButton
      variant="ghost"
      size="sm"
      aria-label={m['header.toggleColorMode']()}
      title={m['header.toggleColorMode']()}
      onClick={toggleColorMode}
      {...props}
    >
      {colorMode === 'dark' ? <Sun /> : <Moon />}
    </IconButton>
  );
}
