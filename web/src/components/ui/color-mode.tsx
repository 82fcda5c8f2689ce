import { IconButton, type IconButtonProps } from '@chakra-ui/react';
import { Moon, Sun } from 'lucide-react';
import { ThemeProvider, type ThemeProviderProps } from 'next-themes';
import { useTranslation } from 'react-i18next';

import { COLOR_MODE_STORAGE_KEY, DEFAULT_COLOR_MODE } from '@/config/constants';

import { useColorMode } from './use-color-mode';

export function ColorModeProvider(props: ThemeProviderProps) {
  return (
    <ThemeProvider
      attribute="class"
      defaultTheme={DEFAULT_COLOR_MODE}
      storageKey={COLOR_MODE_STORAGE_KEY}
      enableSystem={false}
      disableTransitionOnChange
      {...props}
    />
  );
}

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
