import { defineConfig } from '@pandacss/dev';

import { chakraConditions } from './panda.conditions';

const invalidField = { _invalid: { focusRingColor: 'var(--error-color)', borderColor: 'var(--error-color)' } };

const fontStack = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/**
 * The app's styles, built from the source at build time (no style engine runs in the browser).
 * Chakra's own preset gives the same tokens, semantic colours, recipes and global styles as the
 * Chakra version the screens were drawn with; the app's theme (brand colours, the dark ink
 * panels, the system font) goes on top, as `src/components/ui/theme.ts` did for Chakra.
 */
export default defineConfig({
  presets: ['@pandacss/preset-base', '@chakra-ui/panda-preset'],
  preflight: true,
  jsxFramework: 'react',
  include: ['./src/**/*.{ts,tsx}'],
  exclude: ['./src/**/__tests__/**'],
  outdir: 'styled-system',
  // Chakra's conditions; the colour mode is a class on <html> (src/boot.ts sets it before the
  // first paint).
  conditions: { extend: chakraConditions },
  globalCss: {
    // Headings wrap as Chakra's preflight let them (Panda's balances their lines).
    'h1, h2, h3, h4, h5, h6': { textWrap: 'wrap' },
    html: {
      colorPalette: 'brand',
    },
    body: {
      bg: 'bg',
      color: 'fg',
      minHeight: '100dvh',
      // Paper is white, whatever the colour mode (a printed receipt sets its own dark text).
      _print: { bg: 'white' },
    },
  },
  // Colour palettes chosen at run time (a status's colour, say): their CSS cannot be read from
  // the source, so it is emitted for each palette the app may pick.
  staticCss: {
    css: [{ properties: { colorPalette: ['brand', 'gray', 'red', 'orange', 'green', 'blue', 'teal', 'purple'] } }],
  },
  theme: {
    extend: {
      // The kit's components that draw with a recipe under another name (src/components/ui/).
      recipes: {
        button: { jsx: ['Button', 'IconButton', 'CloseButton'] },
        // An invalid field's red border: Chakra's recipe sets it in the base, which Panda layers
        // below the variants, so the variant's border would win; here it is in each variant.
        input: { variants: { variant: { outline: invalidField, subtle: invalidField } } },
        textarea: { variants: { variant: { outline: invalidField, subtle: invalidField } } },
      },
      slotRecipes: {
        nativeSelect: { variants: { variant: { outline: { field: invalidField }, subtle: { field: invalidField } } } },
      },
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
  },
});
