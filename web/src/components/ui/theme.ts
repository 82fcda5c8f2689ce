import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';

const fontStack =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

const config = defineConfig({
  globalCss: {
    html: {
      colorPalette: 'brand',
    },
    body: {
      bg: 'bg',
      color: 'fg',
      minHeight: '100dvh',
    },
  },
  theme: {
    tokens: {
      fonts: {
        heading: { value: fontStack },
        body: { value: fontStack },
      },
      colors: {
        brand: {
          50: { value: '#fff7ed' },
          100: { value: '#ffedd5' },
          200: { value: '#fed7aa' },
          300: { value: '#fdba74' },
          400: { value: '#fb923c' },
          500: { value: '#f97316' },
          600: { value: '#ea580c' },
          700: { value: '#c2410c' },
          800: { value: '#9a3412' },
          900: { value: '#7c2d12' },
          950: { value: '#431407' },
        },
        ink: {
          800: { value: '#1a1e28' },
          850: { value: '#151922' },
          900: { value: '#10131a' },
          950: { value: '#0b0d12' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.500}' } },
          contrast: { value: { _light: '{colors.white}', _dark: '{colors.ink.950}' } },
          fg: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.300}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.900}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.950}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.800}' } },
          focusRing: { value: { _light: '{colors.brand.600}', _dark: '{colors.brand.400}' } },
        },
        bg: {
          DEFAULT: { value: { _light: '{colors.gray.50}', _dark: '{colors.ink.950}' } },
          panel: { value: { _light: '{colors.white}', _dark: '{colors.ink.900}' } },
          subtle: { value: { _light: '{colors.gray.100}', _dark: '{colors.ink.850}' } },
          muted: { value: { _light: '{colors.gray.200}', _dark: '{colors.ink.800}' } },
        },
        border: {
          DEFAULT: { value: { _light: '{colors.gray.200}', _dark: '{colors.whiteAlpha.100}' } },
        },
      },
    },
  },
});

export const system = createSystem(defaultConfig, config);
