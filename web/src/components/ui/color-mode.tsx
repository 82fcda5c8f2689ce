import { Moon, Sun } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { IconButton, type IconButtonProps } from './button';
import { useColorMode } from './use-color-mode';

export function ColorModeButton(props: Omit<IconButtonProps, 'aria-label'>) {
  const { t } = useTranslation();
  const { colorMode, toggleColorMode } = useColorMode();
  return (
    <IconButton
      variant="ghost"
      size="sm"
      aria-label={t('header.toggleColorMode')}
      title={t('header.toggleColorMode')}
      onClick={toggleColorMode}
      {...props}
    >
      {colorMode === 'dark' ? <Sun /> : <Moon />}
    </IconButton>
  );
}
