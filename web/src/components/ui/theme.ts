import { createSystem, defaultBaseConfig, defineConfig, mergeConfigs } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  collapsibleSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  fieldSlotRecipe,
  fieldsetSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  radioCardSlotRecipe,
  radiomarkRecipe,
  semanticTokens,
  separatorRecipe,
  spinnerRecipe,
  tableSlotRecipe,
  textStyles,
  tokens,
} from '@chakra-ui/react/theme';

/**
 * Chakra's colour palettes no part of the app (nor any Chakra recipe) refers to. Each palette
 * is some 27 tokens and semantic tokens that `createSystem` turns into CSS variables before the
 * first page can render, on the main thread; leaving these three out makes that about a quarter quicker.
 * theme.test.ts fails when app code names one of them.
 */
export const UNUSED_PALETTES = ['yellow', 'cyan', 'pink'] as const;

const withoutUnusedPalettes = <T extends object>(colors: T): T =>
  Object.fromEntries(
    Object.entries(colors).filter(([name]) => !(UNUSED_PALETTES as readonly string[]).includes(name)),
  ) as T;

/**
 * Chakra's default theme (`defaultConfig`) with only the recipes of the components this app
 * uses: the default one carries the recipes of every Chakra component, and all of them would
 * load before the first page. Tokens, global styles and the recipes themselves are Chakra's
 * own; theme.test.ts checks that every Chakra component imported under src/ finds its recipe
 * here, so a component used for the first time needs its recipe added below.
 */
const chakraConfig = mergeConfigs(
  defaultBaseConfig,
  defineConfig({
    preflight: true,
    cssVarsPrefix,
    cssVarsRoot,
    globalCss,
    theme: {
      breakpoints,
      keyframes,
      tokens: { ...tokens, colors: withoutUnusedPalettes(tokens.colors ?? {}) },
      semanticTokens: { ...semanticTokens, colors: withoutUnusedPalettes(semanticTokens.colors ?? {}) },
      textStyles,
      layerStyles,
      animationStyles,
      recipes: {
        badge: badgeRecipe,
        button: buttonRecipe,
        checkmark: checkmarkRecipe,
        code: codeRecipe,
        container: containerRecipe,
        heading: headingRecipe,
        icon: iconRecipe,
        input: inputRecipe,
        link: linkRecipe,
        radiomark: radiomarkRecipe,
        separator: separatorRecipe,
        spinner: spinnerRecipe,
      },
      slotRecipes: {
        alert: alertSlotRecipe,
        avatar: avatarSlotRecipe,
        checkbox: checkboxSlotRecipe,
        collapsible: collapsibleSlotRecipe,
        dialog: dialogSlotRecipe,
        field: fieldSlotRecipe,
        fieldset: fieldsetSlotRecipe,
        list: listSlotRecipe,
        menu: menuSlotRecipe,
        nativeSelect: nativeSelectSlotRecipe,
        radioCard: radioCardSlotRecipe,
        table: tableSlotRecipe,
      },
    },
  }),
);

const fontStack =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** The app's own theme on top of Chakra's. */
export const config = defineConfig({
  globalCss: {
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

export const system = createSystem(chakraConfig, config);
